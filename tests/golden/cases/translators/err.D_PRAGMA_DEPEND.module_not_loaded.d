/* SPDX-License-Identifier: MIT */
/* A program that depends on a kernel module which is not loaded. */
#pragma D depends_on module no_such_module_loaded

BEGIN
{
	exit(0);
}
