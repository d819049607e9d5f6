// SPDX-License-Identifier: MIT
//
// util/kernel_btf.cc - the kernel's BTF read in place (kernel_btf.hpp):
// open (map or read, header), the walk as far as asked, lookups.
#include "kernel_btf.hpp"

#include <bpf/btf.h>

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <map>

namespace dt {

namespace {

// The size of a type record: its struct btf_type and what follows it
// (libbpf btf_type_size()); 0 for a kind this reader does not know.
size_t record_size(const struct btf_type *t)
{
	const size_t base = sizeof(struct btf_type);
	const size_t n = btf_vlen(t);
	switch (btf_kind(t)) {
	case BTF_KIND_FWD:
	case BTF_KIND_CONST:
	case BTF_KIND_VOLATILE:
	case BTF_KIND_RESTRICT:
	case BTF_KIND_PTR:
	case BTF_KIND_TYPEDEF:
	case BTF_KIND_FUNC:
	case BTF_KIND_FLOAT:
	case BTF_KIND_TYPE_TAG: return base;
	case BTF_KIND_INT: return base + sizeof(uint32_t);
	case BTF_KIND_ENUM: return base + n * sizeof(struct btf_enum);
	case BTF_KIND_ENUM64: return base + n * sizeof(struct btf_enum64);
	case BTF_KIND_ARRAY: return base + sizeof(struct btf_array);
	case BTF_KIND_STRUCT:
	case BTF_KIND_UNION: return base + n * sizeof(struct btf_member);
	case BTF_KIND_FUNC_PROTO: return base + n * sizeof(struct btf_param);
	case BTF_KIND_VAR: return base + sizeof(struct btf_var);
	case BTF_KIND_DATASEC: return base + n * sizeof(struct btf_var_secinfo);
	case BTF_KIND_DECL_TAG: return base + sizeof(struct btf_decl_tag);
	default: return 0;
	}
}

} // namespace

kernel_btf::~kernel_btf()
{
	if (mapped_)
		munmap(const_cast<unsigned char *>(data_), size_);
}

const kernel_btf *kernel_btf::open(const std::string &path)
{
	static std::mutex lock;
	static std::map<std::string, std::unique_ptr<kernel_btf>> opened;
	std::lock_guard<std::mutex> g(lock);
	if (auto it = opened.find(path); it != opened.end())
		return it->second.get();

	int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return nullptr;
	std::unique_ptr<kernel_btf> b(new kernel_btf());
	struct stat st {};
	if (fstat(fd, &st) == 0 && st.st_size > 0) {
		b->size_ = static_cast<size_t>(st.st_size);
		void *p = mmap(nullptr, b->size_, PROT_READ, MAP_PRIVATE, fd, 0);
		if (p != MAP_FAILED) {
			b->data_ = static_cast<const unsigned char *>(p);
			b->mapped_ = true;
		}
	}
	if (!b->mapped_) {
		// Read it whole (sysfs gives at most a page per read()).
		size_t cap = b->size_ > 0 ? b->size_ : 1 << 20, n = 0;
		std::unique_ptr<unsigned char[]> buf(new unsigned char[cap]);
		for (;;) {
			if (n == cap) {
				std::unique_ptr<unsigned char[]> bigger(new unsigned char[cap * 2]);
				std::memcpy(bigger.get(), buf.get(), n);
				buf = std::move(bigger);
				cap *= 2;
			}
			ssize_t r = ::read(fd, buf.get() + n, cap - n);
			if (r < 0 && errno == EINTR)
				continue;
			if (r <= 0)
				break;
			n += static_cast<size_t>(r);
		}
		b->copy_ = std::move(buf);
		b->data_ = b->copy_.get();
		b->size_ = n;
	}
	::close(fd);
	if (!b->check_header())
		return nullptr;
	b->offs_.reserve(b->types_len_ / 16); // records average ~26 bytes
	return opened.emplace(path, std::move(b)).first->second.get();
}

// The header: magic, version, sections inside the file.
bool kernel_btf::check_header()
{
	struct btf_header h {};
	if (size_ < sizeof(h))
		return false;
	std::memcpy(&h, data_, sizeof(h));
	if (h.magic != BTF_MAGIC || h.version != BTF_VERSION || h.hdr_len < sizeof(h) ||
	    h.hdr_len > size_)
		return false;
	const uint64_t body = size_ - h.hdr_len;
	if (uint64_t{h.type_off} + h.type_len > body || uint64_t{h.str_off} + h.str_len > body ||
	    h.str_len == 0 || h.type_off % 4 != 0)
		return false;
	types_ = data_ + h.hdr_len + h.type_off;
	types_len_ = h.type_len;
	strs_ = reinterpret_cast<const char *>(data_ + h.hdr_len + h.str_off);
	strs_len_ = h.str_len;
	return strs_[strs_len_ - 1] == '\0';
}

// The walk, one record at a time and only as far as a question needs:
// where each type starts, and the ids of each kind. A record that runs
// past the section, or of an unknown kind, ends it: from then on the
// file answers nothing (a malformed file is no source of types).
// Called with lock_ held.
bool kernel_btf::step() const
{
	if (state_ != walk::partial)
		return false;
	if (walked_ == types_len_) {
		state_ = walk::done;
		return false;
	}
	const auto *t = reinterpret_cast<const struct btf_type *>(types_ + walked_);
	size_t sz = types_len_ - walked_ < sizeof(struct btf_type) ? 0 : record_size(t);
	if (sz == 0 || sz > types_len_ - walked_) {
		state_ = walk::bad;
		offs_.assign(1, 0);
		by_kind_.assign(k_nkinds, {});
		return false;
	}
	by_kind_[btf_kind(t)].push_back(static_cast<uint32_t>(offs_.size()));
	offs_.push_back(static_cast<uint32_t>(walked_));
	walked_ += sz;
	return true;
}

const struct btf_type *kernel_btf::record(uint32_t id) const
{
	return reinterpret_cast<const struct btf_type *>(types_ + offs_[id]);
}

uint32_t kernel_btf::type_count() const
{
	std::lock_guard<std::mutex> g(lock_);
	while (step())
		;
	return state_ == walk::bad ? 0 : static_cast<uint32_t>(offs_.size());
}

const struct btf_type *kernel_btf::type(uint32_t id) const
{
	std::lock_guard<std::mutex> g(lock_);
	while (id >= offs_.size() && step())
		;
	if (id == 0 || id >= offs_.size())
		return nullptr;
	return record(id);
}

const char *kernel_btf::name(uint32_t off) const
{
	return off < strs_len_ ? strs_ + off : "";
}

// The types walked so far first, then the walk goes on only until the
// name turns up: the kernel's own structs (task_struct, sched_entity)
// come early in vmlinux, so most programs never walk the whole section.
int32_t kernel_btf::find(const char *n, uint32_t kind) const
{
	if (kind >= k_nkinds)
		return -1;
	std::lock_guard<std::mutex> g(lock_);
	for (uint32_t id : by_kind_[kind])
		if (std::strcmp(name(record(id)->name_off), n) == 0)
			return static_cast<int32_t>(id);
	while (step()) {
		uint32_t id = static_cast<uint32_t>(offs_.size() - 1);
		const struct btf_type *t = record(id);
		if (btf_kind(t) == kind && std::strcmp(name(t->name_off), n) == 0)
			return static_cast<int32_t>(id);
	}
	return -1;
}

uint32_t kernel_btf::align_of(uint32_t id) const
{
	const struct btf_type *t = type(id);
	if (t == nullptr)
		return 0;
	switch (btf_kind(t)) {
	case BTF_KIND_INT:
	case BTF_KIND_ENUM:
	case BTF_KIND_ENUM64:
	case BTF_KIND_FLOAT: return std::min<uint32_t>(sizeof(void *), t->size);
	case BTF_KIND_PTR: return sizeof(void *);
	case BTF_KIND_TYPEDEF:
	case BTF_KIND_VOLATILE:
	case BTF_KIND_CONST:
	case BTF_KIND_RESTRICT:
	case BTF_KIND_TYPE_TAG: return align_of(t->type);
	case BTF_KIND_ARRAY: return align_of(btf_array(t)->type);
	case BTF_KIND_STRUCT:
	case BTF_KIND_UNION: {
		const struct btf_member *m = btf_members(t);
		uint32_t max_align = 1;
		for (uint32_t i = 0; i < btf_vlen(t); i++) {
			uint32_t a = align_of(m[i].type);
			if (a == 0)
				return 0;
			max_align = std::max(max_align, a);
			if (btf_member_bitfield_size(t, i) == 0 &&
			    btf_member_bit_offset(t, i) % (8 * a) != 0)
				return 1; // packed
		}
		return t->size % max_align != 0 ? 1 : max_align;
	}
	default: return 0;
	}
}

} // namespace dt
