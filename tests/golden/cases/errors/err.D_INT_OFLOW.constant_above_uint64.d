/* SPDX-License-Identifier: MIT */
BEGIN
{
	trace(18446744073709551616);
}
