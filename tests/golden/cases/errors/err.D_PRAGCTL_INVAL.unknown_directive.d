/* SPDX-License-Identifier: MIT */
#nosuchdirective
BEGIN
{
	exit(0);
}
