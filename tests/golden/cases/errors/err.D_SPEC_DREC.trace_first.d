/* SPDX-License-Identifier: MIT */
BEGIN
{
	trace(1);
	speculate(1);
}
