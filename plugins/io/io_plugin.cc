// SPDX-License-Identifier: MIT
// The io provider (dt_io.so): block device I/O (the Dynamic Tracing
// Guide's "io Provider"), a tracepoint-backed provider made of one table,
// k_probes below. Each row maps a block-layer raw tracepoint to
// io:vmlinux:<function>:<name>, <function> being the kernel function that
// fires it:
//
//   block_rq_issue     -> blk_mq_start_request:start   a request goes to the device
//   block_rq_complete  -> blk_update_request:done      the device completed it
//   (none)             -> wait-start, wait-done
//
// Every argument is the struct request * seen through lib/dtrace/io.d's
// translators: bufinfo_t (b_flags B_READ/B_WRITE ..., b_bcount, b_blkno),
// devinfo_t (dev_statname is the /proc/diskstats name of the partition or
// disk the request is accounted to) and fileinfo_t (the file whose page
// cache the request's first page belongs to, "<unknown>" for anything
// else: direct I/O into user memory, metadata, swap).
//
// A request is issued once and completed once per blk_update_request()
// call (a partial completion fires done for the part done). The status
// and the bytes done are block_rq_complete's own arguments, which a
// translator of the request cannot see: b_error and b_resid are not
// translated (lib/dtrace/io.d), and a failed request is seen as
// sdt:::block_rq_error.
//
// illumos' wait-start/wait-done fire around biowait(), in the thread that
// waits for its buffer. Linux waits for a bio in submit_bio_wait(),
// folio_wait_bit() or io_schedule() without a tracepoint (the sleep is
// sched:::sleep with the thread's in_iowait set): the rows say so and the
// bpf hook refuses them with -ENOTSUP.
#include "raw_tracepoints.hpp"

#include <dtrace/plugin.hpp>

namespace dt::plugin::io {
namespace {

using dt::sdk::table_arg;
using dt::sdk::tp_probe;

// Every probe's arguments: the request, through three translators.
constexpr std::array<table_arg, 6> k_io_args = {{{0, "struct request *", "bufinfo_t *"},
						 {0, "struct request *", "devinfo_t *"},
						 {0, "struct request *", "fileinfo_t *"}}};

constexpr const char *k_no_wait = "a tracepoint where a thread waits for its I/O; Linux waits "
				  "in submit_bio_wait() and io_schedule(), which have none "
				  "(sched:::sleep fires there, with the thread's in_iowait set)";

constexpr tp_probe k_probes[] = {
	// block_rq_issue(rq)
	{.name = "start",
	 .args = k_io_args,
	 .event = "block_rq_issue",
	 .nargs = 1,
	 .argmap = {0, -1, -1, -1, -1, -1},
	 .kmod = true,
	 .func = "blk_mq_start_request"},
	// block_rq_complete(rq, error, nr_bytes)
	{.name = "done",
	 .args = k_io_args,
	 .event = "block_rq_complete",
	 .nargs = 3,
	 .argmap = {0, -1, -1, -1, -1, -1},
	 .kmod = true,
	 .func = "blk_update_request"},
	{.name = "wait-start", .args = k_io_args, .event = nullptr, .why = k_no_wait},
	{.name = "wait-done", .args = k_io_args, .event = nullptr, .why = k_no_wait},
};

constexpr dt::sdk::tracepoint_provider k_io = {"io", "vmlinux", k_probes};

using ops = dt::sdk::tracepoint_ops<k_io, dt::plugin::raw_tracepoints>;

// kmod engine: the kernel half, plugins/io/kernel (dtrace_io.ko): start
// and done, with the same native argument.
const dt_plugin_kmod_ops_t k_io_kmod_ops = dt::sdk::kernel_module("dtrace_io");

// illumos sdt.c stab_attr for io (the Guide's "io Stability").
const dt_plugin_ops_t k_io_ops =
	ops::plugin("block device I/O: requests issued to and completed by devices",
		    dt::sdk::k_sdt_stability, DT_PRIV_USER, &k_io_kmod_ops);

} // namespace
} // namespace dt::plugin::io

extern "C" {
// Read before dlopen() (plugin.h DT_PLUGIN_NOTE): the table's rows.
DT_PLUGIN_NOTE(0, "done start wait-done wait-start");

DT_PLUGIN_DEFINE(dt::plugin::io::k_io_ops)
}
