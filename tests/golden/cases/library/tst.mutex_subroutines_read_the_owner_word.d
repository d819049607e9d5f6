/* SPDX-License-Identifier: MIT */
/* @@runtest-opts: -q */
/*
 * mutex_owner(), mutex_owned(), mutex_type_adaptive() and mutex_type_spin()
 * read a Linux struct mutex, whose owner word is the owning thread's
 * task_struct pointer with flag bits below it (a waiter, a hand-off, a
 * pick-up). Here the mutex is one this clause writes in scratch: free,
 * held by another thread with each flag, then held by the calling thread.
 * mutex_owner() gives the thread without the flags, mutex_owned() is true
 * only for the calling thread, and a Linux mutex is adaptive, never a spin
 * mutex. A mutex at a bad address faults, as any load there does (and
 * the clause's output is discarded).
 */
BEGIN
{
	this->m = (struct mutex *)alloca(sizeof (struct mutex));
	printf("%-20s %-18s %s %s %s\n", "owner word", "mutex_owner", "owned", "adaptive",
	    "spin");

	this->m->owner.counter = 0;
	printf("%-20s %-18x %5d %8d %4d\n", "free", (uint64_t)mutex_owner(this->m),
	    mutex_owned(this->m), mutex_type_adaptive(this->m), mutex_type_spin(this->m));

	this->m->owner.counter = 0xffff888012345600;
	printf("%-20s %-18x %5d %8d %4d\n", "other thread", (uint64_t)mutex_owner(this->m),
	    mutex_owned(this->m), mutex_type_adaptive(this->m), mutex_type_spin(this->m));

	this->m->owner.counter = 0xffff888012345601;
	printf("%-20s %-18x %5d\n", "other, a waiter", (uint64_t)mutex_owner(this->m),
	    mutex_owned(this->m));

	this->m->owner.counter = 0xffff888012345607;
	printf("%-20s %-18x %5d\n", "other, every flag", (uint64_t)mutex_owner(this->m),
	    mutex_owned(this->m));

	/* curthread: NULL where no thread is traced (the user engine's BEGIN) */
	this->m->owner.counter = (long)curthread | 1;
	printf("this thread: owner is curthread %d, owned %d\n",
	    mutex_owner(this->m) == curthread, mutex_owned(this->m) == (curthread != NULL));
}

BEGIN
{
	printf("not printed %d\n", mutex_type_adaptive((struct mutex *)8));
}

ERROR
{
	printf("fault %d at 0x%x\n", arg4, arg5);
	exit(0);
}
