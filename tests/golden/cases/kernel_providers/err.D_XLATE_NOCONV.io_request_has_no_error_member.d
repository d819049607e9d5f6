/* SPDX-License-Identifier: MIT */

/*
 * A Linux block request carries no status of its own (it is an argument
 * of block_rq_complete): bufinfo_t's b_error is declared, not translated.
 */
io:::done
{
	trace(args[0]->b_error);
}
