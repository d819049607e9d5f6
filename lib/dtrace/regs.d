/*
 * SPDX-License-Identifier: MIT
 *
 * regs.d - the indexes of uregs[] (Dynamic Tracing Guide, "uregs[]
 * Array") for x86_64 Linux. uregs[i] is the i-th 8-byte slot of the
 * user-mode register frame the kernel saved on entry (struct pt_regs, in
 * its order); the slots after it are the segment registers and the trap
 * number, which Linux keeps in the task's thread struct. The illumos i386
 * names (R_EAX ...) name the same slots as their 64-bit registers, and
 * R_PC, R_SP, R_R0, R_R1 are the portable names.
 */

inline int R_R15 = 0;
inline int R_R14 = 1;
inline int R_R13 = 2;
inline int R_R12 = 3;
inline int R_RBP = 4;
inline int R_RBX = 5;
inline int R_R11 = 6;
inline int R_R10 = 7;
inline int R_R9 = 8;
inline int R_R8 = 9;
inline int R_RAX = 10;
inline int R_RCX = 11;
inline int R_RDX = 12;
inline int R_RSI = 13;
inline int R_RDI = 14;
inline int R_ERR = 15;		/* orig_ax: the system call number or error code */
inline int R_RIP = 16;
inline int R_CS = 17;
inline int R_RFL = 18;
inline int R_RSP = 19;
inline int R_SS = 20;
inline int R_DS = 21;
inline int R_ES = 22;
inline int R_FS = 23;		/* fs base */
inline int R_GS = 24;		/* gs base */
inline int R_TRAPNO = 25;

/* The i386 names of the same slots. */
inline int R_EAX = R_RAX;
inline int R_EBX = R_RBX;
inline int R_ECX = R_RCX;
inline int R_EDX = R_RDX;
inline int R_ESI = R_RSI;
inline int R_EDI = R_RDI;
inline int R_EBP = R_RBP;
inline int R_ESP = R_RSP;
inline int R_EIP = R_RIP;
inline int R_EFL = R_RFL;

/* Portable names: program counter, stack pointer, return value registers. */
inline int R_PC = R_RIP;
inline int R_SP = R_RSP;
inline int R_R0 = R_RAX;
inline int R_R1 = R_RBX;
