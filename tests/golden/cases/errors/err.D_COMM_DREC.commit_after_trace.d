/* SPDX-License-Identifier: MIT */
BEGIN
{
	trace(1);
	commit(1);
}
