/* SPDX-License-Identifier: MIT */
/* An aggregation is a dynamic variable: it has no address. */
BEGIN
{
	@c = count();
	trace(&@c);
}
