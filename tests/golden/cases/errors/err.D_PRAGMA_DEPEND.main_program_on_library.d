/* SPDX-License-Identifier: MIT */
/* Only a D library may depend on another library. */
#pragma D depends_on library procfs.d
BEGIN
{
	exit(0);
}
