/*
 * SPDX-License-Identifier: MIT
 *
 * sched.d - the CPU model of the Dynamic Tracing Guide ("sched Provider":
 * cpuinfo_t) and curcpu, the CPU the current thread runs on, over Linux's
 * struct task_struct (kernel BTF). Linux has no processor sets: cpu_pset is
 * -1 (PS_NONE), as for a CPU in no set on illumos. A CPU's chip (its
 * package) and locality group (its NUMA node) are per-CPU data that a
 * translator of the thread cannot reach; they come from this machine's
 * sysfs, which the compiler reads into __dt_cpu_topology_t (a translator
 * from a CPU's number: core/compiler/cpu_topology.hpp). processor_info_t
 * is declared but not translated: naming cpu_info is the error
 * "translator does not define conversion for member" [D_XLATE_NOCONV].
 */
#pragma D depends_on module vmlinux

typedef int chipid_t;
typedef int lgrp_id_t;

/* sys/processor.h's processor_info_t. */
typedef struct processor_info {
	int pi_state;			/* P_ONLINE, P_OFFLINE ... */
	char pi_processor_type[16];	/* "i386", "sparcv9" ... */
	char pi_fputypes[32];		/* floating point types */
	int pi_clock;			/* clock frequency in MHz */
} processor_info_t;

typedef struct cpuinfo {
	processorid_t cpu_id;		/* CPU identifier */
	psetid_t cpu_pset;		/* processor set identifier */
	chipid_t cpu_chip;		/* chip identifier */
	lgrp_id_t cpu_lgrp;		/* locality group identifer */
	processor_info_t cpu_info;	/* CPU information */
} cpuinfo_t;

translator cpuinfo_t < struct task_struct *T > {
	cpu_id = T->thread_info.cpu;
	cpu_pset = -1;
	cpu_chip = xlate <__dt_cpu_topology_t> ((int)T->thread_info.cpu).chip;
	cpu_lgrp = xlate <__dt_cpu_topology_t> ((int)T->thread_info.cpu).lgrp;
};

inline cpuinfo_t *curcpu = xlate <cpuinfo_t *> (curthread);

/* illumos sched.d: the current CPU's chip and locality group. */
inline chipid_t chip = curcpu->cpu_chip;
inline lgrp_id_t lgrp = curcpu->cpu_lgrp;

/* illumos sched.d: the current CPU's processor set (cpu is a built-in). */
inline psetid_t pset = curcpu->cpu_pset;
