// SPDX-License-Identifier: MIT
//
// util/mutex_layout.hpp - where the running kernel's struct mutex keeps
// its owner, read from its BTF: what mutex_owned(), mutex_owner() and
// mutex_type_*() read on the engines whose layout is not compiled in (the
// user engine's dif_ctx_t, the bpf engine's dt_bpf_status; dtrace.ko has
// the kernel's own headers).
//
//   struct mutex { atomic_long_t owner; ... }      the owner word: the
//                                                  task_struct pointer,
//                                                  MUTEX_FLAGS (0x07) below
//   PREEMPT_RT: struct mutex { struct rt_mutex_base rtmutex; ... },
//       rt_mutex_base { ... struct task_struct *owner; }
//                                                  RT_MUTEX_HAS_WAITERS (0x01)
#pragma once

#include <cstdint>

namespace dt {

struct mutex_layout {
	uint32_t owner = 0;	 // byte offset of the owner word in struct mutex
	uint64_t owner_mask = 0; // its bits that are the pointer; 0: unknown
};

// The running kernel's layout (looked up once), or owner_mask 0 when its
// BTF is missing or has neither form above.
[[nodiscard]] mutex_layout kernel_mutex_layout();

} // namespace dt
