/* SPDX-License-Identifier: MIT */
BEGIN
{
	printa(1);
}
