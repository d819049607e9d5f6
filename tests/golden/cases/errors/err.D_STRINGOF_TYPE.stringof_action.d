/* SPDX-License-Identifier: MIT */
/* stringof needs a value; an action has none. */
BEGIN
{
	s = stringof(printf("x"));
}
