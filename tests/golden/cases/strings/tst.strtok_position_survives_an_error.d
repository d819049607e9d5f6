/* SPDX-License-Identifier: MIT */
/* @@runtest-opts: -q */
/*
 * dtrace:::ERROR is a probe firing of its own, between two clauses of the
 * firing that faulted; that firing continues with its own strtok()
 * position in its later clauses. No ERROR clause here calls strtok():
 * on the bpf engine that call chain (probe, fault subprogram, strtok())
 * has a combined stack that Linux 6.1's verifier counts above 512 bytes
 * (544), so the program is refused there (docs/program.md, "Known
 * engine limits").
 */
BEGIN
{
	printf("first: %s\n", strtok("north,south,east", ","));
}

BEGIN
{
	*(char *)NULL;
}

BEGIN
{
	printf("third: %s\n", strtok(NULL, ","));
	printf("then: %s\n", strtok(NULL, ","));
	exit(0);
}

ERROR
{
	printf("ERROR fired for action #%d\n", arg2);
}
