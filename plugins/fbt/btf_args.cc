// SPDX-License-Identifier: MIT
// fbt argument types from BTF (see btf_args.hpp).
#include "btf_args.hpp"

#include <bpf/btf.h>
#include <bpf/libbpf.h>

#include <cerrno>
#include <cstdarg>
#include <cstdio>
#include <cstring>
#include <string_view>
#include <unordered_map>

namespace dt::plugin::fbt {
namespace {

// libbpf prints its warnings to stderr through one process-wide hook. For
// the duration of our calls, route them to the host's log at debug level
// (a plugin never prints), then put back whatever was there.
thread_local const dt_plugin_host_t *t_log_host = nullptr;

int libbpf_to_host(enum libbpf_print_level, const char *fmt, va_list ap)
	__attribute__((format(printf, 2, 0)));
int libbpf_to_host(enum libbpf_print_level, const char *fmt, va_list ap)
{
	if (t_log_host == nullptr)
		return 0;
	char buf[512];
	std::vsnprintf(buf, sizeof(buf), fmt, ap);
	size_t n = std::strlen(buf);
	while (n > 0 && buf[n - 1] == '\n')
		buf[--n] = '\0';
	t_log_host->log(t_log_host, DT_LOG_DEBUG, "fbt: %s", buf);
	return 0;
}

class libbpf_log_scope {
public:
	explicit libbpf_log_scope(const dt_plugin_host_t *host)
	{
		old_host_ = t_log_host;
		t_log_host = host;
		old_ = libbpf_set_print(libbpf_to_host);
	}
	~libbpf_log_scope()
	{
		libbpf_set_print(old_);
		t_log_host = old_host_;
	}
	libbpf_log_scope(const libbpf_log_scope &) = delete;
	libbpf_log_scope &operator=(const libbpf_log_scope &) = delete;

private:
	libbpf_print_fn_t old_;
	const dt_plugin_host_t *old_host_;
};

void dump_printf(void *ctx, const char *fmt, va_list ap) __attribute__((format(printf, 2, 0)));
void dump_printf(void *ctx, const char *fmt, va_list ap)
{
	auto *out = static_cast<std::string *>(ctx);
	va_list ap2;
	va_copy(ap2, ap);
	char small[256];
	int n = std::vsnprintf(small, sizeof(small), fmt, ap);
	if (n >= 0 && static_cast<size_t>(n) < sizeof(small)) {
		out->append(small, static_cast<size_t>(n));
	} else if (n > 0) {
		std::string big(static_cast<size_t>(n) + 1, '\0');
		std::vsnprintf(big.data(), big.size(), fmt, ap2);
		big.resize(static_cast<size_t>(n));
		*out += big;
	}
	va_end(ap2);
}

} // namespace

struct btf_cache::unit {
	struct btf *btf = nullptr;
	struct btf_dump *dump = nullptr;
	std::unordered_map<std::string_view, uint32_t> funcs; // views into btf
	~unit()
	{
		if (dump)
			btf_dump__free(dump);
		if (btf)
			btf__free(btf);
	}
};

btf_cache::btf_cache(const dt_plugin_host_t *host) : host_(host)
{
}

// Members of a module's BTF refer into vmlinux's, so free modules first.
btf_cache::~btf_cache()
{
	std::unique_ptr<unit> vmlinux;
	if (auto it = units_.find("vmlinux"); it != units_.end())
		vmlinux = std::move(it->second);
	units_.clear();
}

btf_cache::unit *btf_cache::get(const std::string &mod)
{
	if (auto it = units_.find(mod); it != units_.end())
		return it->second.get();
	libbpf_log_scope quiet(host_);
	auto u = std::make_unique<unit>();
	uint32_t first = 1;
	if (mod == "vmlinux") {
		u->btf = btf__load_vmlinux_btf();
		if (u->btf == nullptr)
			host_->log(host_, DT_LOG_DEBUG,
				   "fbt: no vmlinux BTF (%s); probes have no argument types",
				   std::strerror(errno));
	} else {
		unit *base = get("vmlinux");
		if (base != nullptr) {
			u->btf = btf__load_module_btf(mod.c_str(), base->btf);
			first = btf__type_cnt(base->btf);
		}
		if (u->btf == nullptr)
			host_->log(host_, DT_LOG_DEBUG, "fbt: no BTF for module %s", mod.c_str());
	}
	if (u->btf != nullptr) {
		u->dump = btf_dump__new(u->btf, dump_printf, &dump_buf_, nullptr);
		if (u->dump == nullptr) {
			btf__free(u->btf);
			u->btf = nullptr;
		}
	}
	if (u->btf == nullptr) {
		units_.emplace(mod, nullptr);
		return nullptr;
	}
	// A module's split BTF also answers for vmlinux's ids; index only
	// its own. The first FUNC of a name wins (static functions repeat).
	uint32_t n = btf__type_cnt(u->btf);
	for (uint32_t id = first; id < n; id++) {
		const struct btf_type *t = btf__type_by_id(u->btf, id);
		if (t == nullptr || !btf_is_func(t))
			continue;
		const char *name = btf__name_by_offset(u->btf, t->name_off);
		if (name != nullptr && *name != '\0')
			u->funcs.emplace(name, id);
	}
	return units_.emplace(mod, std::move(u)).first->second.get();
}

std::string btf_cache::type_name(unit &u, uint32_t id)
{
	if (id == 0)
		return "void";
	struct btf_dump_emit_type_decl_opts opts;
	std::memset(&opts, 0, sizeof(opts));
	opts.sz = sizeof(opts);
	opts.field_name = "";
	dump_buf_.clear();
	libbpf_log_scope quiet(host_);
	if (btf_dump__emit_type_decl(u.dump, id, &opts) != 0)
		return "";
	std::string s = dump_buf_;
	while (!s.empty() && s.back() == ' ')
		s.pop_back();
	return s;
}

bool btf_cache::lookup(const std::string &mod, const std::string &func, func_sig &out)
{
	out = func_sig{};
	unit *u = get(mod);
	if (u == nullptr)
		return false;
	auto it = u->funcs.find(func);
	if (it == u->funcs.end())
		return false;
	const struct btf_type *fn = btf__type_by_id(u->btf, it->second);
	const struct btf_type *proto = btf__type_by_id(u->btf, fn->type);
	if (proto == nullptr || !btf_is_func_proto(proto))
		return false;
	const struct btf_param *p = btf_params(proto);
	for (uint16_t i = 0; i < btf_vlen(proto); i++) {
		if (p[i].type == 0)
			break; // "...": no type to give
		const char *name = btf__name_by_offset(u->btf, p[i].name_off);
		out.params.push_back({type_name(*u, p[i].type), name ? name : ""});
	}
	if (proto->type != 0)
		out.ret = type_name(*u, proto->type);
	return true;
}

namespace {

// An argument or return type a trampoline passes in one u64 slot: an
// integer, enum or pointer of at most 8 bytes, through typedefs and
// qualifiers.
bool scalar_slot(const struct btf *btf, uint32_t id)
{
	const struct btf_type *t = btf__type_by_id(btf, btf__resolve_type(btf, id));
	if (t == nullptr)
		return false;
	if (btf_is_ptr(t))
		return true;
	if (btf_is_int(t) || btf_is_enum(t) || btf_is_enum64(t))
		return t->size <= 8;
	return false;
}

} // namespace

bool btf_cache::tracing_target(const std::string &func, tracing_shape &out)
{
	out = tracing_shape{};
	unit *u = get("vmlinux");
	if (u == nullptr)
		return false;
	auto it = u->funcs.find(func);
	if (it == u->funcs.end())
		return false;
	const struct btf_type *fn = btf__type_by_id(u->btf, it->second);
	const struct btf_type *proto = btf__type_by_id(u->btf, fn->type);
	if (proto == nullptr || !btf_is_func_proto(proto))
		return false;
	const struct btf_param *p = btf_params(proto);
	for (uint16_t i = 0; i < btf_vlen(proto); i++)
		if (p[i].type == 0 || !scalar_slot(u->btf, p[i].type))
			return false; // "..." or a value that is not one slot
	if (proto->type != 0 && !scalar_slot(u->btf, proto->type))
		return false;
	out.btf_id = it->second;
	out.nslots = btf_vlen(proto);
	return true;
}

} // namespace dt::plugin::fbt
