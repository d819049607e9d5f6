/*
 * SPDX-License-Identifier: MIT
 *
 * io.d - fileinfo_t and fds[] of the Dynamic Tracing Guide ("io Provider",
 * "fds[]"): fds[fd] describes the file behind descriptor fd of the current
 * process, read from the task's file table (struct files_struct, kernel
 * BTF):
 *	syscall::read:entry { @[fds[arg0].fi_fs, fds[arg0].fi_name] = count(); }
 * A descriptor that is not open gives "<none>" and zeroes, as on illumos.
 * fi_pathname, fi_dirname and fi_mount are d_path() of the file and of its
 * mount: an engine without d_path() refuses the program that names them.
 */
#pragma D depends_on module vmlinux

typedef long long offset_t;

typedef struct fileinfo {
	string fi_name;			/* name (basename of fi_pathname) */
	string fi_dirname;		/* directory (dirname of fi_pathname) */
	string fi_pathname;		/* full pathname */
	offset_t fi_offset;		/* offset within file */
	string fi_fs;			/* filesystem */
	string fi_mount;		/* mount point of file system */
	int fi_oflags;			/* open(2) flags for file descriptor */
} fileinfo_t;

translator fileinfo_t < struct file *F > {
	fi_name = F == NULL ? "<none>" : stringof(F->f_path.dentry->d_name.name);
	fi_dirname = F == NULL ? "<none>" : dirname(d_path(&F->f_path));
	fi_pathname = F == NULL ? "<none>" : d_path(&F->f_path);
	fi_offset = F == NULL ? 0 : F->f_pos;
	fi_fs = F == NULL ? "<none>" : stringof(F->f_path.mnt->mnt_sb->s_type->name);
	fi_mount = F == NULL ? "<none>" : d_path(&F->f_path.mnt->mnt_root);
	fi_oflags = F == NULL ? 0 : F->f_flags;
};

inline fileinfo_t fds[int fd] = xlate <fileinfo_t> (
    fd >= 0 && fd < curthread->files->fdt->max_fds ?
    curthread->files->fdt->fd[fd] : (struct file *)NULL);
