/* SPDX-License-Identifier: GPL-2.0-only WITH Linux-syscall-note OR MIT */
/*
 * uapi/dtrace/dif.h - the DTrace Intermediate Format (DIF): the instruction
 * set every engine runs (docs/architecture.md §1).
 *
 * This header is shared verbatim by the MIT userspace (compiler, user engine,
 * BPF translator, `dtrace -S`) and the GPL kernel core (kmod/), hence the dual
 * licence: "GPL-2.0-only WITH Linux-syscall-note" for the kernel's uapi rules,
 * "OR MIT" so that userspace may include it without taking the GPL.
 *
 * It is illumos-compatible: opcode numbers, variable ids, subroutine numbers,
 * type and variable descriptors and fault codes are those of illumos
 * sys/dtrace.h ("DTrace Intermediate Format") so that DIF produced for or by
 * illumos disassembles the same. Our only extensions are DIF_SUBR_D_PATH and
 * DIF_SUBR_COPYINARGS, placed after the last illumos subroutine.
 *
 * Instruction encoding: one 32-bit word, most significant byte first.
 *
 *    31      24 23      16 15       8 7        0
 *   +----------+----------+----------+----------+
 *   |    op    |    r1    |    r2    |    rd    |   ALU, cmp, loads, stores,
 *   +----------+----------+----------+----------+   mov/not, allocs, copys, ret
 *   |    op    |            label (24)          |   ba, be, bne, ... (pc index)
 *   +----------+----------+----------+----------+
 *   |    op    |   var / int / str / subr (16)  |    rd    |
 *   +----------+---------------------+----------+   setx, sets, ld?s, st?s
 *   |    op    |   var    |    ri    |    rd    |   (call, ldgaa ... as well)
 *   +----------+----------+----------+----------+   ldga, ldta (8-bit array id)
 *   |    op    |   type   |    r2    |    rs    |   pushtr, pushtv
 *   +----------+----------+----------+----------+
 *
 * Labels are instruction indexes (not byte offsets); a branch goes to
 * label, which must lie after the branch (forward only: DIF has no loops)
 * and before the end of the text. Fault PCs are reported as byte offsets
 * (index * 4), as illumos does.
 *
 * Registers: DIF_DIR_NREGS integer registers; %r0 always reads 0 and may
 * not be written. DIF_DTR_NREGS tuple registers hold subroutine arguments
 * and associative-array keys, pushed by pushtr/pushtv and cleared by
 * flushts/popts.
 *
 * Variables: ids 0x00-0xff are arrays (built-in below 0x80), ids
 * 0x100-0xffff are scalars or associative arrays (built-in below 0x500).
 * A DIF object lists the user variables it touches in its variable table
 * (dtrace_difv_t), with scope (global, thread-local `self->`, clause-local
 * `this->`) and type.
 *
 * Strings: a register holding a string holds its address; `sets` yields the
 * address of a string-table entry, string subroutines allocate their result
 * in the per-probe scratch buffer. Strings are bounded by the `strsize`
 * option.
 */
#ifndef _UAPI_DTRACE_DIF_H
#define _UAPI_DTRACE_DIF_H

#ifdef __KERNEL__
#include <linux/types.h>
#else
#include <stdint.h>
#endif

#define DIF_VERSION_1	1	/* DIF version 1: Solaris 10 Beta */
#define DIF_VERSION_2	2	/* DIF version 2: Solaris 10 FCS */
#define DIF_VERSION	DIF_VERSION_2
#define DIF_DIR_NREGS	8	/* number of DIF integer registers */
#define DIF_DTR_NREGS	8	/* number of DIF tuple registers */

/* Opcodes (illumos numbering). Operands as in the picture above. */
#define DIF_OP_OR	1	/* or	r1, r2, rd */
#define DIF_OP_XOR	2	/* xor	r1, r2, rd */
#define DIF_OP_AND	3	/* and	r1, r2, rd */
#define DIF_OP_SLL	4	/* sll	r1, r2, rd */
#define DIF_OP_SRL	5	/* srl	r1, r2, rd */
#define DIF_OP_SUB	6	/* sub	r1, r2, rd */
#define DIF_OP_ADD	7	/* add	r1, r2, rd */
#define DIF_OP_MUL	8	/* mul	r1, r2, rd */
#define DIF_OP_SDIV	9	/* sdiv	r1, r2, rd */
#define DIF_OP_UDIV	10	/* udiv	r1, r2, rd */
#define DIF_OP_SREM	11	/* srem	r1, r2, rd */
#define DIF_OP_UREM	12	/* urem	r1, r2, rd */
#define DIF_OP_NOT	13	/* not	r1, rd */
#define DIF_OP_MOV	14	/* mov	r1, rd */
#define DIF_OP_CMP	15	/* cmp	r1, r2 */
#define DIF_OP_TST	16	/* tst	r1 */
#define DIF_OP_BA	17	/* ba	label */
#define DIF_OP_BE	18	/* be	label */
#define DIF_OP_BNE	19	/* bne	label */
#define DIF_OP_BG	20	/* bg	label */
#define DIF_OP_BGU	21	/* bgu	label */
#define DIF_OP_BGE	22	/* bge	label */
#define DIF_OP_BGEU	23	/* bgeu	label */
#define DIF_OP_BL	24	/* bl	label */
#define DIF_OP_BLU	25	/* blu	label */
#define DIF_OP_BLE	26	/* ble	label */
#define DIF_OP_BLEU	27	/* bleu	label */
#define DIF_OP_LDSB	28	/* ldsb	[r1], rd */
#define DIF_OP_LDSH	29	/* ldsh	[r1], rd */
#define DIF_OP_LDSW	30	/* ldsw	[r1], rd */
#define DIF_OP_LDUB	31	/* ldub	[r1], rd */
#define DIF_OP_LDUH	32	/* lduh	[r1], rd */
#define DIF_OP_LDUW	33	/* lduw	[r1], rd */
#define DIF_OP_LDX	34	/* ldx	[r1], rd */
#define DIF_OP_RET	35	/* ret	rd */
#define DIF_OP_NOP	36	/* nop */
#define DIF_OP_SETX	37	/* setx	intindex, rd */
#define DIF_OP_SETS	38	/* sets	strindex, rd */
#define DIF_OP_SCMP	39	/* scmp	r1, r2 */
#define DIF_OP_LDGA	40	/* ldga	var, ri, rd */
#define DIF_OP_LDGS	41	/* ldgs	var, rd */
#define DIF_OP_STGS	42	/* stgs	var, rs */
#define DIF_OP_LDTA	43	/* ldta	var, ri, rd */
#define DIF_OP_LDTS	44	/* ldts	var, rd */
#define DIF_OP_STTS	45	/* stts	var, rs */
#define DIF_OP_SRA	46	/* sra	r1, r2, rd */
#define DIF_OP_CALL	47	/* call	subr, rd */
#define DIF_OP_PUSHTR	48	/* pushtr type, rs, rr */
#define DIF_OP_PUSHTV	49	/* pushtv type, rs, rv */
#define DIF_OP_POPTS	50	/* popts */
#define DIF_OP_FLUSHTS	51	/* flushts */
#define DIF_OP_LDGAA	52	/* ldgaa var, rd */
#define DIF_OP_LDTAA	53	/* ldtaa var, rd */
#define DIF_OP_STGAA	54	/* stgaa var, rs */
#define DIF_OP_STTAA	55	/* sttaa var, rs */
#define DIF_OP_LDLS	56	/* ldls	var, rd */
#define DIF_OP_STLS	57	/* stls	var, rs */
#define DIF_OP_ALLOCS	58	/* allocs r1, rd */
#define DIF_OP_COPYS	59	/* copys r1, r2, rd */
#define DIF_OP_STB	60	/* stb	r1, [rd] */
#define DIF_OP_STH	61	/* sth	r1, [rd] */
#define DIF_OP_STW	62	/* stw	r1, [rd] */
#define DIF_OP_STX	63	/* stx	r1, [rd] */
#define DIF_OP_ULDSB	64	/* uldsb [r1], rd */
#define DIF_OP_ULDSH	65	/* uldsh [r1], rd */
#define DIF_OP_ULDSW	66	/* uldsw [r1], rd */
#define DIF_OP_ULDUB	67	/* uldub [r1], rd */
#define DIF_OP_ULDUH	68	/* ulduh [r1], rd */
#define DIF_OP_ULDUW	69	/* ulduw [r1], rd */
#define DIF_OP_ULDX	70	/* uldx	[r1], rd */
#define DIF_OP_RLDSB	71	/* rldsb [r1], rd */
#define DIF_OP_RLDSH	72	/* rldsh [r1], rd */
#define DIF_OP_RLDSW	73	/* rldsw [r1], rd */
#define DIF_OP_RLDUB	74	/* rldub [r1], rd */
#define DIF_OP_RLDUH	75	/* rlduh [r1], rd */
#define DIF_OP_RLDUW	76	/* rlduw [r1], rd */
#define DIF_OP_RLDX	77	/* rldx	[r1], rd */
#define DIF_OP_XLATE	78	/* xlate xlrindex, rd (library only) */
#define DIF_OP_XLARG	79	/* xlarg xlrindex, rd (library only) */
#define DIF_OP_MAX	DIF_OP_XLARG

#define DIF_INTOFF_MAX		0xffff	/* highest integer table offset */
#define DIF_STROFF_MAX		0xffff	/* highest string table offset */
#define DIF_REGISTER_MAX	0xff	/* highest register number */
#define DIF_VARIABLE_MAX	0xffff	/* highest variable identifier */
#define DIF_SUBROUTINE_MAX	0xffff	/* highest subroutine code */

/* Variable id ranges. */
#define DIF_VAR_ARRAY_MIN	0x0000	/* lowest numbered array variable */
#define DIF_VAR_ARRAY_UBASE	0x0080	/* lowest user-defined array */
#define DIF_VAR_ARRAY_MAX	0x00ff	/* highest numbered array variable */
#define DIF_VAR_OTHER_MIN	0x0100	/* lowest numbered scalar or assoc */
#define DIF_VAR_OTHER_UBASE	0x0500	/* lowest user-defined scalar or assoc */
#define DIF_VAR_OTHER_MAX	0xffff	/* highest numbered scalar or assoc */

/* Built-in variables. */
#define DIF_VAR_ARGS		0x0000	/* arguments array */
#define DIF_VAR_REGS		0x0001	/* registers array */
#define DIF_VAR_UREGS		0x0002	/* user registers array */
#define DIF_VAR_CURTHREAD	0x0100	/* thread pointer */
#define DIF_VAR_TIMESTAMP	0x0101	/* timestamp */
#define DIF_VAR_VTIMESTAMP	0x0102	/* virtual timestamp */
#define DIF_VAR_IPL		0x0103	/* interrupt priority level */
#define DIF_VAR_EPID		0x0104	/* enabled probe ID */
#define DIF_VAR_ID		0x0105	/* probe ID */
#define DIF_VAR_ARG0		0x0106	/* first argument */
#define DIF_VAR_ARG1		0x0107
#define DIF_VAR_ARG2		0x0108
#define DIF_VAR_ARG3		0x0109
#define DIF_VAR_ARG4		0x010a
#define DIF_VAR_ARG5		0x010b
#define DIF_VAR_ARG6		0x010c
#define DIF_VAR_ARG7		0x010d
#define DIF_VAR_ARG8		0x010e
#define DIF_VAR_ARG9		0x010f	/* tenth argument */
#define DIF_VAR_STACKDEPTH	0x0110	/* stack depth */
#define DIF_VAR_CALLER		0x0111	/* caller */
#define DIF_VAR_PROBEPROV	0x0112	/* probe provider */
#define DIF_VAR_PROBEMOD	0x0113	/* probe module */
#define DIF_VAR_PROBEFUNC	0x0114	/* probe function */
#define DIF_VAR_PROBENAME	0x0115	/* probe name */
#define DIF_VAR_PID		0x0116	/* process ID */
#define DIF_VAR_TID		0x0117	/* (per-process) thread ID */
#define DIF_VAR_EXECNAME	0x0118	/* name of executable */
#define DIF_VAR_ZONENAME	0x0119	/* zone name associated with process */
#define DIF_VAR_WALLTIMESTAMP	0x011a	/* wall-clock timestamp */
#define DIF_VAR_USTACKDEPTH	0x011b	/* user-land stack depth */
#define DIF_VAR_UCALLER		0x011c	/* user-level caller */
#define DIF_VAR_PPID		0x011d	/* parent process ID */
#define DIF_VAR_UID		0x011e	/* process user ID */
#define DIF_VAR_GID		0x011f	/* process group ID */
#define DIF_VAR_ERRNO		0x0120	/* thread errno */
#define DIF_VAR_CPU		0x0121	/* Linux extension: the current CPU */
/*
 * Linux extensions for containers (docs/containers.md), numbered apart
 * from the illumos range so that other extensions can follow DIF_VAR_CPU:
 * the process, thread and parent ids as the thread's own pid namespace
 * numbers them (getpid() inside it; 0 for a parent outside it), and the
 * thread's cgroup v2 id (the inode number of its /sys/fs/cgroup directory).
 */
#define DIF_VAR_NSPID		0x0130
#define DIF_VAR_NSTID		0x0131
#define DIF_VAR_NSPPID		0x0132
#define DIF_VAR_CGROUP		0x0133
#define DIF_VAR_BUILTIN_MAX	DIF_VAR_CGROUP	/* last built-in scalar */

/* Subroutines (call subr, rd); arguments are in the tuple registers. */
#define DIF_SUBR_RAND			0
#define DIF_SUBR_MUTEX_OWNED		1
#define DIF_SUBR_MUTEX_OWNER		2
#define DIF_SUBR_MUTEX_TYPE_ADAPTIVE	3
#define DIF_SUBR_MUTEX_TYPE_SPIN	4
#define DIF_SUBR_RW_READ_HELD		5
#define DIF_SUBR_RW_WRITE_HELD		6
#define DIF_SUBR_RW_ISWRITER		7
#define DIF_SUBR_COPYIN			8
#define DIF_SUBR_COPYINSTR		9
#define DIF_SUBR_SPECULATION		10
#define DIF_SUBR_PROGENYOF		11
#define DIF_SUBR_STRLEN			12
#define DIF_SUBR_COPYOUT		13
#define DIF_SUBR_COPYOUTSTR		14
#define DIF_SUBR_ALLOCA			15
#define DIF_SUBR_BCOPY			16
#define DIF_SUBR_COPYINTO		17
#define DIF_SUBR_MSGDSIZE		18
#define DIF_SUBR_MSGSIZE		19
#define DIF_SUBR_GETMAJOR		20
#define DIF_SUBR_GETMINOR		21
#define DIF_SUBR_DDI_PATHNAME		22
#define DIF_SUBR_STRJOIN		23
#define DIF_SUBR_LLTOSTR		24
#define DIF_SUBR_BASENAME		25
#define DIF_SUBR_DIRNAME		26
#define DIF_SUBR_CLEANPATH		27
#define DIF_SUBR_STRCHR			28
#define DIF_SUBR_STRRCHR		29
#define DIF_SUBR_STRSTR			30
#define DIF_SUBR_STRTOK			31
#define DIF_SUBR_SUBSTR			32
#define DIF_SUBR_INDEX			33
#define DIF_SUBR_RINDEX			34
#define DIF_SUBR_HTONS			35
#define DIF_SUBR_HTONL			36
#define DIF_SUBR_HTONLL			37
#define DIF_SUBR_NTOHS			38
#define DIF_SUBR_NTOHL			39
#define DIF_SUBR_NTOHLL			40
#define DIF_SUBR_INET_NTOP		41
#define DIF_SUBR_INET_NTOA		42
#define DIF_SUBR_INET_NTOA6		43
#define DIF_SUBR_TOUPPER		44
#define DIF_SUBR_TOLOWER		45
#define DIF_SUBR_GETF			46	/* illumos; Solaris file_t, unsupported */
#define DIF_SUBR_JSON			47	/* illumos */
#define DIF_SUBR_STRTOLL		48	/* illumos */
#define DIF_SUBR_D_PATH			49	/* Linux: d_path(struct path *) */
#define DIF_SUBR_COPYINARGS		50	/* Linux: argument area as a string */
#define DIF_SUBR_LINK_NTOP		51	/* Linux: link-layer address as text */
#define DIF_SUBR_MAX			51	/* max subroutine value */

typedef uint32_t dif_instr_t;

/* Field accessors. */
#define DIF_INSTR_OP(i)		(((i) >> 24) & 0xff)
#define DIF_INSTR_R1(i)		(((i) >> 16) & 0xff)
#define DIF_INSTR_R2(i)		(((i) >> 8) & 0xff)
#define DIF_INSTR_RD(i)		((i) & 0xff)
#define DIF_INSTR_RS(i)		((i) & 0xff)
#define DIF_INSTR_LABEL(i)	((i) & 0xffffff)
#define DIF_INSTR_VAR(i)	(((i) >> 8) & 0xffff)
#define DIF_INSTR_INTEGER(i)	(((i) >> 8) & 0xffff)
#define DIF_INSTR_STRING(i)	(((i) >> 8) & 0xffff)
#define DIF_INSTR_SUBR(i)	(((i) >> 8) & 0xffff)
#define DIF_INSTR_TYPE(i)	(((i) >> 16) & 0xff)
#define DIF_INSTR_XLREF(i)	(((i) >> 8) & 0xffff)

/* Builders (constant expressions: usable in static tables). */
#define DIF_INSTR_FMT(op, r1, r2, d) \
	((dif_instr_t)(((uint32_t)(op) << 24) | ((uint32_t)(r1) << 16) | \
		       ((uint32_t)(r2) << 8) | (uint32_t)(d)))
#define DIF_INSTR_NOT(r1, d)		DIF_INSTR_FMT(DIF_OP_NOT, r1, 0, d)
#define DIF_INSTR_MOV(r1, d)		DIF_INSTR_FMT(DIF_OP_MOV, r1, 0, d)
#define DIF_INSTR_CMP(op, r1, r2)	DIF_INSTR_FMT(op, r1, r2, 0)
#define DIF_INSTR_TST(r1)		DIF_INSTR_FMT(DIF_OP_TST, r1, 0, 0)
#define DIF_INSTR_BRANCH(op, label) \
	((dif_instr_t)(((uint32_t)(op) << 24) | (uint32_t)(label)))
#define DIF_INSTR_LOAD(op, r1, d)	DIF_INSTR_FMT(op, r1, 0, d)
#define DIF_INSTR_STORE(op, r1, d)	DIF_INSTR_FMT(op, r1, 0, d)
#define DIF_INSTR_SETX(i, d) \
	((dif_instr_t)(((uint32_t)DIF_OP_SETX << 24) | ((uint32_t)(i) << 8) | (uint32_t)(d)))
#define DIF_INSTR_SETS(s, d) \
	((dif_instr_t)(((uint32_t)DIF_OP_SETS << 24) | ((uint32_t)(s) << 8) | (uint32_t)(d)))
#define DIF_INSTR_RET(d)		DIF_INSTR_FMT(DIF_OP_RET, 0, 0, d)
#define DIF_INSTR_NOP			((dif_instr_t)((uint32_t)DIF_OP_NOP << 24))
#define DIF_INSTR_LDA(op, v, r, d)	DIF_INSTR_FMT(op, v, r, d)
#define DIF_INSTR_LDV(op, v, d) \
	((dif_instr_t)(((uint32_t)(op) << 24) | ((uint32_t)(v) << 8) | (uint32_t)(d)))
#define DIF_INSTR_STV(op, v, rs) \
	((dif_instr_t)(((uint32_t)(op) << 24) | ((uint32_t)(v) << 8) | (uint32_t)(rs)))
#define DIF_INSTR_CALL(s, d) \
	((dif_instr_t)(((uint32_t)DIF_OP_CALL << 24) | ((uint32_t)(s) << 8) | (uint32_t)(d)))
#define DIF_INSTR_PUSHTS(op, t, r2, rs)	DIF_INSTR_FMT(op, t, r2, rs)
#define DIF_INSTR_POPTS			((dif_instr_t)((uint32_t)DIF_OP_POPTS << 24))
#define DIF_INSTR_FLUSHTS		((dif_instr_t)((uint32_t)DIF_OP_FLUSHTS << 24))
#define DIF_INSTR_ALLOCS(r1, d)		DIF_INSTR_FMT(DIF_OP_ALLOCS, r1, 0, d)
#define DIF_INSTR_COPYS(r1, r2, d)	DIF_INSTR_FMT(DIF_OP_COPYS, r1, r2, d)
#define DIF_INSTR_XLATE(op, r, d) \
	((dif_instr_t)(((uint32_t)(op) << 24) | ((uint32_t)(r) << 8) | (uint32_t)(d)))

#define DIF_REG_R0	0	/* %r0 is always set to zero */

/*
 * A DIF type: the type of a variable, of a tuple element and of a DIF
 * object's return value. Strings are DIF_TYPE_STRING; everything else is
 * described by CTF (dtdt_ckind) with its size in bytes.
 */
typedef struct dtrace_diftype {
	uint8_t dtdt_kind;	/* type kind (DIF_TYPE_*) */
	uint8_t dtdt_ckind;	/* type kind in CTF */
	uint8_t dtdt_flags;	/* type flags (DIF_TF_*) */
	uint8_t dtdt_pad;	/* reserved, zero */
	uint32_t dtdt_size;	/* type size in bytes (unless string) */
} dtrace_diftype_t;

#define DIF_TYPE_CTF	0	/* type is a CTF type */
#define DIF_TYPE_STRING	1	/* type is a D string */

#define DIF_TF_BYREF	0x1	/* type is passed by reference */
#define DIF_TF_BYUREF	0x2	/* user type is passed by reference */

/*
 * A DIF variable record: one per variable a DIF object references. The
 * size is a multiple of sizeof (int).
 */
typedef struct dtrace_difv {
	uint32_t dtdv_name;		/* variable name index in the string table */
	uint32_t dtdv_id;		/* variable reference identifier */
	uint8_t dtdv_kind;		/* DIFV_KIND_* */
	uint8_t dtdv_scope;		/* DIFV_SCOPE_* */
	uint16_t dtdv_flags;		/* DIFV_F_* */
	dtrace_diftype_t dtdv_type;	/* variable type */
} dtrace_difv_t;

#define DIFV_KIND_ARRAY		0	/* variable is an array of quantities */
#define DIFV_KIND_SCALAR	1	/* variable is a scalar quantity */

#define DIFV_SCOPE_GLOBAL	0	/* variable has global scope */
#define DIFV_SCOPE_THREAD	1	/* variable has thread scope (self->) */
#define DIFV_SCOPE_LOCAL	2	/* variable has clause-local scope (this->) */

#define DIFV_F_REF		0x1	/* variable is referenced by DIFO */
#define DIFV_F_MOD		0x2	/* variable is written by DIFO */

/*
 * Fault codes: a DIF program that faults stops at the faulting instruction;
 * the engine fires ERROR with the code, the byte offset of the instruction
 * and the illegal value (the address for BADADDR/BADALIGN/KPRIV/UPRIV).
 * Codes at or above DTRACEFLT_LIBRARY come from user-level post-processing.
 */
#define DTRACEFLT_UNKNOWN	0	/* Unknown fault */
#define DTRACEFLT_BADADDR	1	/* Bad address */
#define DTRACEFLT_BADALIGN	2	/* Bad alignment */
#define DTRACEFLT_ILLOP		3	/* Illegal operation */
#define DTRACEFLT_DIVZERO	4	/* Divide-by-zero */
#define DTRACEFLT_NOSCRATCH	5	/* Out of scratch space */
#define DTRACEFLT_KPRIV		6	/* Illegal kernel access */
#define DTRACEFLT_UPRIV		7	/* Illegal user access */
#define DTRACEFLT_TUPOFLOW	8	/* Tuple stack overflow */
#define DTRACEFLT_BADSTACK	9	/* Bad stack */
#define DTRACEFLT_LIBRARY	1000	/* Library-level fault */

#endif /* _UAPI_DTRACE_DIF_H */
