// SPDX-License-Identifier: MIT
//
// consumer/printf.cc - printf()/printa() text over recorded values, as
// illumos dt_printf.c dt_printf_format() and its pfprint_* functions do:
// each conversion is printed through the C library's printf with the
// flags, width and precision given and a length fitted to the record's
// size (8 bytes: "ll"; %d of an unsigned value: %u). A precision of 0 is
// not passed on (illumos: "%.0d" prints as "%d").
#include "internal.hpp"
#include "util/bytes.hpp"

#include <algorithm>
#include <arpa/inet.h>
#include <netdb.h>
#include <netinet/in.h>
#include <sys/socket.h>

#include <cinttypes>
#include <cstring>
#include <ctime>
#include <cwchar>

namespace dt::consumer_impl {

std::string strf(const char *f, ...)
{
	va_list ap, aq;
	va_start(ap, f);
	va_copy(aq, ap);
	int n = std::vsnprintf(nullptr, 0, f, ap);
	va_end(ap);
	std::string s;
	if (n > 0) {
		s.resize(static_cast<size_t>(n) + 1);
		std::vsnprintf(s.data(), s.size(), f, aq);
		s.resize(static_cast<size_t>(n));
	}
	va_end(aq);
	return s;
}

namespace {

// A '*' width or precision from probe data, held within what a format
// may spell (a negative width still means left-justified).
int clamp_width(int64_t v)
{
	return static_cast<int>(std::clamp<int64_t>(v, -fmt::k_max_width, fmt::k_max_width));
}

// The format string is built at run time from the D format: the C
// library's printf is the formatter (what illumos does), so this is the
// one place where a non-literal format is intended.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wformat-nonliteral"
template <typename T>
std::string cfmt(const std::string &f, T v)
{
	int n = std::snprintf(nullptr, 0, f.c_str(), v);
	if (n <= 0)
		return {};
	std::string s(static_cast<size_t>(n) + 1, '\0');
	std::snprintf(s.data(), s.size(), f.c_str(), v);
	s.resize(static_cast<size_t>(n));
	return s;
}
#pragma GCC diagnostic pop

using fmt::arg_print;

// strchr2esc(): C escapes for %S and %C.
std::string escape(const char *s, size_t n)
{
	std::string o;
	for (size_t i = 0; i < n; i++) {
		char c = s[i];
		switch (c) {
		case '\0': o += "\\0"; break;
		case '\a': o += "\\a"; break;
		case '\b': o += "\\b"; break;
		case '\f': o += "\\f"; break;
		case '\n': o += "\\n"; break;
		case '\r': o += "\\r"; break;
		case '\t': o += "\\t"; break;
		case '\v': o += "\\v"; break;
		case '"': o += "\\\""; break;
		case '\\': o += "\\\\"; break;
		case ' ': o += c; break;
		default:
			if (c < '!' || c > '~') {
				o += '\\';
				o += static_cast<char>(((c >> 6) & 3) + '0');
				o += static_cast<char>(((c >> 3) & 7) + '0');
				o += static_cast<char>((c & 7) + '0');
			} else {
				o += c;
			}
		}
		if (c == '\0')
			break;
	}
	return o;
}

std::string cstring(const datum &d)
{
	const char *p = reinterpret_cast<const char *>(d.p);
	return std::string(p, strnlen(p, d.size));
}

// pfprint_time(): ctime(3)'s fields as "1973 Dec  3 17:20:00".
std::string time_y(uint64_t ns)
{
	time_t sec = static_cast<time_t>(ns / 1000000000ULL);
	struct tm tm;
	localtime_r(&sec, &tm);
	char buf[64];
	std::strftime(buf, sizeof buf, "%Y %b %e %T", &tm);
	return buf;
}

// pfprint_time822(): RFC 822 (illumos uses %G for the year).
std::string time_t822(uint64_t ns)
{
	time_t sec = static_cast<time_t>(ns / 1000000000ULL);
	struct tm tm;
	localtime_r(&sec, &tm);
	char buf[64];
	std::strftime(buf, sizeof buf, "%a, %d %b %G %T %Z", &tm);
	return buf;
}

std::string port_name(uint16_t port)
{
	struct servent res, *sv = nullptr;
	char buf[1024];
	if (getservbyport_r(htons(port), nullptr, &res, buf, sizeof buf, &sv) == 0 && sv)
		return sv->s_name;
	return std::to_string(port);
}

std::string inet_name(const std::string &s)
{
	struct sockaddr_storage ss {};
	socklen_t len = 0;
	if (s.find(':') == std::string::npos) {
		auto *in = reinterpret_cast<sockaddr_in *>(&ss);
		if (inet_pton(AF_INET, s.c_str(), &in->sin_addr) != 1)
			return s;
		in->sin_family = AF_INET;
		len = sizeof *in;
	} else {
		auto *in6 = reinterpret_cast<sockaddr_in6 *>(&ss);
		if (inet_pton(AF_INET6, s.c_str(), &in6->sin6_addr) != 1)
			return s;
		in6->sin6_family = AF_INET6;
		len = sizeof *in6;
	}
	char host[NI_MAXHOST];
	if (getnameinfo(reinterpret_cast<sockaddr *>(&ss), len, host, sizeof host, nullptr, 0,
			NI_NAMEREQD) == 0)
		return host;
	return s;
}

} // namespace

bool format_text(state &st, const fmt::format &f, std::span<const datum> args,
		 std::span<const datum> aggvals, std::string &out)
{
	size_t ai = 0;
	size_t curagg = 0;
	for (const auto &pc : f.pieces) {
		out += pc.prefix;
		const fmt::conv_spec *c = pc.conv;
		if (!c)
			continue;
		if (c->print == arg_print::pct) {
			out += '%';
			continue;
		}
		int width = pc.width;
		int prec = pc.prec;
		int dynwidth = 0;
		if (pc.flags & fmt::k_dynwidth) {
			if (ai >= args.size())
				return false;
			width = clamp_width(bytes::load_int(args[ai].p, args[ai].size));
			dynwidth = width;
			ai++;
		}
		if (pc.flags & fmt::k_dynprec) {
			if (ai >= args.size())
				return false;
			prec = clamp_width(bytes::load_int(args[ai].p, args[ai].size));
			ai++;
		}
		datum d;
		if (pc.flags & fmt::k_agg) {
			if (aggvals.empty())
				return false;
			d = aggvals[curagg];
			if (curagg + 1 < aggvals.size())
				curagg++;
		} else {
			if (ai >= args.size())
				return false;
			d = args[ai++];
		}

		arg_print how = c->print;
		if (d.agg_func == DTRACEAGG_AVG || d.agg_func == DTRACEAGG_QUANTIZE ||
		    d.agg_func == DTRACEAGG_LQUANTIZE || d.agg_func == DTRACEAGG_LLQUANTIZE ||
		    d.agg_func == DTRACEAGG_STDDEV)
			how = arg_print::pct; // marker: handled below by function
		bool is_stack = how == arg_print::stack;

		std::string cf = "%";
		if (pc.flags & fmt::k_alt)
			cf += '#';
		if (pc.flags & fmt::k_zpad)
			cf += '0';
		if (pc.flags & fmt::k_left)
			cf += '-';
		if (pc.flags & fmt::k_spos)
			cf += '+';
		if (pc.flags & fmt::k_group)
			cf += '\'';
		if (pc.flags & fmt::k_space)
			cf += ' ';
		if (width != 0 && !(is_stack && (pc.flags & fmt::k_left)))
			cf += std::to_string(width);
		if (prec != 0)
			cf += "." + std::to_string(prec);

		// The aggregating functions whose value is not one integer.
		if (d.agg_func != 0 && how == arg_print::pct) {
			uint64_t normal = d.normal ? d.normal : 1;
			const auto *w = reinterpret_cast<const int64_t *>(d.p);
			if (d.agg_func == DTRACEAGG_AVG) {
				// pfprint_average(): the format's own conversion.
				std::string lf = cf + "ll" + std::string(c->ofmt);
				int64_t v = w[0] ? static_cast<int64_t>(
							   static_cast<uint64_t>(w[1]) / normal /
							   static_cast<uint64_t>(w[0]))
						 : 0;
				out += cfmt(lf, static_cast<long long>(v));
			} else if (d.agg_func == DTRACEAGG_STDDEV) {
				std::vector<int64_t> v(w, w + d.size / 8);
				std::string lf = cf + "ll" + std::string(c->ofmt);
				out += cfmt(lf,
					    static_cast<unsigned long long>(stddev_of(v, normal)));
			} else {
				out += print_agg_datum(st, d);
			}
			continue;
		}

		auto int_fmt = [&](bool is_signed) {
			std::string o(c->ofmt);
			if (c->print == arg_print::dint && !is_signed)
				o.back() = 'u';
			return cf + (d.size == 8 ? "ll" : "") + o;
		};
		uint64_t normal = d.normal ? d.normal : 1;

		// illumos dt_printf_format(): mod() and umod() records print as
		// names whatever the conversion.
		if (d.kind == value_type::kind::mod || d.kind == value_type::kind::umod) {
			out += print_symbolic(st, d, cf + "s");
			continue;
		}

		switch (how) {
		case arg_print::dint:
		case arg_print::sint:
		case arg_print::uint: {
			bool sgn =
				how == arg_print::sint || (how == arg_print::dint && d.is_signed);
			std::string lf = int_fmt(how == arg_print::dint ? d.is_signed : true);
			if (d.size != 1 && d.size != 2 && d.size != 4 && d.size != 8)
				return false;
			if (d.size == 8) {
				if (sgn)
					out += cfmt(lf, static_cast<long long>(
								bytes::load_int(d.p, 8) /
								static_cast<int64_t>(normal)));
				else
					out += cfmt(lf, static_cast<unsigned long long>(
								bytes::load_uint(d.p, 8) / normal));
			} else if (sgn) {
				out += cfmt(lf, static_cast<int>(static_cast<int32_t>(
									 bytes::load_int(d.p, d.size)) /
								 static_cast<int32_t>(normal)));
			} else {
				out += cfmt(lf,
					    static_cast<unsigned>(
						    static_cast<uint32_t>(bytes::load_uint(d.p, d.size)) /
						    static_cast<uint32_t>(normal)));
			}
			break;
		}
		case arg_print::fp: {
			std::string lf = cf + (d.size == 16 ? "L" : "") + std::string(c->ofmt);
			if (d.size == 4) {
				float v;
				std::memcpy(&v, d.p, 4);
				out += cfmt(lf,
					    static_cast<double>(v) / static_cast<double>(normal));
			} else if (d.size == 8) {
				double v;
				std::memcpy(&v, d.p, 8);
				out += cfmt(lf, v / static_cast<double>(normal));
			} else if (d.size == 16) {
				long double v;
				std::memcpy(&v, d.p, sizeof v);
				out += cfmt(lf, v / static_cast<long double>(normal));
			} else {
				return false;
			}
			break;
		}
		case arg_print::kaddr: {
			if (d.size != 4 && d.size != 8)
				return false;
			out += cfmt(cf + "s", st.syms.addr2str(bytes::load_uint(d.p, d.size)).c_str());
			break;
		}
		case arg_print::uaddr: {
			uint64_t pid = 0, val;
			if (d.size == 16) {
				pid = bytes::load_uint(d.p, 8);
				val = bytes::load_uint(d.p + 8, 8);
			} else if (d.size == 4 || d.size == 8) {
				val = bytes::load_uint(d.p, d.size);
			} else {
				return false;
			}
			auto upid = static_cast<pid_t>(pid);
			out += cfmt(cf + "s", (st.opt.noresolve ? st.syms.unresolved(upid, val)
								: st.syms.uaddr2str(upid, val))
						      .c_str());
			break;
		}
		case arg_print::stack: {
			// pfprint_stack(): a left-aligned width is the indent.
			int indent = 0;
			if (dynwidth < 0)
				indent = -dynwidth;
			else if (pc.flags & fmt::k_left)
				indent = dynwidth ? dynwidth : pc.width;
			out += print_stack(st, d, cf + "s", indent);
			break;
		}
		case arg_print::time:
			out += cfmt(cf + "s", time_y(bytes::load_uint(d.p, 8)).c_str());
			break;
		case arg_print::time822:
			out += cfmt(cf + "s", time_t822(bytes::load_uint(d.p, 8)).c_str());
			break;
		case arg_print::cstr: out += cfmt(cf + "s", cstring(d).c_str()); break;
		case arg_print::wstr: {
			std::wstring ws(d.size / sizeof(wchar_t) + 1, L'\0');
			std::memcpy(ws.data(), d.p, d.size / sizeof(wchar_t) * sizeof(wchar_t));
			out += cfmt(cf + std::string(c->ofmt), ws.c_str());
			break;
		}
		case arg_print::estr: {
			const char *p = reinterpret_cast<const char *>(d.p);
			out += cfmt(cf + "s", escape(p, d.size).c_str());
			break;
		}
		case arg_print::echr: {
			if (d.size != 1 && d.size != 2 && d.size != 4)
				return false;
			char ch = static_cast<char>(bytes::load_int(d.p, d.size));
			out += cfmt(cf + "s", escape(&ch, 1).c_str());
			break;
		}
		case arg_print::port:
			out += cfmt(
				cf + "s",
				port_name(static_cast<uint16_t>(bytes::load_uint(d.p, d.size))).c_str());
			break;
		case arg_print::inetaddr:
			out += cfmt(cf + "s", inet_name(cstring(d)).c_str());
			break;
		case arg_print::pct: out += '%'; break;
		}
	}
	return true;
}

} // namespace dt::consumer_impl
