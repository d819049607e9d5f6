/* SPDX-License-Identifier: MIT */
/*
 * profile-N fires on every CPU with the PC it interrupted: arg0 in the
 * kernel (0 if that CPU was in user mode), arg1 in user space (0 if it was
 * in the kernel, the idle task included). Exactly one is non-zero, and
 * each lies in its own half of the address space.
 */
#pragma D option quiet

profile-997
/(arg0 != 0) == (arg1 != 0) || (arg0 != 0 && (int64_t)arg0 >= 0) || (int64_t)arg1 < 0/
{
	printf("CPU %d: arg0 %x arg1 %x\n", cpu, arg0, arg1);
	exit(1);
}

profile-997
{
	n++;
}

tick-500ms
/n > 0/
{
	printf("one PC each\n");
	exit(0);
}
