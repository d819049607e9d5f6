/* SPDX-License-Identifier: MIT */
/* Without -q, the BEGIN firing line precedes the aggregation. */

BEGIN
{
	@ = count();
	exit(0);
}
