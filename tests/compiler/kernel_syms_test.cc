// SPDX-License-Identifier: MIT
// Kernel symbols (`sym, mod`sym, &`sym, sizeof) resolved from a kallsyms
// file of our own ($DTRACE_KALLSYMS_PATH) and typed from BTF, and the D
// library's names with Linux's values (errno.d, signal.d, unistd.d,
// regs.d) and uregs[]'s compile-time checks. Tests that need the running
// kernel's BTF skip without it.
#include "helpers.hpp"

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <string>

namespace dt::test {
namespace {

constexpr const char *k_vmlinux = "/sys/kernel/btf/vmlinux";

// Points DTRACE_KALLSYMS_PATH at a file holding `text` for one test, and
// DTRACE_BTF_PATH at a missing file unless btf is set.
struct ksyms_guard {
	explicit ksyms_guard(const std::string &text, bool btf = false)
	{
		path = std::filesystem::temp_directory_path() /
		       ("dtrace-kallsyms-" + std::to_string(getpid()));
		std::ofstream(path) << text;
		setenv("DTRACE_KALLSYMS_PATH", path.c_str(), 1);
		if (!btf)
			setenv("DTRACE_BTF_PATH", "/nonexistent/vmlinux", 1);
	}
	~ksyms_guard()
	{
		unsetenv("DTRACE_KALLSYMS_PATH");
		unsetenv("DTRACE_BTF_PATH");
		std::filesystem::remove(path);
	}
	std::filesystem::path path;
};

const char *const k_syms = "ffffffff81234560 T vfs_read\n"
			   "ffffffff82000010 D some_table\n"
			   "0000000000000000 D hidden_one\n"
			   "ffffffffc0001000 d mod_table\t[ext4]\n"
			   "ffffffffc0002000 d some_table\t[xfs]\n";

compiler::settings with_dlib()
{
	compiler::settings s = default_settings();
	s.libdirs.push_back(DTRACE_DLIB_SOURCE_DIR);
	return s;
}

TEST(kernel_syms, unknown_symbol_is_d_ident_undef)
{
	ksyms_guard g(k_syms);
	EXPECT_EQ(
		error_of("BEGIN { trace(`no_such_sym); }"),
		"D_IDENT_UNDEF: in action list: failed to resolve `no_such_sym: Unknown symbol name");
	EXPECT_EQ(error_of("BEGIN { trace(sizeof(`)); }"),
		  "D_IDENT_UNDEF: in action list: failed to resolve `: Unknown symbol name");
	// A hidden address (kptr_restrict) is no address to read.
	EXPECT_EQ(
		error_of("BEGIN { trace(&`hidden_one); }"),
		"D_IDENT_UNDEF: in action list: failed to resolve `hidden_one: Unknown symbol name");
	// The scope names the module: xfs has no mod_table.
	EXPECT_EQ(
		error_of("BEGIN { trace(&xfs`mod_table); }"),
		"D_IDENT_UNDEF: in action list: failed to resolve xfs`mod_table: Unknown symbol name");
}

TEST(kernel_syms, address_of_an_untyped_symbol_is_its_kallsyms_address)
{
	ksyms_guard g(k_syms);
	program p = compile_n("BEGIN { trace((uint64_t)&`some_table); }");
	ASSERT_EQ(p.clauses.size(), 1u);
	EXPECT_EQ(run(p.clauses[0].actions[0].args[0].expr), 0xffffffff82000010ULL);
	EXPECT_TRUE(p.reads_kernel); // a kernel symbol: the program is about kernel memory
	// Scoped: the module's own symbol, not the kernel's of the same name.
	p = compile_n("BEGIN { trace((uint64_t)&xfs`some_table); }");
	EXPECT_EQ(run(p.clauses[0].actions[0].args[0].expr), 0xffffffffc0002000ULL);
	p = compile_n("BEGIN { trace((uint64_t)&vmlinux`some_table); }");
	EXPECT_EQ(run(p.clauses[0].actions[0].args[0].expr), 0xffffffff82000010ULL);
	p = compile_n("BEGIN { trace((uint64_t)&`mod_table); }");
	EXPECT_EQ(run(p.clauses[0].actions[0].args[0].expr), 0xffffffffc0001000ULL);
}

TEST(kernel_syms, reading_an_untyped_symbol_is_d_sym_notypes)
{
	ksyms_guard g(k_syms);
	EXPECT_EQ(error_of("BEGIN { trace(`some_table); }"),
		  "D_SYM_NOTYPES: in action list: no symbolic type information is available for "
		  "vmlinux`some_table: No type information available for symbol");
	EXPECT_EQ(error_of("BEGIN { trace(sizeof(ext4`mod_table)); }"),
		  "D_SYM_NOTYPES: in action list: no symbolic type information is available for "
		  "ext4`mod_table: No type information available for symbol");
}

TEST(kernel_syms, kernel_reads_mark_the_program_for_a_kernel_engine)
{
	ksyms_guard g(k_syms);
	program p = compile_n("BEGIN { trace(*(unsigned long *)&`some_table); }");
	EXPECT_TRUE(p.reads_kernel);
	p = compile_n("BEGIN { trace(curthread); }");
	EXPECT_TRUE(p.reads_kernel);
	p = compile_n("BEGIN { trace(timestamp); }");
	EXPECT_FALSE(p.reads_kernel);
}

TEST(kernel_syms, a_btf_function_symbol_is_typed)
{
	if (!std::filesystem::exists(k_vmlinux))
		GTEST_SKIP() << k_vmlinux << " is absent: the kernel has no BTF";
	ksyms_guard g(k_syms, true);
	program p = compile_n("BEGIN { trace((uint64_t)&`vfs_read); }");
	EXPECT_EQ(run(p.clauses[0].actions[0].args[0].expr), 0xffffffff81234560ULL);
	EXPECT_TRUE(p.reads_kernel);
}

compiler::settings with_options(std::map<std::string, std::string> o)
{
	compiler::settings s = default_settings();
	s.options = std::move(o);
	return s;
}

// -x linkmode (illumos dt_as()): kernel (the default) and static take every
// kernel symbol's value when compiling, primary only the kernel's own
// (vmlinux), dynamic none: a symbol left to a relocation is D_ASRELO, at
// the 1-based index of the instruction a relocation would patch.
TEST(kernel_syms, linkmode_decides_which_kernel_symbols_take_their_value_now)
{
	ksyms_guard g(k_syms);
	const std::string mod = "BEGIN { trace((uint64_t)&ext4`mod_table); }";
	const std::string own = "BEGIN { trace((uint64_t)&`some_table); }";
	for (const char *m : {"kernel", "static"}) {
		program p = compile_n(mod, with_options({{"linkmode", m}}));
		EXPECT_EQ(run(p.clauses[0].actions[0].args[0].expr), 0xffffffffc0001000ULL) << m;
	}
	program p = compile_n(own, with_options({{"linkmode", "primary"}}));
	EXPECT_EQ(run(p.clauses[0].actions[0].args[0].expr), 0xffffffff82000010ULL);
	EXPECT_EQ(error_of(mod, false, with_options({{"linkmode", "primary"}})),
		  "D_ASRELO: in action list: relocation remains against loadable kernel symbol "
		  "ext4`mod_table (offset 0x1)");
	EXPECT_EQ(error_of(own, false, with_options({{"linkmode", "dynamic"}})),
		  "D_ASRELO: in action list: relocation remains against primary kernel symbol "
		  "vmlinux`some_table (offset 0x1)");
	// Reading the symbol's value needs its address first: the same setx.
	EXPECT_EQ(error_of("BEGIN\n/timestamp > 0 &&\n *(int *)&`some_table/ { }", true,
			   with_options({{"linkmode", "dynamic"}})),
		  "D_ASRELO: line 3: relocation remains against primary kernel symbol "
		  "vmlinux`some_table (offset 0xb)");
}

// -x knodefs (DTRACE_C_KNODEF) permits the relocations that dynamic and
// primary leave: the program keeps the value found when compiling, as
// nothing relocates kernel symbols later. -x kdefs takes it back.
TEST(kernel_syms, knodefs_permits_unresolved_kernel_symbols)
{
	ksyms_guard g(k_syms);
	const std::string own = "BEGIN { trace((uint64_t)&`some_table); }";
	program p = compile_n(own, with_options({{"linkmode", "dynamic"}, {"knodefs", ""}}));
	EXPECT_EQ(run(p.clauses[0].actions[0].args[0].expr), 0xffffffff82000010ULL);
	p = compile_n("BEGIN { trace((uint64_t)&ext4`mod_table); }",
		      with_options({{"linkmode", "primary"}, {"knodefs", ""}}));
	EXPECT_EQ(run(p.clauses[0].actions[0].args[0].expr), 0xffffffffc0001000ULL);
	EXPECT_EQ(error_of(own, false,
			   with_options({{"linkmode", "dynamic"}, {"knodefs", ""}, {"kdefs", ""}})),
		  "D_ASRELO: in action list: relocation remains against primary kernel symbol "
		  "vmlinux`some_table (offset 0x1)");
	// A pragma sets the link mode as -x does.
	EXPECT_EQ(
		error_of("#pragma D option linkmode=dynamic\nBEGIN { trace(&`some_table); }", true),
		"D_ASRELO: line 2: relocation remains against primary kernel symbol "
		"vmlinux`some_table (offset 0x1)");
}

TEST(kernel_syms, scoping_operator_in_a_declaration_is_d_decl_scope)
{
	EXPECT_EQ(
		error_of("int `xyz;\nBEGIN { exit(0); }", true),
		"D_DECL_SCOPE: line 1: D scoping operator may not be used in a declaration name (`xyz)");
}

TEST(d_library, errno_signal_and_fault_names_have_linux_values)
{
	compiler::settings s = with_dlib();
	struct {
		const char *name;
		uint64_t value;
	} names[] = {
		{"EPERM", 1},
		{"ENOENT", 2},
		{"EINTR", 4},
		{"EACCES", 13},
		{"EAGAIN", 11},
		{"EWOULDBLOCK", 11},
		{"ENOSYS", 38},
		{"ETIMEDOUT", 110},
		{"ENOTSUP", 95},
		{"ERESTARTSYS", 512},
		{"SIGINT", 2},
		{"SIGKILL", 9},
		{"SIGCHLD", 17},
		{"SIGUSR1", 10},
		{"SIGSTOP", 19},
		{"SIGCLD", 17},
		{"SIGRTMIN", 32},
		{"DTRACEFLT_BADADDR", 1},
		{"DTRACEFLT_DIVZERO", 4},
		{"DTRACEFLT_LIBRARY", 1000},
		{"R_PC", 16},
		{"R_SP", 19},
		{"R_R0", 10},
		{"R_TRAPNO", 25},
	};
	for (const auto &n : names) {
		program p = compile_n(std::string("BEGIN { trace(") + n.name + "); }", s);
		EXPECT_EQ(run(p.clauses[0].actions[0].args[0].expr), n.value) << n.name;
	}
}

TEST(d_library, uregs_index_is_a_checked_integer_constant)
{
	compiler::settings s = with_dlib();
	EXPECT_EQ(
		error_of("BEGIN { i = 3; trace(uregs[i]); }", false, s),
		"D_PROTO_ARG: in action list: uregs[ ] argument #1 is incompatible with prototype:\n"
		"\tprototype: integer constant\n\t argument: int");
	EXPECT_EQ(error_of("BEGIN { trace(uregs[26]); }", false, s),
		  "D_UNKNOWN: in action list: uregs[]: index out of bounds (26)");
	EXPECT_EQ(error_of("BEGIN { trace(uregs[-1]); }", false, s),
		  "D_UNKNOWN: in action list: uregs[]: index out of bounds (-1)");
	program p = compile_n("BEGIN { trace(uregs[R_PC]); }", s);
	EXPECT_TRUE(p.reads_kernel); // the saved registers: a kernel engine reads them
}

} // namespace
} // namespace dt::test
