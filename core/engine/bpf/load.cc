// SPDX-License-Identifier: MIT
// Loading and test-running bpf programs (see load.hpp).
#include "load.hpp"

#include "maps.hpp"

#include <bpf/bpf.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <vector>

namespace dt::engines::bpf {

unique_fd load_program(enum bpf_prog_type type, const std::string &name, const program &p,
		       const translated &t, enum bpf_attach_type attach_type,
		       uint32_t attach_btf_id)
{
	// A program that passes a callback (bpf_loop: chill()) comes with the
	// BTF and func_info the kernel wants for it (translate.hpp).
	unique_fd btf;
	if (!t.func_info.empty()) {
		int b = bpf_btf_load(t.btf.data(), t.btf.size(), nullptr);
		if (b < 0)
			throw engine_error("bpf engine: cannot load the BTF of program " + name +
					   ": " + errno_text(errno));
		btf = unique_fd(b);
	}
	auto with_btf = [&](bpf_prog_load_opts &po) {
		if (btf.get() < 0)
			return;
		po.prog_btf_fd = static_cast<__u32>(btf.get());
		po.func_info = t.func_info.data();
		po.func_info_cnt = static_cast<__u32>(t.func_info.size());
		po.func_info_rec_size = sizeof(struct bpf_func_info);
	};
	// First without a log (the verifier is faster without one).
	LIBBPF_OPTS(bpf_prog_load_opts, o);
	o.expected_attach_type = attach_type;
	o.attach_btf_id = attach_btf_id;
	with_btf(o);
	auto n = static_cast<size_t>(t.insns.size());
	int fd = bpf_prog_load(type, name.c_str(), k_license, t.insns.data(), n, &o);
	if (fd >= 0)
		return unique_fd(fd);
	int err = errno;
	if (err == EPERM)
		throw privilege_error(k_privilege_message);
	if (err != EACCES && err != EINVAL && err != E2BIG && err != ENOSPC)
		throw engine_error("bpf engine: cannot load program " + name + ": " +
				   errno_text(err));

	// Again with the verifier's log, for the user a message naming the
	// clause. Kernels since 6.4 keep the log's end when it overflows; the
	// last lines are the ones that say what was refused.
	std::vector<char> log(16 << 20, '\0');
	LIBBPF_OPTS(bpf_prog_load_opts, lo);
	lo.expected_attach_type = attach_type;
	lo.attach_btf_id = attach_btf_id;
	with_btf(lo);
	lo.log_level = 1;
	lo.log_size = static_cast<__u32>(log.size());
	lo.log_buf = log.data();
	fd = bpf_prog_load(type, name.c_str(), k_license, t.insns.data(), n, &lo);
	if (fd >= 0) // accepted this time (it should not be): keep it
		return unique_fd(fd);
	log.back() = '\0';
	std::string text(log.data());
	// DTRACE_BPF_VERIFIER_LOG=<file>: the whole log, for engine developers.
	if (const char *path = std::getenv("DTRACE_BPF_VERIFIER_LOG"); path && *path)
		if (FILE *f = std::fopen(path, "w")) {
			std::fputs(text.c_str(), f);
			std::fclose(f);
		}
	if (text.empty())
		throw engine_error("bpf engine: cannot load program " + name + ": " +
				   errno_text(err));
	uint32_t clause = UINT32_MAX;
	std::string msg = explain_verifier(p, t, text, &clause);
	if (clause == UINT32_MAX)
		throw engine_error(msg);
	throw engine_error(msg, clause);
}

} // namespace dt::engines::bpf
