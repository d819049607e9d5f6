/* SPDX-License-Identifier: MIT OR GPL-2.0 */
/*
 * subr_dpath.bpf.c - d_path(struct path *): the path name of a file as
 * Linux's d_path() (fs/d_path.c) writes it, the text readlink() shows for
 * /proc/PID/fd/N. The kernel's bpf_d_path() helper is allowed only in
 * fentry/LSM programs of an allow-list, so the walk is done here, reading
 * the structures with bpf_probe_read_kernel at the offsets dt_status holds
 * (dt_bpf_dpath_offsets, from vmlinux BTF: there are no CO-RE relocations).
 *
 *   path->dentry has d_op->d_dname and is not a mounted root
 *       a pseudo file, named from its super block's magic (d_dname's own
 *       formats): pipefs "pipe:[INO]", sockfs "socket:[INO]",
 *       anon_inodefs "anon_inode:NAME" ("anon_inode:[eventfd]"), pidfs
 *       "anon_inode:[pidfd]", nsfs and dma-buf "FSTYPE:[INO]" (where Linux
 *       names the namespace type or the buffer), any other simple_dname()'s
 *       "/NAME (deleted)" (memfd, aio, secretmem: alloc_file_pseudo());
 *   else the walk (prepend_path()): from {dentry, mount}, prepend "/NAME"
 *       and go to d_parent until the dentry is its mount's root, then
 *       continue from the mount point in the parent mount (struct mount
 *       embeds the struct vfsmount the path points to: container_of), up
 *       to the current task's root (current->fs->root, as d_path(): a
 *       chroot or a mount namespace sees paths from its own root; a
 *       file outside that root is named from the global root) or the
 *       top of the mount tree; " (deleted)" after an unlinked file's
 *       name; "/" when nothing was prepended. A dentry that is its own
 *       parent before the mount root is reached (escaped) gives "/", as
 *       prepend_path() does.
 *
 * The walk runs in bpf_loop (one component or mount crossing per step, at
 * most DT_DP_STEPS steps: the verifier checks the step as one function,
 * whatever the bound; a call costs it about 6K instructions at any
 * strsize), right to left into temporary B; its state lives in result
 * slots (map memory), so that the step's state converges at once where the
 * verifier iterates callbacks. The result is the path's first strsize - 1
 * characters (strsize counts the NUL here), as the other string functions
 * truncate. Linux returns -ENAMETOOLONG for a
 * path longer than its buffer (a page for /proc readlink); a path longer
 * than temporary B (8 KiB, twice PATH_MAX) or deeper than the step bound
 * here gives the part walked, its last components.
 *
 * Faults: the struct path is read as any load (a tagged or kernel address;
 * BADADDR at it); a kernel structure the walk cannot read faults BADADDR
 * at that word's address. Linux's d_path() trusts the pointers (it runs on
 * live objects); an unreadable name is there "xxx", here a fault.
 *
 * No other function calls this file's: a program without d_path() has not
 * one instruction more (the linker appends only what is called).
 */
#include "dt_lib_impl.h"

#define DIF_SUBR_D_PATH 49

/* include/uapi/linux/magic.h */
#define DT_PIPEFS_MAGIC 0x50495045ULL
#define DT_SOCKFS_MAGIC 0x534F434BULL
#define DT_ANON_INODE_FS_MAGIC 0x09041934ULL
#define DT_PID_FS_MAGIC 0x50494446ULL
#define DT_NSFS_MAGIC 0x6e736673ULL
#define DT_DMA_BUF_MAGIC 0x444d4142ULL

#define DT_DP_STEPS 8192	  /* components plus mount crossings */
#define DT_DP_END (DT_TMP_SIZE - 1) /* the path ends before B[DT_DP_END] */
#define DT_DP_NAME 256		  /* NAME_MAX + the NUL */

/* Result slots of the walk (dt_lib_impl.h DT_RES). */
#define DT_DP_DENTRY 16
#define DT_DP_MOUNT 17 /* struct mount * */
#define DT_DP_POS 18   /* the path is B[pos .. DT_DP_END) */
#define DT_DP_RDENT 19 /* current->fs->root */
#define DT_DP_RMNT 20
#define DT_DP_START 21 /* pos before the walk (after " (deleted)") */
#define DT_DP_STR 22   /* the result string */

/* The kernel word at addr, or 0 after faulting BADADDR at it. */
DT_INLINE u64 dt_dp_rd(struct dt_bpf_mem *m, u64 addr)
{
	u64 v = 0;

	if (bpf_probe_read_kernel(&v, 8, (void *)addr))
		return dt_fault(m, DTRACEFLT_BADADDR, dt_badaddr(addr, 0));
	return v;
}

/* B[at] = c */
DT_INLINE void dt_dp_put(struct dt_bpf_mem *m, u64 at, uint8_t c)
{
	DT_TB(m, DT_TMP_B, at) = c;
}

struct dt_dp_ctx {
	struct dt_bpf_mem *m;
	struct dt_bpf_status *st;
};

/*
 * One step of prepend_path(): 0 to go on, 1 when the walk is over (the
 * root, the top of the mount tree, an escape, no room, a fault).
 */
static long dt_dp_step(uint32_t i, void *ctx)
{
	struct dt_dp_ctx *c = ctx;
	struct dt_bpf_mem *m = c->m;
	struct dt_bpf_status *st = c->st;
	u64 dentry, mount, parent, mroot, mp, name, pos;
	long r;

	(void)i;
	dentry = dt_res(m, DT_DP_DENTRY);
	mount = dt_res(m, DT_DP_MOUNT);
	if (dentry == dt_res(m, DT_DP_RDENT) &&
	    mount + st->dpath.mnt_mnt == dt_res(m, DT_DP_RMNT))
		return 1;
	mroot = dt_dp_rd(m, mount + st->dpath.mnt_mnt + st->dpath.mnt_root);
	parent = dt_dp_rd(m, dentry + st->dpath.d_parent);
	if (m->fault.code)
		return 1;
	if (dentry == mroot) {
		mp = dt_dp_rd(m, mount + st->dpath.mnt_parent);
		if (m->fault.code || mp == mount)
			return 1; /* the top: the global root or a detached tree */
		dt_res_set(m, DT_DP_DENTRY, dt_dp_rd(m, mount + st->dpath.mnt_mountpoint));
		dt_res_set(m, DT_DP_MOUNT, mp);
		return 0;
	}
	if (dentry == parent) {
		/* Escaped: prepend_path() forgets what it prepended. */
		dt_res_set(m, DT_DP_POS, dt_res(m, DT_DP_START));
		return 1;
	}
	name = dt_dp_rd(m, dentry + st->dpath.d_name);
	if (m->fault.code)
		return 1;
	r = bpf_probe_read_kernel_str(DT_SP(m, DT_TMP_A), DT_DP_NAME, (void *)name);
	if (r < 0) {
		dt_fault(m, DTRACEFLT_BADADDR, dt_badaddr(name, 0));
		return 1;
	}
	r = r > 0 ? r - 1 : 0; /* the name's length */
	pos = dt_res(m, DT_DP_POS);
	if (pos < (u64)r + 1 || pos > DT_DP_END)
		return 1; /* longer than B: the part walked */
	pos -= (u64)r + 1;
	dt_dp_put(m, pos, '/');
	bpf_probe_read_kernel(&m->scratch[DT_CLAMP(DT_TMP_B + pos + 1,
						   DT_BPF_SCRATCH_SIZE - DT_DP_NAME)],
			      (u64)r & (DT_DP_NAME - 1), DT_SP(m, DT_TMP_A));
	dt_res_set(m, DT_DP_POS, pos);
	dt_res_set(m, DT_DP_DENTRY, parent);
	return 0;
}

/* B[at ..] = the decimal digits of v; returns at + their number. */
DT_INLINE u64 dt_dp_num(struct dt_bpf_mem *m, u64 at, u64 v)
{
	uint8_t *t = DT_SP(m, DT_TMP_A); /* right to left in A[0 .. 20) */
	u64 n = 0;

#pragma clang loop unroll(disable)
	for (int k = 0; k < 20; k++) {
		t[(19 - k) & 31] = '0' + v % 10;
		v /= 10;
		n++;
		if (!v)
			break;
	}
	n = DT_CLAMP(n, 20);
	bpf_probe_read_kernel(&m->scratch[DT_CLAMP(DT_TMP_B + at, DT_BPF_SCRATCH_SIZE - 32)],
			      n & 31, t + 20 - n);
	return at + n;
}

/* B[at ..] = the string at kernel address s (at most 255 bytes); returns the end. */
DT_INLINE u64 dt_dp_kstr(struct dt_bpf_mem *m, u64 at, u64 s)
{
	long r;

	r = bpf_probe_read_kernel_str(&m->scratch[DT_CLAMP(DT_TMP_B + at,
							   DT_BPF_SCRATCH_SIZE - DT_DP_NAME)],
				      DT_DP_NAME, (void *)s);
	if (r < 0)
		return dt_fault(m, DTRACEFLT_BADADDR, dt_badaddr(s, 0));
	return at + (r > 0 ? (u64)r - 1 : 0);
}

/* Byte stores of a constant (no .rodata in the library). */
#define DT_DP_PUT(m, at, ...)                                              \
	({                                                                 \
		const char s_[] = {__VA_ARGS__};                           \
		_Pragma("clang loop unroll(full)") for (unsigned k_ = 0;   \
							  k_ < sizeof(s_); \
							  k_++)            \
			dt_dp_put(m, (at) + k_, s_[k_]);                   \
		(at) + sizeof(s_);                                         \
	})

/*
 * The d_dname() name of a pseudo file into B[0 ..]: its length (0 after a
 * fault).
 */
DT_INLINE u64 dt_dp_dname(struct dt_bpf_mem *m, struct dt_bpf_status *st, u64 dentry)
{
	u64 sb, magic, ino, n;

	sb = dt_dp_rd(m, dentry + st->dpath.d_sb);
	magic = (uint32_t)dt_dp_rd(m, sb + st->dpath.s_magic);
	ino = dt_dp_rd(m, dt_dp_rd(m, dentry + st->dpath.d_inode) + st->dpath.i_ino);
	if (m->fault.code)
		return 0;
	if (magic == DT_PIPEFS_MAGIC) {
		n = DT_DP_PUT(m, 0, 'p', 'i', 'p', 'e', ':', '[');
	} else if (magic == DT_SOCKFS_MAGIC) {
		n = DT_DP_PUT(m, 0, 's', 'o', 'c', 'k', 'e', 't', ':', '[');
	} else if (magic == DT_ANON_INODE_FS_MAGIC || magic == DT_PID_FS_MAGIC) {
		n = DT_DP_PUT(m, 0, 'a', 'n', 'o', 'n', '_', 'i', 'n', 'o', 'd', 'e', ':');
		if (magic == DT_PID_FS_MAGIC)
			return DT_DP_PUT(m, n, '[', 'p', 'i', 'd', 'f', 'd', ']');
		return dt_dp_kstr(m, n, dt_dp_rd(m, dentry + st->dpath.d_name));
	} else if (magic == DT_NSFS_MAGIC || magic == DT_DMA_BUF_MAGIC) {
		n = dt_dp_kstr(m, 0, dt_dp_rd(m, dt_dp_rd(m, sb + st->dpath.s_type) +
						     st->dpath.fst_name));
		if (m->fault.code)
			return 0;
		n = DT_DP_PUT(m, n, ':', '[');
	} else {
		/* simple_dname(): "/NAME (deleted)" */
		n = DT_DP_PUT(m, 0, '/');
		n = dt_dp_kstr(m, n, dt_dp_rd(m, dentry + st->dpath.d_name));
		if (m->fault.code)
			return 0;
		return DT_DP_PUT(m, n, ' ', '(', 'd', 'e', 'l', 'e', 't', 'e', 'd', ')');
	}
	n = dt_dp_num(m, n, ino);
	return DT_DP_PUT(m, n, ']');
}

/*
 * current->fs->root into the root slots ({0, 0} for a task without
 * fs_struct: the walk then ends at the top of the mount tree).
 */
DT_INLINE void dt_dp_root(struct dt_bpf_mem *m, struct dt_bpf_status *st)
{
	u64 fs = 0, root[2] = {0, 0};

	bpf_probe_read_kernel(&fs, 8, (void *)(bpf_get_current_task() + st->dpath.task_fs));
	if (fs) {
		bpf_probe_read_kernel(&root[0], 8,
				      (void *)(fs + st->dpath.fs_root + st->dpath.path_mnt));
		bpf_probe_read_kernel(&root[1], 8,
				      (void *)(fs + st->dpath.fs_root + st->dpath.path_dentry));
	}
	dt_res_set(m, DT_DP_RMNT, root[0]);
	dt_res_set(m, DT_DP_RDENT, root[1]);
}

DT_API u64 dt_subr_d_path(struct dt_bpf_mem *m, u64 strsize, u64 path)
{
	struct dt_bpf_status *st = dt_map0(&dt_status);
	struct dt_dp_ctx c;
	u64 vfsmnt, dentry, op, parent, pos, start, len, d;

	strsize = dt_strsize(strsize);
	if (!st || !st->dpath.dp_ok)
		return dt_fault(m, DTRACEFLT_ILLOP, DIF_SUBR_D_PATH);
	vfsmnt = dt_ld(m, path + st->dpath.path_mnt, 8, 0);
	if (m->fault.code)
		return 0;
	dentry = dt_ld(m, path + st->dpath.path_dentry, 8, 0);
	if (m->fault.code)
		return 0;
	d = dt_alloc(m, strsize);
	if (!d)
		return 0;
	dt_res_set(m, DT_DP_STR, d);
	op = dt_dp_rd(m, dentry + st->dpath.d_op);
	parent = dt_dp_rd(m, dentry + st->dpath.d_parent);
	if (m->fault.code)
		return 0;
	if (op && dt_dp_rd(m, op + st->dpath.d_dname) &&
	    (dentry != parent || dentry != dt_dp_rd(m, vfsmnt + st->dpath.mnt_root))) {
		start = 0;
		len = dt_dp_dname(m, st, dentry);
	} else {
		/* d_unlinked(): unhashed and not a root */
		pos = DT_DP_END;
		if (dentry != parent && !dt_dp_rd(m, dentry + st->dpath.d_hash_pprev))
			pos = DT_DP_PUT(m, DT_DP_END - 10, ' ', '(', 'd', 'e', 'l', 'e', 't', 'e',
					'd', ')') - 10;
		dt_res_set(m, DT_DP_POS, pos);
		dt_res_set(m, DT_DP_START, pos);
		dt_res_set(m, DT_DP_DENTRY, dentry);
		dt_res_set(m, DT_DP_MOUNT, vfsmnt - st->dpath.mnt_mnt);
		dt_dp_root(m, st);
		c.m = m;
		c.st = st;
		bpf_loop(DT_DP_STEPS, dt_dp_step, &c, 0);
		pos = dt_res(m, DT_DP_POS);
		if (pos == dt_res(m, DT_DP_START) && pos > 0 && pos <= DT_DP_END) {
			pos--;
			dt_dp_put(m, pos, '/');
		}
		start = pos & (DT_TMP_SIZE - 1);
		len = DT_DP_END - start;
	}
	if (m->fault.code)
		return 0;
	if (len > strsize - 1)
		len = strsize - 1;
	d = dt_res(m, DT_DP_STR);
	dt_mcpy(m, DT_BPF_TAG_OFF(d), DT_SP(m, DT_TMP_B) + (start & (DT_TMP_SIZE - 1)),
		len & (DT_TMP_SIZE - 1));
	return d;
}
