/* SPDX-License-Identifier: MIT */
/* breakpoint() is destructive: it may not follow speculate(). */
BEGIN
{
	s = speculation();
}

BEGIN
{
	speculate(s);
	breakpoint();
}
