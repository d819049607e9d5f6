// SPDX-License-Identifier: MIT
// The lockstat provider (dt_lockstat.so): kernel lock contention (the
// Dynamic Tracing Guide's "lockstat Provider"), a tracepoint-backed
// provider made of one table, k_probes below, over the one place Linux
// reports contention to tracers: lock:contention_begin(lock, flags), which
// each sleeping and spinning lock's slow path fires before it waits, and
// lock:contention_end(lock, ret) once the wait is over (ret 0: the lock is
// taken). The flags (include/trace/events/lock.h LCB_F_*) tell the kinds
// of lock apart, and each row is one kind, filtered on the flags' exact
// value:
//
//   flags                 lock                     probe
//   MUTEX|SPIN  0x21      struct mutex, spinning   __mutex_lock_common:adaptive-spin
//   MUTEX       0x20      struct mutex, sleeping   __mutex_lock_common:adaptive-block
//   RT          0x08      struct rt_mutex_base     __rt_mutex_slowlock:adaptive-block
//   SPIN        0x01      spinlock_t (qspinlock)   queued_spin_lock_slowpath:spin-spin
//   SPIN|READ   0x03      rwlock_t (qrwlock)       queued_read_lock_slowpath:rw-spin
//   SPIN|WRITE  0x05      rwlock_t (qrwlock)       queued_write_lock_slowpath:rw-spin
//   READ        0x02      struct rw_semaphore      rwsem_down_read_slowpath:rw-block
//   WRITE       0x04      struct rw_semaphore      rwsem_down_write_slowpath:rw-block
//   PERCPU|READ 0x12      percpu_rw_semaphore      __percpu_down_read:rw-block
//   PERCPU|WRITE 0x14     percpu_rw_semaphore      percpu_down_write:rw-block
//   0                     struct semaphore         (none: illumos' lockstat has no
//                                                   semaphore probe)
//
// (rw-spin is Oracle Linux DTrace's name for a reader/writer spin lock's
// spin; the Guide's lockstat has only the sleeping rw-block.)
//
// As in illumos, a probe fires once the lock is acquired, at
// contention_end with ret 0, with args[0] the lock and args[1] the time
// spent spinning or sleeping for it, in nanoseconds: the distance from the
// same thread's contention_begin for the same lock. The bpf engine joins
// the two (plugin.h ABI 1.9: each row's raw arguments are begin's lock
// and flags, end's lock and ret, then the time); the kernel half keeps the
// begin per task. A mutex that spins, then sleeps, fires contention_begin
// twice: its adaptive-block time counts from the sleep, and the spin
// before it is not reported. A wait that ends without the lock (a signal
// interrupting mutex_lock_interruptible(): ret -EINTR) fires nothing.
//
// What Linux cannot give, and so is not here: adaptive-acquire/-release,
// spin-acquire/-release, rw-acquire/-release, rw-upgrade/-downgrade and
// thread-spin: Linux has tracepoints at every acquisition only with
// lockdep (lock:lock_acquire, a debugging kernel), and no thread locks.
// A kernel without lock:contention_begin/end (before 5.19) refuses the
// probes, saying that the tracepoint is missing (tp_attach()).
#include "raw_tracepoints.hpp"

#include <dtrace/plugin.hpp>

namespace dt::plugin::lockstat {
namespace {

using dt::sdk::table_arg;
using dt::sdk::tp_filter;
using dt::sdk::tp_probe;

// include/trace/events/lock.h
constexpr int64_t k_spin = 1 << 0;
constexpr int64_t k_read = 1 << 1;
constexpr int64_t k_write = 1 << 2;
constexpr int64_t k_rt = 1 << 3;
constexpr int64_t k_percpu = 1 << 4;
constexpr int64_t k_mutex = 1 << 5;
constexpr uint64_t k_all = 0x3f;

// One row: a wait for a lock of these exact flags, from contention_begin
// (raw arguments 0 lock, 1 flags) to contention_end (2 lock, 3 ret) with
// ret 0; raw argument 4 is the time between them.
constexpr tp_probe row(const char *name, const char *func, const char *lock, int64_t flags)
{
	return {.name = name,
		.args = {{table_arg{0, lock, nullptr}, table_arg{1, "uint64_t", nullptr}}},
		.event = "contention_end",
		.nargs = 2,
		.argmap = {0, 4, -1, -1, -1, -1},
		.filter = tp_filter{.arg = 1, .mask = k_all, .value = flags, .zero_arg = 3},
		.kmod = true,
		.func = func,
		.begin = "contention_begin",
		.begin_nargs = 2,
		.begin_key = 0,
		.end_key = 0};
}

constexpr tp_probe k_probes[] = {
	row("adaptive-spin", "__mutex_lock_common", "struct mutex *", k_mutex | k_spin),
	row("adaptive-block", "__mutex_lock_common", "struct mutex *", k_mutex),
	row("adaptive-block", "__rt_mutex_slowlock", "struct rt_mutex_base *", k_rt),
	row("spin-spin", "queued_spin_lock_slowpath", "struct qspinlock *", k_spin),
	row("rw-spin", "queued_read_lock_slowpath", "struct qrwlock *", k_spin | k_read),
	row("rw-spin", "queued_write_lock_slowpath", "struct qrwlock *", k_spin | k_write),
	row("rw-block", "rwsem_down_read_slowpath", "struct rw_semaphore *", k_read),
	row("rw-block", "rwsem_down_write_slowpath", "struct rw_semaphore *", k_write),
	row("rw-block", "__percpu_down_read", "struct percpu_rw_semaphore *", k_percpu | k_read),
	row("rw-block", "percpu_down_write", "struct percpu_rw_semaphore *", k_percpu | k_write),
};

constexpr dt::sdk::tracepoint_provider k_lockstat = {"lockstat", "vmlinux", k_probes};

using ops = dt::sdk::tracepoint_ops<k_lockstat, dt::plugin::raw_tracepoints>;

// kmod engine: the kernel half, plugins/lockstat/kernel
// (dtrace_lockstat.ko): every row, with the same native argument.
const dt_plugin_kmod_ops_t k_lockstat_kmod_ops = dt::sdk::kernel_module("dtrace_lockstat");

// illumos lockstat.c lockstat_attr.
constexpr dt_pattr_t k_lockstat_stability = {
	{DT_STABILITY_EVOLVING, DT_STABILITY_EVOLVING, DT_CLASS_COMMON},
	{DT_STABILITY_PRIVATE, DT_STABILITY_PRIVATE, DT_CLASS_UNKNOWN},
	{DT_STABILITY_PRIVATE, DT_STABILITY_PRIVATE, DT_CLASS_UNKNOWN},
	{DT_STABILITY_EVOLVING, DT_STABILITY_EVOLVING, DT_CLASS_COMMON},
	{DT_STABILITY_EVOLVING, DT_STABILITY_EVOLVING, DT_CLASS_COMMON},
};

const dt_plugin_ops_t k_lockstat_ops =
	ops::plugin("kernel lock contention: mutexes, spin locks, reader/writer locks",
		    k_lockstat_stability, DT_PRIV_KERNEL, &k_lockstat_kmod_ops);

} // namespace
} // namespace dt::plugin::lockstat

extern "C" {
// Read before dlopen() (plugin.h DT_PLUGIN_NOTE): the table's rows.
DT_PLUGIN_NOTE(0, "adaptive-block adaptive-spin rw-block rw-spin spin-spin");

DT_PLUGIN_DEFINE(dt::plugin::lockstat::k_lockstat_ops)
}
