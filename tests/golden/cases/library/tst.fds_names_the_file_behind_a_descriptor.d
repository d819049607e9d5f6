/* SPDX-License-Identifier: MIT */
/*
 * fds[fd] describes the file behind descriptor fd of the current process:
 * at BEGIN that is dtrace itself, whose standard input the golden tier
 * opens on /dev/null. fi_pathname is the kernel's d_path() of it, what
 * readlink() of /proc/self/fd/0 shows; fi_dirname and fi_name are its
 * directory and last component. A descriptor that is not open is "<none>".
 */
#pragma D option quiet

BEGIN
{
	printf("%s|%s|%s\n", fds[0].fi_pathname, fds[0].fi_dirname, fds[0].fi_name);
	printf("%s|%s\n", fds[-1].fi_pathname, fds[-1].fi_dirname);
	exit(0);
}
