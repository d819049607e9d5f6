/* @@runtest-args: first last */
/*
 * curpsinfo's pr_argv is the address of the process's initial argument
 * vector and pr_argc its length: the last argument is the last operand dtrace
 * was given, a NULL ends the vector, and pr_envp follows that NULL.
 */
#pragma D option quiet

BEGIN
{
	this->argv = curpsinfo->pr_argv;
	this->argc = curpsinfo->pr_argc;
	this->last = copyinstr(*(uintptr_t *)copyin(this->argv +
	    (this->argc - 1) * sizeof (uintptr_t), sizeof (uintptr_t)));
	printf("last = %s, is $2 = %d, $1 = %s\n", this->last,
	    this->last == $$2, $$1);
	printf("argv[argc] = %d\n", *(uintptr_t *)copyin(this->argv +
	    this->argc * sizeof (uintptr_t), sizeof (uintptr_t)));
	printf("envp follows = %d\n", curpsinfo->pr_envp ==
	    this->argv + (this->argc + 1) * sizeof (uintptr_t));
	printf("model LP64 = %d\n", curpsinfo->pr_dmodel == PR_MODEL_LP64);
	exit(0);
}
