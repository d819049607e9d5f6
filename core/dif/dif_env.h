/* SPDX-License-Identifier: MIT */
/*
 * dif_env.h - what the DIF VM needs from the place it runs in.
 *
 * The VM touches nothing outside itself except through this interface, so
 * that the same source runs in dtrace.ko, in the user engine and in tests:
 *
 *        dif_emulate(ctx)
 *            │  registers, tuple stack, scratch, variable storage: ctx
 *            │  DTrace-owned memory (string table, scratch, variable
 *            │  storage, dynamic variables): read directly
 *            ▼
 *        ctx->ops ──► load()      kernel: copy_from_kernel_nofault /
 *                                         copy_from_user_nofault
 *                                 user engine: own memory / process_vm_readv
 *                                 tests: a sandbox arena
 *                     copystr()   bounded string copy (copyinstr)
 *                     builtin()   pid, tid, execname, timestamp, probe*, ...
 *                     getarg()    args[n], arg0-arg9
 *                     ---- optional (NULL: the subroutine faults ILLOP) ----
 *                     copyin()    bulk user copy (else byte loads via load())
 *                     copyout()   copyout/copyoutstr (destructive; may refuse)
 *                     speculation()  a free speculation id, 0 if none
 *                     progenyof() is the current process a descendant of pid
 *                     d_path()    Linux d_path(struct path *) (kernel only)
 *
 * Ownership: the caller owns the context and everything it points to
 * (the DIFO, scratch, variable storage, the dynamic-variable store); the VM
 * keeps no pointer after dif_emulate() returns. Addresses are 64-bit
 * integers in the traced address space; DTrace-owned memory is addressed by
 * its host pointer.
 *
 * Faults: an ops function that cannot do its job sets *fault to a
 * DTRACEFLT_* code (normally DTRACEFLT_BADADDR) and returns 0; the VM then
 * records the code, the illegal value and the PC and stops.
 *
 * Variable storage, by kind (illumos dtrace_dif_emulate and dtrace_dynvar):
 *
 *   scope / kind              by-value (ints, pointers)   by-reference (string,
 *                                                          DIF_TF_BYREF types)
 *   global scalar  (ldgs/stgs)  ctx->globals[id-UBASE]     ctx->grefs[id-UBASE]
 *   clause-local   (ldls/stls)  ctx->locals[id-UBASE]      ctx->lrefs[id-UBASE]
 *   thread-local   (ldts/stts)  ctx->dstate  key (id, ctx->thread_key)
 *   global assoc   (ldgaa/stgaa) ctx->dstate key (tuple..., id)
 *   thread assoc   (ldtaa/sttaa) ctx->dstate key (tuple..., id, thread_key)
 *
 *   - Reading a dynamic variable that does not exist gives 0 (a NULL
 *     string); storing 0 (the register value, for strings the NULL pointer,
 *     not "") deletes it. A by-ref value is copied in on store (strings
 *     bounded by strsize, others by the variable's dtdt_size) and a load
 *     yields the address of the stored copy.
 *   - By-ref scalar globals and clause-locals live in caller-given
 *     per-variable buffers (dif_varbuf_t): the VM copies the value into the
 *     buffer on stgs/stls and ldgs/ldls yields its address. Storing 0 marks
 *     it NULL (a later load gives 0); a zeroed buffer reads as "".
 */
#ifndef DTRACE_DIF_ENV_H
#define DTRACE_DIF_ENV_H

#include "dif_compat.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Address spaces a load can target. */
enum dif_space {
	DIF_SPACE_KERNEL = 0, /* ld*, rld* (with kernel privilege) */
	DIF_SPACE_USER = 1,   /* uld*, copyinstr() */
};

/* A DIF object as the VM sees it (DIFOs never cross user/kernel as structs). */
typedef struct dif_difo {
	const dif_instr_t *text;     /* instructions */
	uint32_t len;		     /* number of instructions */
	uint32_t intlen;	     /* entries in inttab */
	const uint64_t *inttab;	     /* integer table (setx) */
	const char *strtab;	     /* string table (sets), NUL-separated */
	uint32_t strlen;	     /* bytes in strtab */
	uint32_t varlen;	     /* entries in vartab */
	const dtrace_difv_t *vartab; /* variables referenced */
	dtrace_diftype_t rtype;	     /* return type */
} dif_difo_t;

typedef struct dif_env_ops {
	/* Read size (1, 2, 4 or 8) bytes at addr in space, native endianness. */
	uint64_t (*load)(void *env, uint64_t addr, uint32_t size, enum dif_space space,
			 uint16_t *fault);
	/*
	 * Copy the string at addr into dst, at most max bytes including the
	 * terminating NUL, which is always written (max >= 1). Returns the
	 * length copied, NUL excluded.
	 */
	uint64_t (*copystr)(void *env, uint64_t addr, char *dst, uint64_t max, enum dif_space space,
			    uint16_t *fault);
	/*
	 * Value of the built-in variable id (DIF_VAR_*; for the built-in
	 * arrays regs/uregs, ndx is the index). String variables (execname,
	 * probename, ...) return an address the env's load() can read.
	 * Unknown or unavailable: *fault = DTRACEFLT_ILLOP.
	 */
	uint64_t (*builtin)(void *env, uint32_t id, uint64_t ndx, uint16_t *fault);
	/* Probe argument n (args[n], argN). */
	uint64_t (*getarg)(void *env, uint64_t n, uint16_t *fault);

	/* ---- Optional ops: NULL makes the subroutine fault with ILLOP. ---- */

	/*
	 * copyin(), copyinto(): copy size bytes of user memory at uaddr into
	 * dst. NULL: the VM copies with 1-byte load(DIF_SPACE_USER) calls.
	 */
	void (*copyin)(void *env, uint64_t uaddr, void *dst, uint64_t size, uint16_t *fault);
	/*
	 * copyout(), copyoutstr(): write size bytes from src to user address
	 * uaddr of the current process. Destructive: an engine that does not
	 * allow destructive actions sets *fault = DTRACEFLT_UPRIV (or leaves
	 * the op NULL); an unwritable address is DTRACEFLT_BADADDR.
	 */
	void (*copyout)(void *env, const void *src, uint64_t uaddr, uint64_t size, uint16_t *fault);
	/*
	 * speculation(): reserve a speculation buffer and return its id
	 * (1 ... nspec), or 0 if none is free (the engine counts the drop, as
	 * illumos counts "speculation busy/unavailable"). The engine owns the
	 * buffers; the VM only returns the id.
	 */
	uint64_t (*speculation)(void *env);
	/* progenyof(pid): 1 if the current process is pid or a descendant, else 0. */
	uint64_t (*progenyof)(void *env, uint64_t pid);
	/*
	 * d_path(path): write the path name of the struct path at kernel
	 * address path into dst (at most max bytes, NUL included, always
	 * terminated). Only a kernel engine can; others leave it NULL.
	 */
	void (*d_path)(void *env, uint64_t path, char *dst, uint64_t max, uint16_t *fault);
} dif_env_ops_t;

/* One tuple register: a subroutine argument or an associative-array key. */
typedef struct dif_tuple {
	uint64_t value; /* the value, or the address of a by-ref value */
	uint64_t size;	/* 0 for by-value; bytes for by-ref */
} dif_tuple_t;

/*
 * Storage of one by-reference scalar variable (a string global, a
 * clause-local string, a struct-typed global): data points to
 * DIF_VARBUF_HDR + size bytes, 8-byte aligned, owned by the caller.
 * data[0] == 0xff marks the value NULL (assigned 0); the value itself is at
 * data + DIF_VARBUF_HDR. size is the value's capacity: strsize for strings
 * (the VM copies at most size - 1 characters and a NUL), dtdt_size
 * otherwise. Zero the buffer to start with an empty value; clause-local
 * buffers are the caller's to reset per probe firing if it wants to.
 * A variable with data == NULL is not by-ref storage: using it faults ILLOP.
 */
typedef struct dif_varbuf {
	uint8_t *data;
	uint64_t size;
} dif_varbuf_t;

#define DIF_VARBUF_HDR 8
#define DIF_VARBUF_NULL 0xff

/*
 * The dynamic-variable store (illumos dtrace_dstate_t): thread-locals and
 * associative arrays. One arena of dynvarsize bytes given by the caller,
 * carved by dif_dstate_init() into a bucket array and fixed-size chunks;
 * no allocation, no globals. One entry = one chunk holding its key (the
 * tuple, by-value ints and by-ref contents, plus the variable id and for
 * thread-scope the thread key) and its value.
 *
 *   arena: [ dif_dstate_t bookkeeping in the struct itself ]
 *          [ buckets: nbuckets × uint32_t | chunk 1 | chunk 2 | ... ]
 *
 * Lifetime of an entry (illumos' dirty list): storing 0 unlinks the chunk
 * and puts it on the dirty list, so that a pointer loaded earlier in the
 * same firing still reads the old bytes; dif_dstate_clean(), which the
 * caller calls between probe firings (illumos cleans at cleanrate), moves
 * dirty chunks to the free list.
 *
 * Exhaustion: a store that finds no free chunk (or an entry that does not
 * fit in a chunk) is dropped and counts in drops (and in dirty_drops too
 * when dirty chunks were waiting: illumos "dynamic variable drops with
 * non-empty dirty list"); the engine reports them like illumos does. A
 * load of a missing entry gives 0 and never allocates.
 *
 * Concurrency: none. The caller serializes every dif_emulate() that uses
 * the same store (the user engine is single-threaded per consumer; a
 * kernel engine holds a lock or uses one store per CPU for thread-locals).
 * Every field below is the VM's; callers read drops and dirty_drops only.
 */
typedef struct dif_dstate {
	uint8_t *base;	      /* the arena */
	uint64_t size;	      /* its size (dynvarsize) */
	uint64_t chunksize;   /* bytes per chunk, multiple of 8 */
	uint32_t nbuckets;    /* power of two */
	uint32_t nchunks;     /* chunks carved from the arena */
	uint32_t *buckets;    /* nbuckets chain heads (chunk number, 0 = none) */
	uint8_t *chunks;      /* chunk n (1-based) at chunks + (n - 1) * chunksize */
	uint32_t free;	      /* free list head (chunk number, 0 = empty) */
	uint32_t dirty;	      /* dirty list head */
	uint32_t nused;	      /* chunks holding an entry */
	uint64_t drops;	      /* stores dropped: no free chunk / too large */
	uint64_t dirty_drops; /* of those, dropped while dirty chunks waited */
} dif_dstate_t;

/*
 * The chunk size needed for entries with up to nkeys tuple keys (the
 * variable id and thread key included), keybytes bytes of by-ref key
 * contents in all, and a value of valsize bytes (8 for by-value variables,
 * strsize for strings, dtdt_size for other by-ref types).
 */
#define DIF_DSTATE_CHUNKSIZE(nkeys, keybytes, valsize)                                         \
	((uint64_t)32 + (uint64_t)(nkeys)*16 + ((((uint64_t)(keybytes)) + 7) & ~(uint64_t)7) + \
	 ((((uint64_t)(valsize)) + 7) & ~(uint64_t)7))

/*
 * The smallest arena dif_dstate_init() carves for chunks of chunksize
 * bytes: one bucket and one chunk. Engines raise a smaller dynvarsize to
 * it, as illumos' dtrace_dstate_init() raises it to one chunk and one hash
 * bucket: a program may always keep one dynamic variable.
 */
#define DIF_DSTATE_MINSIZE(chunksize) ((uint64_t)8 + ((((uint64_t)(chunksize)) + 7) & ~(uint64_t)7))

/*
 * Carve the caller's arena mem of size bytes into buckets and chunks of
 * chunksize bytes (rounded up to 8). mem must be 8-byte aligned. Returns 0,
 * or -1 if the arena cannot hold one bucket and one chunk. Re-initialising
 * forgets every entry.
 */
int dif_dstate_init(dif_dstate_t *ds, void *mem, uint64_t size, uint64_t chunksize);

/* Move the dirty chunks to the free list: call between probe firings. */
void dif_dstate_clean(dif_dstate_t *ds);

/*
 * dif_dstate_clear_thread(): delete every thread-scope entry of thread key
 * tkey (a thread exited; illumos frees them lazily the same way). Cost:
 * one pass over the chunks.
 */
void dif_dstate_clear_thread(dif_dstate_t *ds, uint64_t tkey);

typedef struct dif_ctx {
	/* Set by the caller. */
	const dif_env_ops_t *ops;
	void *env;		/* passed to every ops function */
	const dif_difo_t *difo; /* the program; must have passed dif_validate() */
	char *scratch;		/* per-probe scratch: base ... */
	uint64_t scratch_size;	/* ... size in bytes ... */
	uint64_t scratch_used;	/* ... bytes in use (reset per probe firing) */
	uint64_t *globals;	/* scalar globals: id - DIF_VAR_OTHER_UBASE */
	uint32_t nglobals;
	uint32_t nlocals;
	uint64_t *locals; /* clause-locals (this->): id - DIF_VAR_OTHER_UBASE */
	uint64_t strsize; /* string storage: the strsize option + its NUL */
	bool kernel_priv; /* may rld* read arbitrary kernel memory */

	/* ---- Added for dynamic and by-ref variables (compatible: zero = absent). ---- */

	/*
	 * By-ref scalars: grefs[id - UBASE] (nglobals entries when non-NULL)
	 * and lrefs[id - UBASE] (nlocals entries). Every data buffer must lie
	 * inside [varmem, varmem + varmem_size), one region the VM may read
	 * and write (illumos dtrace_canstore of static variable storage).
	 */
	dif_varbuf_t *grefs;
	dif_varbuf_t *lrefs;
	uint8_t *varmem;
	uint64_t varmem_size;

	/* Thread-locals and associative arrays; NULL: those ops fault ILLOP. */
	dif_dstate_t *dstate;
	/* Identifies the current thread in thread-scope keys (e.g. the tid). */
	uint64_t thread_key;

	/*
	 * rand() state (xoroshiro128+, as illumos dtrace_xoroshiro128_plus);
	 * the caller seeds it non-zero (e.g. per CPU) and keeps it across
	 * firings. Both words zero: rand() seeds it with a fixed constant.
	 */
	uint64_t rand_state[2];
	/*
	 * strtok() state (illumos mstate dtms_strtok): where the next
	 * strtok(NULL, ...) continues, 0 = nothing. It may point into
	 * scratch, so the caller resets it (to 0) whenever it resets
	 * scratch_used (once per probe firing). strtok_limit is reserved
	 * (keep it 0).
	 */
	uint64_t strtok;
	uint64_t strtok_limit;
	/*
	 * Optional: strsize bytes the environment keeps for the whole probe
	 * firing, where strtok(str, ...) copies str. With it the caller may
	 * keep strtok across the clauses of one firing (illumos: the saved
	 * pointer is an implicit clause-local) and reset it once per firing.
	 * NULL: the copy goes to scratch, and strtok lives as scratch does.
	 * The VM reads it; nothing else writes it.
	 */
	char *strtok_buf;

	/*
	 * The probe's first nargs arguments, read directly for argN and
	 * args[N] (N < nargs) instead of through ops->getarg() (the common
	 * case without an indirect call); 0 / NULL: every argument through
	 * getarg().
	 */
	const uint64_t *args;
	uint32_t nargs;

	/*
	 * Where a Linux struct mutex keeps its owner word, for mutex_owned(),
	 * mutex_owner() and mutex_type_*() (dif_subr.c subr_mutex): the word's
	 * byte offset and the bits of it that are the owning task_struct
	 * pointer (the rest are flags). mutex_owner_mask 0: unknown, and those
	 * subroutines fault ILLOP.
	 */
	uint32_t mutex_owner;
	uint64_t mutex_owner_mask;

	/* Set by dif_emulate(). */
	uint64_t regs[DIF_DIR_NREGS];
	dif_tuple_t tupregs[DIF_DTR_NREGS];
	uint32_t ttop;	   /* tuple stack depth */
	uint16_t fault;	   /* DTRACEFLT_* or 0 */
	uint32_t fault_pc; /* byte offset (pc * 4) of the faulting insn */
	uint64_t illval;   /* the illegal value (address, var id, ...) */
	uint64_t rval;	   /* the value of ret */
} dif_ctx_t;

#ifdef __cplusplus
}
#endif

#endif /* DTRACE_DIF_ENV_H */
