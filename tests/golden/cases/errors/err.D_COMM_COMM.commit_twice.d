/* SPDX-License-Identifier: MIT */
BEGIN
{
	commit(1);
	commit(1);
}
