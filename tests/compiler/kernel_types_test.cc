// SPDX-License-Identifier: MIT
// Kernel types from BTF (core/compiler/btf/) and the D library
// (lib/dtrace/procfs.d): struct task_struct as curthread's type, member
// offsets taken from the kernel's BTF, anonymous unions flattened,
// curpsinfo/curlwpsinfo through translators, and the no-BTF behaviour
// (DTRACE_BTF_PATH pointing at a missing file). Tests needing the
// running kernel's BTF skip, saying why, when /sys/kernel/btf/vmlinux is
// absent.
#include "compiler/sema/types.hpp"
#include "helpers.hpp"

#include <bpf/btf.h>

#include <cstdlib>
#include <filesystem>
#include <regex>

namespace dt::test {
namespace {

using compiler::type_table;

constexpr const char *k_vmlinux = "/sys/kernel/btf/vmlinux";

bool have_btf()
{
	return std::filesystem::exists(k_vmlinux);
}

#define NEED_BTF()                                                                          \
	do {                                                                                \
		if (!have_btf())                                                            \
			GTEST_SKIP() << k_vmlinux << " is absent: the kernel has no BTF";     \
	} while (0)

// The byte offset of member m of struct s, read with libbpf directly.
long btf_offset(const char *s, const char *m)
{
	struct btf *b = btf__parse(k_vmlinux, nullptr);
	if (!b)
		return -1;
	long off = -1;
	int id = btf__find_by_name_kind(b, s, BTF_KIND_STRUCT);
	if (id > 0) {
		const struct btf_type *t = btf__type_by_id(b, static_cast<uint32_t>(id));
		const struct btf_member *mm = btf_members(t);
		for (uint16_t i = 0; i < btf_vlen(t); i++)
			if (std::string(btf__name_by_offset(b, mm[i].name_off)) == m)
				off = btf_member_bit_offset(t, i) / 8;
	}
	btf__free(b);
	return off;
}

// Unsets DTRACE_BTF_PATH, or points it at a missing file, for one test.
struct btf_path_guard {
	explicit btf_path_guard(const char *v)
	{
		if (v)
			setenv("DTRACE_BTF_PATH", v, 1);
		else
			unsetenv("DTRACE_BTF_PATH");
	}
	~btf_path_guard() { unsetenv("DTRACE_BTF_PATH"); }
};

compiler::settings with_dlib()
{
	compiler::settings s = default_settings();
	s.libdirs.push_back(DTRACE_DLIB_SOURCE_DIR);
	return s;
}

std::string compile_error_of(const std::string &text, const compiler::settings &s)
{
	try {
		(void)compile_n(text, s);
	} catch (const compiler::compile_error &e) {
		return e.what();
	}
	return "(compiled)";
}

std::string compile_error_of_script(const std::string &text, const compiler::settings &s)
{
	try {
		(void)compile_s(text, s);
	} catch (const compiler::compile_error &e) {
		return e.what();
	}
	return "(compiled)";
}

TEST(kernel_types, list_head_is_two_pointers)
{
	NEED_BTF();
	btf_path_guard g(nullptr);
	type_table tt(256);
	auto t = tt.parse_type_string("struct list_head");
	ASSERT_TRUE(t->is_sou());
	ASSERT_TRUE(t->complete);
	EXPECT_EQ(t->size, 16u);
	const auto *next = t->find_member("next");
	const auto *prev = t->find_member("prev");
	ASSERT_NE(next, nullptr);
	ASSERT_NE(prev, nullptr);
	EXPECT_EQ(next->offset, 0u);
	EXPECT_EQ(prev->offset, 8u);
	EXPECT_EQ(next->type->name, "struct list_head *");
	EXPECT_EQ(next->type->ref.get(), t.get()); // one type, shared
}

TEST(kernel_types, task_struct_members_have_btf_offsets_and_types)
{
	NEED_BTF();
	btf_path_guard g(nullptr);
	type_table tt(256);
	auto p = tt.parse_type_string("struct task_struct *");
	ASSERT_TRUE(p->is_ptr());
	auto t = p->ref;
	ASSERT_TRUE(t->complete);
	for (const char *m : {"pid", "tgid", "comm", "real_parent", "cred"}) {
		const auto *mm = t->find_member(m);
		ASSERT_NE(mm, nullptr) << m;
		EXPECT_EQ(static_cast<long>(mm->offset), btf_offset("task_struct", m)) << m;
	}
	const auto *pid = t->find_member("pid");
	EXPECT_EQ(pid->type->name, "pid_t");
	EXPECT_EQ(pid->type->size, 4u);
	EXPECT_TRUE(pid->type->is_signed);
	const auto *comm = t->find_member("comm");
	EXPECT_TRUE(comm->type->is_array());
	EXPECT_EQ(comm->type->count, 16u); // TASK_COMM_LEN
	EXPECT_TRUE(comm->type->is_char_ptr_or_array());
	EXPECT_EQ(t->find_member("no_such_member"), nullptr);
}

// Bit-fields (task_struct's in_execve:1, sched_reset_on_fork:1) are
// members: the byte holding their first bit, the bit within it, the width.
TEST(kernel_types, bit_field_members_have_btf_bit_offsets)
{
	NEED_BTF();
	btf_path_guard g(nullptr);
	type_table tt(256);
	auto t = tt.parse_type_string("struct task_struct *")->ref;
	struct btf *b = btf__parse(k_vmlinux, nullptr);
	ASSERT_NE(b, nullptr);
	int id = btf__find_by_name_kind(b, "task_struct", BTF_KIND_STRUCT);
	ASSERT_GT(id, 0);
	const struct btf_type *bt = btf__type_by_id(b, static_cast<uint32_t>(id));
	const struct btf_member *bm = btf_members(bt);
	int seen = 0;
	for (uint16_t i = 0; i < btf_vlen(bt); i++) {
		std::string n = btf__name_by_offset(b, bm[i].name_off);
		if (n != "in_execve" && n != "sched_reset_on_fork")
			continue;
		seen++;
		uint32_t bits = btf_member_bit_offset(bt, i);
		const auto *m = t->find_member(n);
		ASSERT_NE(m, nullptr) << n;
		EXPECT_EQ(m->offset, bits / 8) << n;
		EXPECT_EQ(m->bit_off, bits % 8) << n;
		EXPECT_EQ(m->bit_size, btf_member_bitfield_size(bt, i)) << n;
		EXPECT_EQ(m->bit_size, 1u) << n;
	}
	btf__free(b);
	EXPECT_EQ(seen, 2);
}

TEST(kernel_types, anonymous_union_members_keep_their_offsets)
{
	NEED_BTF();
	btf_path_guard g(nullptr);
	type_table tt(256);
	// struct sk_buff { union { struct { next; prev; ... }; ... }; ... }
	auto t = tt.parse_type_string("struct sk_buff");
	ASSERT_TRUE(t->complete);
	const auto *next = t->find_member("next");
	const auto *prev = t->find_member("prev");
	ASSERT_NE(next, nullptr);
	ASSERT_NE(prev, nullptr);
	EXPECT_EQ(next->offset, 0u);
	EXPECT_EQ(prev->offset, 8u);
}

TEST(kernel_types, kernel_typedefs_and_enums_resolve)
{
	NEED_BTF();
	btf_path_guard g(nullptr);
	type_table tt(256);
	auto um = tt.parse_type_string("umode_t");
	EXPECT_EQ(um->name, "umode_t");
	EXPECT_EQ(um->size, 2u);
	EXPECT_FALSE(um->is_signed);
	auto e = tt.parse_type_string("enum pid_type");
	ASSERT_EQ(e->k, compiler::ctype::kind::enum_);
	bool tgid = false;
	for (const auto &[n, v] : e->enumerators)
		if (n == "PIDTYPE_TGID")
			tgid = v == 1;
	EXPECT_TRUE(tgid);
}

TEST(kernel_types, curthread_is_a_task_struct_pointer)
{
	NEED_BTF();
	btf_path_guard g(nullptr);
	program p = compile_n("BEGIN { trace(curthread->pid); trace(curthread->real_parent->tgid) }");
	std::string dis = compiler::disassemble(p);
	// The loads go to the offsets BTF gives.
	char want[64];
	std::snprintf(want, sizeof want, "! 0x%lx", btf_offset("task_struct", "pid"));
	EXPECT_NE(dis.find(want), std::string::npos) << dis;
	std::snprintf(want, sizeof want, "! 0x%lx", btf_offset("task_struct", "real_parent"));
	EXPECT_NE(dis.find(want), std::string::npos) << dis;
	EXPECT_NE(dis.find("ldsw"), std::string::npos) << dis; // pid_t: signed 32-bit
}

TEST(kernel_types, curpsinfo_translates_curthread)
{
	NEED_BTF();
	btf_path_guard g(nullptr);
	program p = compile_n("BEGIN { trace(curpsinfo->pr_pid); trace(curlwpsinfo->pr_lwpid); "
			      "printf(\"%s\", curpsinfo->pr_fname) }",
			      with_dlib());
	std::string dis = compiler::disassemble(p);
	char want[64];
	for (const char *m : {"tgid", "pid", "comm"}) {
		std::snprintf(want, sizeof want, "! 0x%lx", btf_offset("task_struct", m));
		EXPECT_NE(dis.find(want), std::string::npos) << m << "\n" << dis;
	}
	// A member psinfo_t declares but Linux cannot supply.
	EXPECT_NE(compile_error_of("BEGIN { trace(curpsinfo->pr_start) }", with_dlib())
			  .find("translator does not define conversion for member: pr_start"),
		  std::string::npos);
	// pr_psargs is the argument area through copyinargs() (procfs.d).
	program a = compile_n("BEGIN { trace(curpsinfo->pr_psargs) }", with_dlib());
	EXPECT_NE(compiler::disassemble(a).find("copyinargs"), std::string::npos);
}

TEST(kernel_types, without_btf_kernel_types_are_forward_declarations)
{
	btf_path_guard g("/nonexistent/vmlinux");
	EXPECT_NE(compile_error_of("BEGIN { trace(curthread->pid) }", default_settings())
			  .find("operator -> cannot be applied to a forward declaration: no "
				"struct task_struct definition is available"),
		  std::string::npos);
	EXPECT_NE(compile_error_of("BEGIN { trace(sizeof (struct task_struct)) }",
				   default_settings()),
		  "(compiled)");
	// curthread itself is still a pointer value.
	EXPECT_NO_THROW((void)compile_n("BEGIN { trace((uintptr_t)curthread) }"));
}

TEST(kernel_types, without_btf_the_procfs_library_is_skipped)
{
	btf_path_guard g("/nonexistent/vmlinux");
	// The library says "#pragma D depends_on module vmlinux": skipped, so
	// other programs still compile and its names are unknown.
	EXPECT_NO_THROW((void)compile_n("BEGIN { trace(pid) }", with_dlib()));
	EXPECT_NE(compile_error_of("BEGIN { trace(curpsinfo->pr_pid) }", with_dlib())
			  .find("failed to resolve curpsinfo: Unknown variable name"),
		  std::string::npos);
	// A program of the user's own with that dependency fails.
	EXPECT_NE(compile_error_of_script("#pragma D depends_on module vmlinux\nBEGIN { exit(0) }",
				   default_settings())
			  .find("program requires module vmlinux"),
		  std::string::npos);
}

} // namespace
} // namespace dt::test
