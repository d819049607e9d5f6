/*
 * SPDX-License-Identifier: MIT
 *
 * io.d - fileinfo_t and fds[] of the Dynamic Tracing Guide ("io Provider",
 * "fds[]"): fds[fd] describes the file behind descriptor fd of the current
 * process, read from the task's file table (struct files_struct, kernel
 * BTF):
 *	syscall::read:entry { @[fds[arg0].fi_fs, fds[arg0].fi_name] = count(); }
 * A descriptor that is not open gives "<none>" and zeroes, as on illumos.
 * fi_pathname is d_path() of the file (Linux's d_path(): the text readlink()
 * of /proc/PID/fd/N shows, from the current task's root; "pipe:[INO]",
 * "socket:[INO]", "anon_inode:[eventfd]" for pseudo files; " (deleted)"
 * after an unlinked file's), fi_dirname dirname() of it. The bpf engine
 * walks the path itself (core/engine/bpf/lib/subr_dpath.bpf.c); an engine
 * without d_path() (dtrace.ko yet) faults at run time. fi_mount, the mount
 * point, is "<unknown>", as in Oracle's port: it is d_path() of {mount,
 * mount's root}, a struct path the kernel keeps nowhere (a struct mount
 * holds its parent mount and mount point, not a struct path), which a
 * translator cannot build.
 *
 * The io provider's arguments (plugins/io): bufinfo_t, devinfo_t and
 * fileinfo_t of a block request, Linux's struct request:
 *	io:::start { @[args[1]->dev_statname] = sum(args[0]->b_bcount); }
 * b_blkno is in 512-byte sectors, as illumos' DEV_BSIZE. A request carries
 * no buffer address, completion routine or status of its own (the status
 * is an argument of block_rq_complete, not a member): b_addr, b_iodone,
 * b_resid and b_error are declared but not translated, and naming one is
 * the error "translator does not define conversion for member"
 * [D_XLATE_NOCONV]. fileinfo_t of a request is the file whose page cache
 * holds the request's first page: its name, file system and offset; the
 * kernel knows the inode and its dentry there but not the mount it was
 * reached through, so fi_pathname, fi_dirname and fi_mount are
 * "<unknown>", as is everything for I/O that is not a file's page cache
 * (direct I/O into user memory, metadata, swap).
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
	fi_mount = F == NULL ? "<none>" : "<unknown>";
	fi_oflags = F == NULL ? 0 : F->f_flags;
};

inline fileinfo_t fds[int fd] = xlate <fileinfo_t> (
    fd >= 0 && fd < curthread->files->fdt->max_fds ?
    curthread->files->fdt->fd[fd] : (struct file *)NULL);

/* b_flags, as illumos' io.d */
inline int B_BUSY = 0x0001;
inline int B_DONE = 0x0002;
inline int B_ERROR = 0x0004;
inline int B_PAGEIO = 0x0010;
inline int B_PHYS = 0x0020;
inline int B_READ = 0x0040;
inline int B_WRITE = 0x0100;
inline int B_ASYNC = 0x0400;

typedef struct bufinfo {
	int b_flags;			/* flags */
	size_t b_bcount;		/* number of bytes */
	caddr_t b_addr;			/* buffer address */
	uint64_t b_lblkno;		/* block # on device */
	uint64_t b_blkno;		/* expanded block # on device */
	size_t b_resid;			/* # of bytes not transferred */
	size_t b_bufsize;		/* size of allocated buffer */
	caddr_t b_iodone;		/* I/O completion routine */
	int b_error;			/* expanded error field */
	dev_t b_edev;			/* extended device */
} bufinfo_t;

typedef struct devinfo {
	int dev_major;			/* major number */
	int dev_minor;			/* minor number */
	int dev_instance;		/* instance number */
	string dev_name;		/* name of device */
	string dev_statname;		/* name of device + instance/minor */
	string dev_pathname;		/* pathname of device */
} devinfo_t;

/*
 * What the translators below read of a request:
 * dt_io_bdev	the partition or disk it is accounted to (rq->part, or the
 *		disk's whole-device block_device when it has none);
 * dt_io_folio	the folio of its first page (a tail page's compound_head
 *		points at the folio's head, low bit set), or NULL (no data);
 * dt_io_mapping	that folio's address_space when it is a file's page cache,
 *		else NULL: anonymous and movable memory have a low bit set
 *		(PAGE_MAPPING_FLAGS 3).
 */
inline struct block_device *dt_io_bdev[struct request *R] =
    R->part != NULL ? R->part : R->q->disk->part0;
inline struct folio *dt_io_folio[struct request *R] = R->bio == NULL ?
    (struct folio *)NULL :
    (struct folio *)((R->bio->bi_io_vec->bv_page->compound_head & 1) != 0 ?
    R->bio->bi_io_vec->bv_page->compound_head - 1 :
    (uintptr_t)R->bio->bi_io_vec->bv_page);
inline struct address_space *dt_io_mapping[struct request *R] =
    dt_io_folio[R] == NULL || ((uintptr_t)dt_io_folio[R]->mapping & 3) != 0 ?
    (struct address_space *)NULL : dt_io_folio[R]->mapping;

/*
 * include/linux/blk_types.h: the operation is cmd_flags' low 8 bits, odd
 * for a write (op_is_write()); __REQ_SYNC is bit 11.
 */
translator bufinfo_t < struct request *R > {
	b_flags = ((R->cmd_flags & 1) != 0 ?
	    (B_WRITE | ((R->cmd_flags & (1 << 11)) == 0 ? B_ASYNC : 0)) : B_READ) |
	    (R->bio == NULL ? 0 : dt_io_mapping[R] != NULL ? B_PAGEIO : B_PHYS);
	b_bcount = R->__data_len;
	b_lblkno = R->__sector;
	b_blkno = R->__sector;
	b_bufsize = R->__data_len;
	b_edev = dt_io_bdev[R]->bd_dev;
};

/*
 * The block device the request is accounted to, named as /proc/diskstats
 * names it (dev_statname: "sda1", "vda", "loop0"); dev_name is its disk,
 * dev_instance the disk's number among its driver's (first minor over
 * minors per disk). kernel dev_t: major in the bits above 20 (MINORBITS).
 */
translator devinfo_t < struct request *R > {
	dev_major = dt_io_bdev[R]->bd_dev >> 20;
	dev_minor = dt_io_bdev[R]->bd_dev & 0xfffff;
	dev_instance = R->q->disk->minors > 1 ?
	    R->q->disk->first_minor / R->q->disk->minors : R->q->disk->first_minor;
	dev_name = stringof(R->q->disk->disk_name);
	dev_statname = stringof(dt_io_bdev[R]->bd_device.kobj.name);
	dev_pathname = strjoin("/dev/", stringof(dt_io_bdev[R]->bd_device.kobj.name));
};

/*
 * The file whose page cache holds the request's first page: the mapping's
 * inode and its first dentry (inode->i_dentry lists struct dentry's
 * d_u.d_alias). fi_offset is the folio's index in the file plus the page's
 * place in the folio (struct page is 64 bytes) and the data's offset in it.
 */
translator fileinfo_t < struct request *R > {
	fi_name = dt_io_mapping[R] == NULL || dt_io_mapping[R]->host->i_dentry.first == NULL ?
	    "<unknown>" : stringof(((struct dentry *)((uintptr_t)
	    dt_io_mapping[R]->host->i_dentry.first - offsetof(struct dentry, d_u)))->d_name.name);
	fi_dirname = "<unknown>";
	fi_pathname = "<unknown>";
	fi_offset = dt_io_mapping[R] == NULL ? -1 :
	    (offset_t)dt_io_folio[R]->index * 4096 +
	    ((uintptr_t)R->bio->bi_io_vec->bv_page - (uintptr_t)dt_io_folio[R]) / 64 * 4096 +
	    R->bio->bi_io_vec->bv_offset;
	fi_fs = dt_io_mapping[R] == NULL ? "<unknown>" :
	    stringof(dt_io_mapping[R]->host->i_sb->s_type->name);
	fi_mount = "<unknown>";
};
