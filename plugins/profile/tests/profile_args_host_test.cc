// SPDX-License-Identifier: MIT
// profile-N's arguments and rate on this machine's kernel, through the
// built dtrace(1) on the bpf engine (host: root). A workload
// (profile_workload.c) keeps a CPU busy for a given CPU time, in user mode
// or in the kernel, and profile-997 samples it:
//
//   user loop     arg0 == 0 and arg1 inside the loop's function (its
//                 range from the workload's ELF symbol table, placed by
//                 the address the workload prints), for nearly every sample
//   kernel reads  arg1 == 0 and arg0 inside the kernel's text (_stext to
//                 _etext in /proc/kallsyms), for most samples
//   both          exactly one of arg0/arg1 is non-zero, each in its half
//                 of the address space; as many samples as 997 Hz gives
//                 over the CPU time the workload reports (not its wall
//                 time: on a shared machine it waits for a CPU, and
//                 profile-N samples whatever runs there meanwhile)
#include "run_dtrace.hpp"

#include <gtest/gtest.h>

#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <unistd.h>

#include <cinttypes>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

namespace {

constexpr double k_hz = 997;
constexpr uint64_t k_user_top = 0x0000800000000000ULL;	  // x86_64 user half ends
constexpr uint64_t k_kernel_base = 0xffff800000000000ULL; // kernel half begins

struct sample {
	uint64_t arg0, arg1;
};

struct run_result {
	std::vector<sample> samples;
	uint64_t spin = 0;   // dt_prof_spin's address in the workload
	uint64_t cpu_us = 0; // the workload's CPU time
	std::string err;
	int status = -1;
};

// profile-997 on the workload (`mode`, `ms` of CPU time), one line per
// firing in it.
run_result sample_workload(const char *mode, int ms)
{
	dt::test::result r = dt::test::run(
		{"/usr/bin/timeout", "120", dt::test::dtrace_bin(), "-x", "engine=bpf", "-q", "-n",
		 "profile-997 /pid == $target/ { printf(\"pc %x %x\\n\", arg0, arg1); }", "-c",
		 std::string(DT_PROFILE_WORKLOAD) + " " + mode + " " + std::to_string(ms)});
	run_result out;
	out.err = r.err;
	out.status = r.status;
	for (const std::string &l : dt::test::lines(r.out)) {
		sample s{};
		unsigned long long spin = 0, us = 0;
		if (std::sscanf(l.c_str(), "pc %" SCNx64 " %" SCNx64, &s.arg0, &s.arg1) == 2)
			out.samples.push_back(s);
		else if (std::sscanf(l.c_str(), "spin %llx cpu_us %llu", &spin, &us) == 2) {
			out.spin = spin;
			out.cpu_us = us;
		}
	}
	return out;
}

// The value and size of `name` in the ELF symbol table of `path`.
bool elf_symbol(const char *path, const char *name, uint64_t &value, uint64_t &size)
{
	if (elf_version(EV_CURRENT) == EV_NONE)
		return false;
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return false;
	Elf *e = elf_begin(fd, ELF_C_READ, nullptr);
	bool found = false;
	for (Elf_Scn *scn = nullptr; e != nullptr && !found && (scn = elf_nextscn(e, scn));) {
		GElf_Shdr sh;
		if (gelf_getshdr(scn, &sh) == nullptr || sh.sh_type != SHT_SYMTAB ||
		    sh.sh_entsize == 0)
			continue;
		Elf_Data *d = elf_getdata(scn, nullptr);
		for (size_t i = 0; d != nullptr && i < sh.sh_size / sh.sh_entsize; i++) {
			GElf_Sym sym;
			const char *n = gelf_getsym(d, static_cast<int>(i), &sym) != nullptr
						? elf_strptr(e, sh.sh_link, sym.st_name)
						: nullptr;
			if (n != nullptr && std::strcmp(n, name) == 0 &&
			    GELF_ST_TYPE(sym.st_info) == STT_FUNC) {
				value = sym.st_value;
				size = sym.st_size;
				found = true;
				break;
			}
		}
	}
	if (e != nullptr)
		elf_end(e);
	close(fd);
	return found;
}

// _stext and _etext from /proc/kallsyms (0 if hidden from us).
void kernel_text(uint64_t &lo, uint64_t &hi)
{
	lo = hi = 0;
	std::ifstream f("/proc/kallsyms");
	std::string line;
	while (std::getline(f, line)) {
		std::istringstream ss(line);
		std::string addr, type, name;
		ss >> addr >> type >> name;
		if (name == "_stext")
			lo = std::stoull(addr, nullptr, 16);
		else if (name == "_etext")
			hi = std::stoull(addr, nullptr, 16);
	}
}

// What holds for every sample, and the count against the rate.
void check_common(const run_result &r)
{
	ASSERT_EQ(r.status, 0) << r.err;
	ASSERT_GT(r.cpu_us, 0u) << "the workload printed no CPU time\n" << r.err;
	for (const sample &s : r.samples) {
		EXPECT_TRUE((s.arg0 != 0) != (s.arg1 != 0))
			<< std::hex << "arg0 " << s.arg0 << " arg1 " << s.arg1;
		if (s.arg0 != 0) {
			EXPECT_GE(s.arg0, k_kernel_base) << std::hex << s.arg0;
		}
		if (s.arg1 != 0) {
			EXPECT_LT(s.arg1, k_user_top) << std::hex << s.arg1;
		}
	}
	double expected = static_cast<double>(r.cpu_us) * k_hz / 1e6;
	double n = static_cast<double>(r.samples.size());
	EXPECT_GE(n, 0.75 * expected - 5) << r.cpu_us << " us of CPU time";
	EXPECT_LE(n, 1.25 * expected + 5) << r.cpu_us << " us of CPU time";
}

#define REQUIRE_ROOT()                                               \
	do {                                                         \
		if (!dt::test::is_root())                            \
			GTEST_SKIP() << "the bpf engine needs root"; \
	} while (0)

TEST(ProfileArgs, UserLoopSamplesLandInTheLoopsFunction)
{
	REQUIRE_ROOT();
	uint64_t value = 0, size = 0;
	ASSERT_TRUE(elf_symbol(DT_PROFILE_WORKLOAD, "dt_prof_spin", value, size));
	ASSERT_GT(size, 0u);
	run_result r = sample_workload("user", 400);
	check_common(r);
	ASSERT_NE(r.spin, 0u);
	size_t in_loop = 0;
	for (const sample &s : r.samples)
		in_loop += s.arg0 == 0 && s.arg1 >= r.spin && s.arg1 < r.spin + size;
	// The rest: the clock read between two calls, process start and exit.
	EXPECT_GE(in_loop, r.samples.size() * 9 / 10)
		<< in_loop << " of " << r.samples.size() << " in dt_prof_spin at " << std::hex
		<< r.spin << " (+" << size << ")";
}

TEST(ProfileArgs, KernelReadSamplesLandInKernelText)
{
	REQUIRE_ROOT();
	uint64_t lo = 0, hi = 0;
	kernel_text(lo, hi);
	if (lo == 0 || hi <= lo)
		GTEST_SKIP() << "/proc/kallsyms hides _stext/_etext here";
	run_result r = sample_workload("kernel", 400);
	check_common(r);
	size_t in_text = 0;
	for (const sample &s : r.samples)
		in_text += s.arg1 == 0 && s.arg0 >= lo && s.arg0 < hi;
	// /dev/zero's reads are the kernel clearing the buffer; the rest is
	// the system call's way in and out, in user mode.
	EXPECT_GE(in_text, r.samples.size() * 8 / 10)
		<< in_text << " of " << r.samples.size() << " in the kernel's text";
}

} // namespace
