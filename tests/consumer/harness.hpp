// SPDX-License-Identifier: MIT
//
// harness.hpp - building dt::program clauses and principal-buffer bytes by
// hand, as an engine writes them (uapi/dtrace/actions.h), and capturing
// what dt::consumer prints.
#pragma once

#include <dtrace/consumer.hpp>
#include <dtrace/program.hpp>

#include <cstdio>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

namespace dt::test {

// A FILE* that can be read back.
class capture {
public:
	capture() : f_(std::tmpfile()) {}
	~capture() { std::fclose(f_); }
	capture(const capture &) = delete;
	capture &operator=(const capture &) = delete;
	FILE *file() { return f_; }
	std::string text()
	{
		std::fflush(f_);
		long n = std::ftell(f_);
		std::string s(static_cast<size_t>(n), '\0');
		std::rewind(f_);
		size_t got = std::fread(s.data(), 1, s.size(), f_);
		s.resize(got);
		std::fseek(f_, 0, SEEK_END);
		return s;
	}

private:
	FILE *f_;
};

inline value_type int_type(uint32_t size, bool is_signed = true)
{
	value_type t;
	t.k = value_type::kind::integer;
	t.size = size;
	t.is_signed = is_signed;
	return t;
}

inline value_type string_type(uint32_t size)
{
	value_type t;
	t.k = value_type::kind::string;
	t.size = size;
	return t;
}

inline value_type kind_type(value_type::kind k, uint32_t size)
{
	value_type t;
	t.k = k;
	t.size = size;
	return t;
}

// A clause under construction: records are laid out after the header,
// each aligned to its size (8 at most), as an engine lays them out.
struct clause_builder {
	clause c;
	uint32_t next = sizeof(dtrace_rechdr_t);

	record add_record(const value_type &t)
	{
		record r;
		r.type = t;
		r.size = t.size;
		uint32_t al = t.size >= 8 ? 8 : (t.size >= 4 ? 4 : (t.size >= 2 ? 2 : 1));
		if (t.k == value_type::kind::string || t.k == value_type::kind::bytes)
			al = 1;
		r.alignment = al;
		next = (next + al - 1) / al * al;
		r.offset = next;
		next += t.size;
		return r;
	}

	action &add(uint16_t kind, std::vector<value_type> args = {}, std::string format = {})
	{
		action a;
		a.kind = kind;
		a.format = std::move(format);
		for (const auto &t : args)
			a.args.push_back(add_record(t));
		c.actions.push_back(std::move(a));
		return c.actions.back();
	}

	clause done()
	{
		c.size = (next + 7) / 8 * 8;
		return c;
	}
};

// A firing's bytes: header, then values written at the records' offsets.
struct firing {
	std::vector<uint8_t> b;
	firing(const clause &c, uint32_t epid) : b(c.size, 0)
	{
		dtrace_rechdr_t h{epid, 0, 0};
		std::memcpy(b.data(), &h, sizeof h);
	}
	template <typename T>
	firing &put(const record &r, T v)
	{
		std::memcpy(b.data() + r.offset, &v, sizeof v);
		return *this;
	}
	firing &put_str(const record &r, const std::string &s)
	{
		std::memcpy(b.data() + r.offset, s.data(), std::min<size_t>(s.size(), r.size));
		return *this;
	}
	firing &put_bytes(const record &r, const std::vector<uint8_t> &v)
	{
		std::memcpy(b.data() + r.offset, v.data(), std::min<size_t>(v.size(), r.size));
		return *this;
	}
};

inline enabled_probe an_enabled_probe(uint32_t epid, uint32_t id, std::string prov, std::string mod,
				      std::string func, std::string name, uint32_t clause = 0)
{
	enabled_probe e;
	e.epid = epid;
	e.probe_id = id;
	e.probe = {std::move(prov), std::move(mod), std::move(func), std::move(name)};
	e.clause = clause;
	return e;
}

// `e` with the flow its provider would describe (-F).
inline enabled_probe flowing(enabled_probe e, probe_flow flow, bool syscall = false)
{
	e.flow = flow;
	e.flow_syscall = syscall;
	return e;
}

inline enabled_probe begin_probe(uint32_t epid = 1, uint32_t clause = 0)
{
	return an_enabled_probe(epid, 1, "dtrace", "", "", "BEGIN", clause);
}

// Several firings in one buffer.
inline std::vector<uint8_t> concat(std::initializer_list<const firing *> fs)
{
	std::vector<uint8_t> v;
	for (const auto *f : fs)
		v.insert(v.end(), f->b.begin(), f->b.end());
	return v;
}

// An aggregation's key bytes from integers or strings.
struct key_builder {
	std::vector<uint8_t> k;
	template <typename T>
	key_builder &add(T v, uint32_t align = sizeof(T))
	{
		size_t off = (k.size() + 7) / 8 * 8;
		(void)align;
		k.resize(off + sizeof v, 0);
		std::memcpy(k.data() + off, &v, sizeof v);
		return *this;
	}
	key_builder &add_str(const std::string &s, uint32_t size)
	{
		size_t off = (k.size() + 7) / 8 * 8;
		k.resize(off + size, 0);
		std::memcpy(k.data() + off, s.data(), std::min<size_t>(s.size(), size));
		return *this;
	}
};

// An aggregation with keys of the given types at 8-aligned offsets.
inline aggregation make_agg(uint32_t id, std::string name, uint16_t func,
			    std::vector<value_type> keys, std::vector<int64_t> params = {},
			    uint32_t nwords = 1)
{
	aggregation a;
	a.id = id;
	a.name = std::move(name);
	a.func = func;
	a.params = std::move(params);
	a.nwords = nwords;
	uint32_t off = 0;
	for (const auto &k : keys) {
		off = (off + 7) / 8 * 8;
		a.key_offsets.push_back(off);
		off += k.size;
	}
	a.key_size = off;
	a.keys = std::move(keys);
	return a;
}

// A consumer of prog (its aggregations set by the test, one clause from cb
// on BEGIN), output captured; put() delivers an aggregation delta as an
// engine's drain does.
struct agg_consumer {
	program prog;
	std::vector<enabled_probe> eps;
	capture out, err;
	std::unique_ptr<consumer> c;
	clause_builder cb;

	void start(bool quiet = true)
	{
		prog.clauses.push_back(cb.done());
		eps.push_back(begin_probe());
		consumer_settings s;
		s.out = out.file();
		s.err = err.file();
		s.quiet = quiet;
		c = std::make_unique<consumer>(prog, eps, s);
	}
	void put(uint32_t id, const std::vector<uint8_t> &key, std::vector<int64_t> v)
	{
		agg_data d;
		d.aggid = id;
		d.key = key;
		d.value = std::move(v);
		c->aggregation(d);
	}
};

} // namespace dt::test
