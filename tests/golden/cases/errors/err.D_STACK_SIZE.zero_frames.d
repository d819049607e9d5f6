/* SPDX-License-Identifier: MIT */
BEGIN
{
	stack(0);
}
