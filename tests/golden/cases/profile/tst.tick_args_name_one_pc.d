/*
 * A tick probe's arg0 is the kernel PC and arg1 the user PC of the thread
 * it interrupted: exactly one of them is non-zero, whichever mode that
 * thread was in.
 */
#pragma D option quiet

tick-50ms
/(arg0 != 0) != (arg1 != 0)/
{
	printf("one PC\n");
	exit(0);
}

tick-50ms
/(arg0 != 0) == (arg1 != 0)/
{
	printf("arg0 %x arg1 %x\n", arg0, arg1);
	exit(1);
}
