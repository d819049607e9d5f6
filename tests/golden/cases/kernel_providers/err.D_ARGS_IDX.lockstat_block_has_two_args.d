/* SPDX-License-Identifier: MIT */

/*
 * A lockstat contention probe has the Guide's two arguments, the lock and
 * the time waited: there is no args[2].
 */
lockstat:::adaptive-block
{
	@ = sum(args[2]);
}
