/* SPDX-License-Identifier: MIT */
BEGIN
{
	stack(1, 2);
}
