/* SPDX-License-Identifier: MIT */
BEGIN
{
	@a = count();
	trace(@a);
}
