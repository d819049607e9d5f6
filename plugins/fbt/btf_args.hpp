// SPDX-License-Identifier: MIT
// Kernel function signatures from BTF, through libbpf:
//
//   /sys/kernel/btf/vmlinux      btf__load_vmlinux_btf()
//   /sys/kernel/btf/<module>     btf__load_module_btf(mod, vmlinux)
//     BTF_KIND_FUNC "vfs_read" ─► FUNC_PROTO ─► params, return type
//     each type id ─► btf_dump__emit_type_decl() ─► "struct file *"
//
// Everything is loaded on first use and kept for the session: the BTF
// objects, one btf_dump each, and a name -> FUNC id index per object.
#pragma once

#include <dtrace/plugin.h>

#include <map>
#include <memory>
#include <string>
#include <vector>

namespace dt::plugin::fbt {

struct func_sig {
	struct param {
		std::string type; // C type name, e.g. "struct file *"
		std::string name; // may be empty
	};
	std::vector<param> params; // fixed parameters (a "..." is dropped)
	std::string ret;	   // return type; "" for void
};

// What a BPF trampoline (fentry/fexit) program needs of a function: its
// BTF FUNC id and how many u64 slots its arguments fill in the program's
// context (the return value follows them in fexit's).
struct tracing_shape {
	uint32_t btf_id = 0;
	uint32_t nslots = 0;
};

class btf_cache {
public:
	explicit btf_cache(const dt_plugin_host_t *host);
	~btf_cache();
	btf_cache(const btf_cache &) = delete;
	btf_cache &operator=(const btf_cache &) = delete;

	// The signature of `func` in `mod` ("vmlinux" for the core kernel).
	// False if no BTF describes it (no BTF at all, or not a BTF function).
	[[nodiscard]] bool lookup(const std::string &mod, const std::string &func, func_sig &out);

	// The trampoline shape of vmlinux function `func`: false when it has
	// no BTF, is variadic, or passes or returns a struct, union or
	// floating-point value (the kernel's trampolines take integers and
	// pointers of at most 8 bytes each here; anything else is left to
	// kprobes, which give the same registers).
	[[nodiscard]] bool tracing_target(const std::string &func, tracing_shape &out);

private:
	struct unit;
	unit *get(const std::string &mod);
	std::string type_name(unit &u, uint32_t id);

	const dt_plugin_host_t *host_;
	// By module; a null entry records that loading failed.
	std::map<std::string, std::unique_ptr<unit>> units_;
	std::string dump_buf_;
};

} // namespace dt::plugin::fbt
