/* SPDX-License-Identifier: MIT */

/*
 * errno.d: the names a return probe compares errno with are Linux's
 * numbers, aliases included.
 */
#pragma D option quiet

BEGIN
{
	printf("EPERM %d ENOENT %d EINTR %d EBADF %d\n", EPERM, ENOENT, EINTR, EBADF);
	printf("EAGAIN %d EWOULDBLOCK %d EACCES %d EFAULT %d\n", EAGAIN, EWOULDBLOCK,
	    EACCES, EFAULT);
	printf("ENOSYS %d ENOTSUP %d ETIMEDOUT %d ERESTARTSYS %d\n", ENOSYS, ENOTSUP,
	    ETIMEDOUT, ERESTARTSYS);
	exit(0);
}
