// SPDX-License-Identifier: MIT
// The running kernel's struct mutex owner word, from its BTF (mutex_layout.hpp).
#include "mutex_layout.hpp"

#include "util/kernel_btf.hpp"

#include <bpf/btf.h>

#include <cstring>
#include <optional>

namespace dt {
namespace {

// Byte offset and type id of member `name` of struct type `id`.
struct member {
	uint32_t offset;
	uint32_t type;
};

std::optional<member> find_member(const kernel_btf &b, int32_t id, const char *name)
{
	const struct btf_type *t = id < 0 ? nullptr : b.type(static_cast<uint32_t>(id));
	if (t == nullptr || !btf_is_struct(t))
		return std::nullopt;
	const struct btf_member *m = btf_members(t);
	for (uint32_t i = 0; i < btf_vlen(t); i++)
		if (std::strcmp(b.name(m[i].name_off), name) == 0)
			return member{btf_member_bit_offset(t, i) / 8, m[i].type};
	return std::nullopt;
}

mutex_layout look_up()
{
	const kernel_btf *b = kernel_btf::open(kernel_btf::k_vmlinux);
	if (b == nullptr)
		return {};
	int32_t mutex = b->find("mutex", BTF_KIND_STRUCT);
	if (auto owner = find_member(*b, mutex, "owner"))
		return {owner->offset, ~uint64_t{0x07}}; // kernel/locking/mutex.c MUTEX_FLAGS
	auto rt = find_member(*b, mutex, "rtmutex");
	if (!rt)
		return {};
	if (auto owner = find_member(*b, static_cast<int32_t>(rt->type), "owner"))
		return {rt->offset + owner->offset, ~uint64_t{0x01}}; // RT_MUTEX_HAS_WAITERS
	return {};
}

} // namespace

mutex_layout kernel_mutex_layout()
{
	static const mutex_layout layout = look_up();
	return layout;
}

} // namespace dt
