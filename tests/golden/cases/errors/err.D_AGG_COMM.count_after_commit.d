/* SPDX-License-Identifier: MIT */
BEGIN
{
	commit(1);
	@a = count();
}
