// SPDX-License-Identifier: MIT
//
// explain.cc - a verifier log -> one line for the user (translate.hpp):
// the instruction the verifier stopped at (the last "N: (..) ..." line of
// the log) is mapped through clause_starts to a clause and its source
// line; the reason is the log's last line that is neither an instruction,
// a register state nor the closing statistics. The log itself is never
// shown.
#include "translate.hpp"

#include <cctype>
#include <sstream>

namespace dt::engines::bpf {
namespace {

bool starts_with(const std::string &s, const char *p)
{
	return s.rfind(p, 0) == 0;
}

// "123: ..." -> 123
bool insn_line(const std::string &s, uint64_t &idx)
{
	size_t i = 0;
	while (i < s.size() && std::isdigit(static_cast<unsigned char>(s[i])))
		i++;
	if (i == 0 || i >= s.size() || s[i] != ':')
		return false;
	idx = std::stoull(s.substr(0, i));
	return true;
}

bool noise(const std::string &s)
{
	uint64_t idx;
	return s.empty() || insn_line(s, idx) || starts_with(s, "processed ") ||
	       starts_with(s, "verification time") || starts_with(s, "stack depth") ||
	       starts_with(s, "from ") || starts_with(s, "; ") || starts_with(s, "func#") ||
	       starts_with(s, "last_idx") || starts_with(s, "regs=") || starts_with(s, "parent ") ||
	       starts_with(s, "mark_precise");
}

} // namespace

std::string explain_verifier(const program &p, const translated &t, const std::string &log,
			     uint32_t *clause_out)
{
	std::vector<std::string> lines;
	std::istringstream in(log);
	for (std::string s; std::getline(in, s);) {
		while (!s.empty() && (s.back() == '\r' || s.back() == ' ' || s.back() == '\t'))
			s.pop_back();
		lines.push_back(s);
	}
	std::string reason;
	for (auto it = lines.rbegin(); it != lines.rend() && reason.empty(); ++it)
		if (!noise(*it))
			reason = *it;
	if (reason.empty())
		reason = "no reason given";
	// The helper the kernel withholds from tracing programs when it is
	// locked down or the caller lacks CAP_SYS_ADMIN: say what needs it.
	if (reason.find("helper bpf_probe_write_user") != std::string::npos)
		reason = "copyout() and copyoutstr() need the kernel's bpf_probe_write_user(), "
			 "which this kernel does not allow (it is locked down, or dtrace lacks "
			 "CAP_SYS_ADMIN)";
	auto clause_of = [&](uint64_t idx) {
		uint32_t clause = UINT32_MAX;
		for (auto [start, c] : t.clause_starts) {
			if (start > idx)
				break;
			clause = c;
		}
		return clause;
	};
	// The instruction the verifier stopped at; when it is the engine's
	// (the library a clause called), the clause whose code the verifier
	// walked last before it.
	const std::string head = "bpf engine: the kernel's verifier rejected ";
	if (clause_out != nullptr)
		*clause_out = UINT32_MAX;
	bool first = true;
	for (auto it = lines.rbegin(); it != lines.rend(); ++it) {
		uint64_t idx;
		if (!insn_line(*it, idx))
			continue;
		uint32_t clause = clause_of(idx);
		if (clause < p.clauses.size()) {
			const dt::clause &c = p.clauses[clause];
			if (clause_out != nullptr)
				*clause_out = clause;
			return head + "the clause at line " + std::to_string(c.line) + " (" +
			       c.desc_text + "): " + reason;
		}
		// The engine's own code before the first clause (the prologue)
		// or after the last: not a clause's.
		if (first && (t.clause_starts.empty() || idx < t.clause_starts.front().first))
			break;
		first = false;
	}
	return head + "the engine's code for this probe: " + reason;
}

} // namespace dt::engines::bpf
