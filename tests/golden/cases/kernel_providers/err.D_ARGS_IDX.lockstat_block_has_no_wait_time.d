/* SPDX-License-Identifier: MIT */

/*
 * lockstat probes fire where the wait begins (lock:contention_begin): the
 * time waited, illumos' args[1], is not an argument.
 */
lockstat:::adaptive-block
{
	@ = sum(args[1]);
}
