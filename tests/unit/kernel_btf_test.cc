// SPDX-License-Identifier: MIT
// util/kernel_btf: the kernel's BTF read in place answers as libbpf's
// parser does (every type's kind and name, find() by name and kind,
// align_of()), whatever order the questions come in; and a file that is
// not BTF, or whose type section is cut short, answers nothing rather than
// something wrong. Tests needing the
// running kernel's BTF skip, saying why, when it is absent.
#include "util/kernel_btf.hpp"

#include <bpf/btf.h>
#include <gtest/gtest.h>

#include <unistd.h>

#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

namespace dt {
namespace {

#define NEED_BTF()                                                                               \
	do {                                                                                     \
		if (!std::filesystem::exists(kernel_btf::k_vmlinux))                             \
			GTEST_SKIP()                                                             \
				<< kernel_btf::k_vmlinux << " is absent: the kernel has no BTF"; \
	} while (0)

std::string temp_file(const std::string &bytes)
{
	char path[] = "/tmp/dt-kernel-btf-XXXXXX";
	int fd = mkstemp(path);
	EXPECT_GE(fd, 0);
	EXPECT_EQ(write(fd, bytes.data(), bytes.size()), static_cast<ssize_t>(bytes.size()));
	close(fd);
	return path;
}

std::string slurp(const char *path)
{
	std::ifstream f(path, std::ios::binary);
	return {std::istreambuf_iterator<char>(f), std::istreambuf_iterator<char>()};
}

TEST(kernel_btf, every_type_reads_as_libbpf_parses_it)
{
	NEED_BTF();
	const kernel_btf *kb = kernel_btf::open(kernel_btf::k_vmlinux);
	ASSERT_NE(kb, nullptr);
	struct btf *lb = btf__parse(kernel_btf::k_vmlinux, nullptr);
	ASSERT_NE(lb, nullptr);
	ASSERT_EQ(kb->type_count(), btf__type_cnt(lb));
	size_t structs = 0;
	for (uint32_t id = 1; id < kb->type_count(); id++) {
		const struct btf_type *k = kb->type(id), *l = btf__type_by_id(lb, id);
		ASSERT_NE(k, nullptr) << id;
		ASSERT_EQ(btf_kind(k), btf_kind(l)) << id;
		ASSERT_STREQ(kb->name(k->name_off), btf__name_by_offset(lb, l->name_off)) << id;
		int la = btf__align_of(lb, id);
		ASSERT_EQ(kb->align_of(id), la > 0 ? static_cast<uint32_t>(la) : 0u) << id;
		if (btf_is_struct(k) && k->name_off != 0 && structs++ % 97 == 0) {
			const char *n = kb->name(k->name_off);
			EXPECT_EQ(kb->find(n, BTF_KIND_STRUCT),
				  btf__find_by_name_kind(lb, n, BTF_KIND_STRUCT));
		}
	}
	EXPECT_GT(structs, 100u);
	EXPECT_EQ(kb->type(0), nullptr);
	EXPECT_EQ(kb->type(kb->type_count()), nullptr);
	btf__free(lb);
}

TEST(kernel_btf, find_looks_within_one_kind)
{
	NEED_BTF();
	const kernel_btf *kb = kernel_btf::open(kernel_btf::k_vmlinux);
	ASSERT_NE(kb, nullptr);
	int32_t id = kb->find("task_struct", BTF_KIND_STRUCT);
	ASSERT_GT(id, 0);
	EXPECT_STREQ(kb->name(kb->type(static_cast<uint32_t>(id))->name_off), "task_struct");
	EXPECT_EQ(kb->find("task_struct", BTF_KIND_TYPEDEF), -1);
	EXPECT_EQ(kb->find("no_such_type_in_any_kernel", BTF_KIND_STRUCT), -1);
	// One mapping per path: the compiler and the bpf engine share it.
	EXPECT_EQ(kernel_btf::open(kernel_btf::k_vmlinux), kb);
}

TEST(kernel_btf, what_is_not_btf_is_refused)
{
	EXPECT_EQ(kernel_btf::open("/nonexistent/vmlinux"), nullptr);
	std::string path = temp_file("this is not BTF, only text of some length");
	EXPECT_EQ(kernel_btf::open(path), nullptr);
	std::remove(path.c_str());
	path = temp_file("");
	EXPECT_EQ(kernel_btf::open(path), nullptr);
	std::remove(path.c_str());
}

TEST(kernel_btf, a_type_section_cut_short_has_no_types)
{
	NEED_BTF();
	std::string raw = slurp(kernel_btf::k_vmlinux);
	ASSERT_GT(raw.size(), sizeof(struct btf_header));
	struct btf_header h {};
	std::memcpy(&h, raw.data(), sizeof(h));
	// The type section ends in the middle of its second record: the
	// header is sound, the walk is not, and once it has met the cut
	// record the file answers nothing.
	h.type_len = 30;
	std::memcpy(raw.data(), &h, sizeof(h));
	std::string path = temp_file(raw);
	const kernel_btf *kb = kernel_btf::open(path);
	ASSERT_NE(kb, nullptr);
	EXPECT_EQ(kb->find("task_struct", BTF_KIND_STRUCT), -1);
	EXPECT_EQ(kb->type_count(), 0u);
	EXPECT_EQ(kb->type(1), nullptr);
	std::remove(path.c_str());
}

} // namespace
} // namespace dt
