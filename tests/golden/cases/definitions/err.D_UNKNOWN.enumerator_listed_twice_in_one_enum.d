/* SPDX-License-Identifier: MIT */
/* One enum cannot hold two members of one name, whatever their values. */
enum fruit {
	APPLE,
	PEAR = 5,
	APPLE = 9
};

BEGIN
{
	exit(0);
}
