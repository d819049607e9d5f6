/* SPDX-License-Identifier: MIT */
BEGIN
{
	speculate(1);
	speculate(1);
}
