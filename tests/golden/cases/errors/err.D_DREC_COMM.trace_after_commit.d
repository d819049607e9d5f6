/* SPDX-License-Identifier: MIT */
BEGIN
{
	commit(1);
	trace(1);
}
