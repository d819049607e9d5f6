/* SPDX-License-Identifier: MIT */

/* A kernel symbol that kallsyms does not list cannot be resolved. */
BEGIN
{
	trace(`dtrace_no_such_kernel_symbol);
}
