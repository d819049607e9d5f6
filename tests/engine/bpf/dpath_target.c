// SPDX-License-Identifier: MIT
/*
 * dpath_target.c - files for the d_path() tests (runtime_dpath_test.cc) to
 * name: dpath_target DIR OUT opens, under the empty directory DIR,
 *
 *   a regular file, a directory, "/", a file on a tmpfs mounted at
 *   DIR/mnt, a file reached through a bind mount of DIR/src at DIR/bind,
 *   a file then unlinked, a file under a path longer than 256 characters,
 *   a pipe, a socket, an eventfd, two memfds (a short name and the
 *   longest), a pidfd,
 *
 * (the mounts in a mount namespace of its own, when the kernel lets it
 * make one: else a line "#nomount" says so), then for each descriptor N
 * writes "N|<readlink /proc/self/fd/N>" to OUT and calls write(N, buf, 0)
 * (the probe's cue: nothing is written). Then it chroot()s into DIR,
 * opens "/inroot" and does the same again (its readlink() as the kernel
 * gives it there, through a descriptor of /proc/self/fd opened before).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#define MAXFD 32

static int fds[MAXFD];
static int nfds;
static int procfd;

static void add(int fd, const char *what)
{
	if (fd < 0) {
		fprintf(stderr, "dpath_target: %s: %s\n", what, strerror(errno));
		exit(2);
	}
	fds[nfds++] = fd;
}

static int openat_path(const char *dir, const char *name, int flags)
{
	char p[4096];

	snprintf(p, sizeof(p), "%s/%s", dir, name);
	return open(p, flags, 0600);
}

/* One line per descriptor into out, then the probes' cue for each. */
static void report(FILE *out)
{
	char link[8192], name[16];
	ssize_t n;

	for (int i = 0; i < nfds; i++) {
		snprintf(name, sizeof(name), "%d", fds[i]);
		n = readlinkat(procfd, name, link, sizeof(link) - 1);
		if (n < 0) {
			fprintf(stderr, "dpath_target: readlink %d: %s\n", fds[i], strerror(errno));
			exit(2);
		}
		link[n] = '\0';
		fprintf(out, "%d|%s\n", fds[i], link);
	}
	fflush(out);
	for (int i = 0; i < nfds; i++)
		(void)syscall(SYS_write, fds[i], "", 0);
}

/* DIR/src, DIR/bind, DIR/mnt: a tmpfs and a bind mount, or 0 if not allowed. */
static int make_mounts(const char *dir)
{
	char src[4096], dst[4096], mnt[4096];

	snprintf(src, sizeof(src), "%s/src", dir);
	snprintf(dst, sizeof(dst), "%s/bind", dir);
	snprintf(mnt, sizeof(mnt), "%s/mnt", dir);
	if (mkdir(src, 0700) || mkdir(dst, 0700) || mkdir(mnt, 0700))
		return 0;
	if (unshare(CLONE_NEWNS) != 0 || mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) != 0)
		return 0;
	if (mount("dt_dpath", mnt, "tmpfs", 0, "size=64k") != 0 ||
	    mount(src, dst, NULL, MS_BIND, NULL) != 0)
		return 0;
	return 1;
}

int main(int argc, char **argv)
{
	const char *dir;
	char deep[4096], seg[64];
	FILE *out;
	int fd, sv[2];

	if (argc != 3) {
		fprintf(stderr, "usage: dpath_target DIR OUT\n");
		return 2;
	}
	dir = argv[1];
	out = fopen(argv[2], "w");
	procfd = open("/proc/self/fd", O_RDONLY | O_DIRECTORY);
	if (!out || procfd < 0) {
		perror("dpath_target");
		return 2;
	}
	add(openat_path(dir, "plain", O_CREAT | O_RDWR), "plain");
	add(open(dir, O_RDONLY | O_DIRECTORY), "dir");
	add(open("/", O_RDONLY | O_DIRECTORY), "/");
	if (make_mounts(dir)) {
		add(openat_path(dir, "mnt/intmpfs", O_CREAT | O_RDWR), "tmpfs file");
		add(openat_path(dir, "bind/viabind", O_CREAT | O_RDWR), "bind file");
	} else {
		fprintf(out, "#nomount\n");
	}
	fd = openat_path(dir, "deleted", O_CREAT | O_RDWR);
	add(fd, "deleted");
	snprintf(deep, sizeof(deep), "%s/deleted", dir);
	unlink(deep);
	snprintf(deep, sizeof(deep), "%s", dir);
	memset(seg, 'd', 60);
	seg[60] = '\0';
	for (int i = 0; i < 5; i++) {
		strcat(deep, "/");
		strcat(deep, seg);
		mkdir(deep, 0700);
	}
	add(openat_path(deep, "file", O_CREAT | O_RDWR), "deep file");
	if (pipe(sv) != 0)
		sv[0] = sv[1] = -1;
	add(sv[0], "pipe");
	if (socketpair(AF_UNIX, SOCK_STREAM, 0, sv) != 0)
		sv[0] = -1;
	add(sv[0], "socket");
	add(eventfd(0, 0), "eventfd");
	add((int)syscall(SYS_memfd_create, "dt_memfd", 0), "memfd");
	memset(seg, 'm', 49);
	seg[49] = '\0';
	snprintf(deep, sizeof(deep), "%s%s%s%s%s", seg, seg, seg, seg, seg);
	add((int)syscall(SYS_memfd_create, deep, 0), "memfd, longest name"); /* 249 */
	add((int)syscall(SYS_pidfd_open, getpid(), 0), "pidfd");
	report(out);

	/* Inside a chroot: paths from the new root, and from the global root outside it. */
	fd = openat_path(dir, "inroot", O_CREAT | O_RDWR);
	close(fd);
	if (chroot(dir) != 0 || chdir("/") != 0) {
		perror("dpath_target: chroot");
		return 2;
	}
	add(open("/inroot", O_RDONLY), "/inroot");
	report(out);
	fclose(out);
	return 0;
}
