/* SPDX-License-Identifier: MIT */
/*
 * Under the pspec option a word at the start of a statement is a probe
 * description: "int*x" names probes (a glob), so a clause without a
 * predicate or actions follows, which a script may not have.
 */
#pragma D option pspec

int*x
