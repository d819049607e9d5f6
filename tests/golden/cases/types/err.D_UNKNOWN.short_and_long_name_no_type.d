/* SPDX-License-Identifier: MIT */
/* short and long together name a type that does not exist. */
BEGIN
{
	x = (short long int)1;
}
