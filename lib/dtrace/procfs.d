/*
 * SPDX-License-Identifier: MIT
 *
 * procfs.d - the process model of the Dynamic Tracing Guide ("proc
 * Provider": psinfo_t, lwpsinfo_t) over Linux's struct task_struct, read
 * from the kernel's BTF. curpsinfo and curlwpsinfo translate curthread.
 *
 * Members a Linux task cannot supply meaningfully (pr_start, pr_size ...)
 * are declared but not translated: naming one is the compile-time error
 * "translator does not define conversion for member" [D_XLATE_NOCONV].
 * pr_ttydev is the terminal's device number as the kernel encodes it
 * (major << 20 | minor), PRNODEV without one. pr_argv is the address of
 * the initial argument vector on the process's stack (argc sits just
 * below it at mm->start_stack); pr_argc and pr_envp read argc there, so
 * they need the current process (0 for another task).
 * pr_psargs is the argument area (mm->arg_start .. arg_end) joined with
 * spaces by copyinargs(), which reads the current process's memory: for
 * another task (proc:::create's child, signal-send's target) and for
 * kernel threads it is pr_fname.
 * Without kernel BTF this library is skipped (depends_on below), and the
 * names it defines are unknown.
 */
#pragma D depends_on module vmlinux

typedef id_t taskid_t;
typedef id_t projid_t;
typedef id_t poolid_t;
typedef id_t ctid_t;

/* pr_state values and their letters (pr_sname), as illumos sys/proc.h */
inline char SSLEEP = 1;
inline char SRUN = 2;
inline char SZOMB = 3;
inline char SSTOP = 4;
inline char SIDL = 5;
inline char SONPROC = 6;
inline char SWAIT = 7;

/* pr_dmodel */
inline char PR_MODEL_ILP32 = 1;
inline char PR_MODEL_LP64 = 2;

/* pr_ttydev of a process without a controlling terminal */
inline dev_t PRNODEV = (dev_t)-1;

typedef struct timestruc {
	time_t tv_sec;
	long tv_nsec;
} timestruc_t;

typedef struct psinfo {
	int pr_flag;		/* process flags */
	int pr_nlwp;		/* number of threads */
	pid_t pr_pid;		/* process id */
	pid_t pr_ppid;		/* process id of parent */
	pid_t pr_pgid;		/* process id of process group leader */
	pid_t pr_sid;		/* session id */
	uid_t pr_uid;		/* real user id */
	uid_t pr_euid;		/* effective user id */
	gid_t pr_gid;		/* real group id */
	gid_t pr_egid;		/* effective group id */
	uintptr_t pr_addr;	/* address of the process (its task_struct) */
	size_t pr_size;		/* size of process image in Kbytes */
	size_t pr_rssize;	/* resident set size in Kbytes */
	dev_t pr_ttydev;	/* controlling tty device (or PRNODEV) */
	ushort_t pr_pctcpu;
	ushort_t pr_pctmem;
	timestruc_t pr_start;	/* process start time */
	timestruc_t pr_time;	/* usr+sys cpu time for this process */
	timestruc_t pr_ctime;	/* usr+sys cpu time for reaped children */
	char pr_fname[16];	/* name of exec'ed file */
	char pr_psargs[80];	/* initial characters of arg list */
	int pr_wstat;		/* if zombie, the wait() status */
	int pr_argc;		/* initial argument count */
	uintptr_t pr_argv;	/* address of initial argument vector */
	uintptr_t pr_envp;	/* address of initial environment vector */
	char pr_dmodel;		/* data model of the process */
	taskid_t pr_taskid;	/* task id */
	projid_t pr_projid;	/* project id */
	int pr_nzomb;		/* number of zombie threads */
	poolid_t pr_poolid;	/* pool id */
	zoneid_t pr_zoneid;	/* zone id */
	id_t pr_contract;	/* process contract */
} psinfo_t;

typedef struct lwpsinfo {
	int pr_flag;		/* thread flags */
	id_t pr_lwpid;		/* thread id */
	uintptr_t pr_addr;	/* address of the thread (its task_struct) */
	uintptr_t pr_wchan;	/* wait addr for sleeping thread */
	char pr_stype;		/* synchronization event type */
	char pr_state;		/* numeric thread state (SSLEEP ...) */
	char pr_sname;		/* printable character for pr_state */
	char pr_nice;		/* nice for cpu usage */
	short pr_syscall;	/* system call number (if in syscall) */
	char pr_oldpri;		/* pre-SVR4, low value is high priority */
	char pr_cpu;		/* pre-SVR4, cpu usage for scheduling */
	int pr_pri;		/* priority, high value = high priority */
	ushort_t pr_pctcpu;
	ushort_t pr_pad;
	timestruc_t pr_start;	/* thread start time */
	timestruc_t pr_time;	/* usr+sys cpu time for this thread */
	char pr_clname[8];	/* scheduling class name */
	char pr_name[16];	/* name of the thread */
	processorid_t pr_onpro;	/* processor which last ran this thread */
	processorid_t pr_bindpro; /* processor to which thread is bound */
	psetid_t pr_bindpset;	/* processor set to which thread is bound */
	int pr_lgrp;		/* home lgroup */
} lwpsinfo_t;

/*
 * Linux: the process is the thread group (tgid), a thread is a task (pid).
 * signal->pids[] is indexed by enum pid_type: 2 PIDTYPE_PGID, 3 PIDTYPE_SID.
 */
translator psinfo_t < struct task_struct *T > {
	pr_flag = 0;
	pr_nlwp = T->signal->nr_threads;
	pr_pid = T->tgid;
	pr_ppid = T->real_parent->tgid;
	pr_pgid = T->signal->pids[2]->numbers[0].nr;
	pr_sid = T->signal->pids[3]->numbers[0].nr;
	pr_uid = T->cred->uid.val;
	pr_euid = T->cred->euid.val;
	pr_gid = T->cred->gid.val;
	pr_egid = T->cred->egid.val;
	pr_addr = (uintptr_t)T;
	pr_fname = T->comm;
	pr_psargs = T == curthread && T->mm != NULL && T->mm->arg_end > T->mm->arg_start ?
	    copyinargs(T->mm->arg_start, T->mm->arg_end - T->mm->arg_start - 1) :
	    stringof(T->comm);
	pr_ttydev = T->signal->tty == NULL ? PRNODEV :
	    ((dev_t)T->signal->tty->driver->major << 20) |
	    (T->signal->tty->driver->minor_start + T->signal->tty->index);
	pr_wstat = T->exit_code;
	pr_argc = T == curthread && T->mm != NULL && T->mm->start_stack != 0 ?
	    *(int *)copyin(T->mm->start_stack, sizeof (int)) : 0;
	pr_argv = T->mm == NULL ? 0 : T->mm->start_stack + sizeof (long);
	pr_envp = T == curthread && T->mm != NULL && T->mm->start_stack != 0 ?
	    T->mm->start_stack + sizeof (long) *
	    (*(long *)copyin(T->mm->start_stack, sizeof (long)) + 2) : 0;
	pr_dmodel = PR_MODEL_LP64;
	pr_taskid = 0;
	pr_projid = 0;
	pr_nzomb = 0;
	pr_poolid = 0;
	pr_zoneid = 0;
	pr_contract = 0;
};

/*
 * Linux task states (include/linux/sched.h): __state 0 TASK_RUNNING,
 * 1 INTERRUPTIBLE, 2 UNINTERRUPTIBLE, 4 __TASK_STOPPED, 8 __TASK_TRACED;
 * exit_state 0x20 EXIT_ZOMBIE (0x10 EXIT_DEAD).
 */
/* As illumos' translator, it defines no pr_nice (D_XLATE_NOCONV). */
translator lwpsinfo_t < struct task_struct *T > {
	pr_flag = 0;
	pr_lwpid = T->pid;
	pr_addr = (uintptr_t)T;
	pr_wchan = 0;
	pr_state = (T->exit_state & 0x30) != 0 ? SZOMB :
	    (T->__state & 0xc) != 0 ? SSTOP :
	    T->__state == 0 ? (T->on_cpu ? SONPROC : SRUN) : SSLEEP;
	pr_sname = (T->exit_state & 0x30) != 0 ? 'Z' :
	    (T->__state & 0xc) != 0 ? 'T' :
	    T->__state == 0 ? (T->on_cpu ? 'O' : 'R') : 'S';
	pr_pri = T->prio;
	pr_name = T->comm;
	pr_onpro = T->thread_info.cpu;
	pr_bindpro = -1;
	pr_bindpset = -1;
};

inline psinfo_t *curpsinfo = xlate <psinfo_t *> (curthread);
inline lwpsinfo_t *curlwpsinfo = xlate <lwpsinfo_t *> (curthread);
