// SPDX-License-Identifier: MIT
//
// kmod_client - a test consumer of dtrace.ko's /dev/dtrace (the ioctl ABI
// of kmod/include/uapi/dtrace/ioctl.h), run inside the VM by
// tests/vm/kmod-test.sh with dtrace.ko and dt_test.ko loaded.
//
//   kmod_client run            the checks below, one line each
//   kmod_client open CMD...    with /dev/dtrace open (nothing enabled),
//                              run CMD, print its exit status
//   kmod_client busy CMD...    with dt_test:::test enabled and tracing,
//                              run CMD, print its exit status
//   kmod_client abandon        enable, go, fire, exit without STOP or close
//   kmod_client syscall        the syscall provider: openat seen for a path
//   kmod_client churn N        N x (enable syscall:::, go, close without STOP)
//   kmod_client deadman        a consumer that stops calling STATUS is KILLED
//   kmod_client list N         list every probe N times
//
// `run` prints "ok - <what>" or "not ok - <what>: <why>" per check and
// ends with "kmod_client: N passed, M failed"; it exits 1 if any failed.
#include "kmod_blob.hpp"

#include <fcntl.h>
#include <sys/ioctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cinttypes>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <set>
#include <string>
#include <vector>

using namespace dt::kmodtest;

namespace {

int passed, failed;

void check(bool ok, const std::string &what, const std::string &why = "")
{
	if (ok) {
		passed++;
		std::printf("ok - %s\n", what.c_str());
	} else {
		failed++;
		std::printf("not ok - %s%s%s\n", what.c_str(), why.empty() ? "" : ": ", why.c_str());
	}
	std::fflush(stdout);
}

const char *fire_path = "/sys/kernel/debug/dt_test/fire";

int open_dev()
{
	int fd = open("/dev/dtrace", O_RDWR);
	if (fd < 0) {
		std::perror("/dev/dtrace");
		std::exit(2);
	}
	return fd;
}

// Fire dt_test:::test n times from this process (execname, tid are ours).
bool fire(uint64_t n, int64_t a0 = 0, int64_t a1 = 0, int64_t a2 = 0)
{
	int fd = open(fire_path, O_WRONLY);
	if (fd < 0)
		return false;
	std::string s = std::to_string(n) + " " + std::to_string(a0) + " " + std::to_string(a1) +
			" " + std::to_string(a2);
	bool ok = write(fd, s.data(), s.size()) == static_cast<ssize_t>(s.size());
	close(fd);
	return ok;
}

struct enable_result {
	int rc = 0, err = 0;
	dtrace_enable_t en{};
};

enable_result enable(int fd, const blob &b)
{
	std::vector<uint8_t> bytes = b.bytes();
	enable_result r;
	r.en.dten_prog = reinterpret_cast<uintptr_t>(bytes.data());
	r.en.dten_size = static_cast<uint32_t>(bytes.size());
	r.rc = ioctl(fd, DTRACEIOC_ENABLE, &r.en);
	r.err = r.rc < 0 ? errno : 0;
	return r;
}

struct firing {
	uint32_t cpu;
	uint32_t epid;
	uint64_t ts;
	std::vector<uint8_t> bytes;
};

template <typename T> T at(const std::vector<uint8_t> &b, size_t off)
{
	T v{};
	if (off + sizeof(T) <= b.size())
		std::memcpy(&v, b.data() + off, sizeof(T));
	return v;
}

// Snap every CPU's principal buffer; decode firings by EPID size.
std::vector<firing> drain(int fd, const dtrace_conf_t &conf, uint64_t bufsize, uint64_t *drops,
			  std::string *err)
{
	std::vector<firing> out;
	std::map<uint32_t, uint32_t> sizes;
	std::vector<uint8_t> buf(bufsize);
	for (uint32_t cpu = 0; cpu < conf.dtc_ncpus; cpu++) {
		dtrace_bufdesc_t d{};
		d.dtbd_data = reinterpret_cast<uintptr_t>(buf.data());
		d.dtbd_size = buf.size();
		d.dtbd_cpu = cpu;
		if (ioctl(fd, DTRACEIOC_BUFSNAP, &d) < 0) {
			if (errno == EINVAL)
				continue; // an absent CPU
			*err = std::string("BUFSNAP: ") + std::strerror(errno);
			return out;
		}
		if (drops)
			*drops += d.dtbd_drops;
		for (uint64_t off = 0; off < d.dtbd_size;) {
			auto epid = at<uint32_t>(buf, off);
			if (!sizes.count(epid)) {
				dtrace_eprobedesc_t e{};
				e.dtpe_epid = epid;
				if (ioctl(fd, DTRACEIOC_EPROBE, &e) < 0) {
					*err = "EPROBE " + std::to_string(epid) + " failed";
					return out;
				}
				sizes[epid] = e.dtpe_size;
			}
			uint32_t sz = sizes[epid];
			firing f{cpu, epid,
				 (uint64_t{at<uint32_t>(buf, off + 4)} << 32) | at<uint32_t>(buf, off + 8),
				 std::vector<uint8_t>(buf.begin() + off, buf.begin() + off + sz)};
			out.push_back(std::move(f));
			off += sz;
		}
	}
	return out;
}

// Snap every CPU's aggregation buffer and merge: (aggid, key) -> words.
std::map<std::pair<uint32_t, std::vector<uint8_t>>, std::vector<int64_t>>
aggs(int fd, const dtrace_conf_t &conf, uint64_t aggsize, std::string *err)
{
	std::map<std::pair<uint32_t, std::vector<uint8_t>>, std::vector<int64_t>> out;
	std::vector<uint8_t> buf(aggsize);
	for (uint32_t cpu = 0; cpu < conf.dtc_ncpus; cpu++) {
		dtrace_bufdesc_t d{};
		d.dtbd_data = reinterpret_cast<uintptr_t>(buf.data());
		d.dtbd_size = buf.size();
		d.dtbd_cpu = cpu;
		if (ioctl(fd, DTRACEIOC_AGGSNAP, &d) < 0) {
			if (errno == EINVAL)
				continue;
			*err = std::string("AGGSNAP: ") + std::strerror(errno);
			return out;
		}
		for (uint64_t off = 0; off < d.dtbd_size;) {
			auto r = at<dtrace_aggrec_t>(buf, off);
			off += sizeof(r);
			std::vector<uint8_t> key(buf.begin() + off, buf.begin() + off + r.dtag_keysize);
			off += (r.dtag_keysize + 7) & ~7u;
			auto &w = out[{r.dtag_aggid, key}];
			w.resize(r.dtag_nwords, 0);
			for (uint32_t i = 0; i < r.dtag_nwords; i++, off += 8)
				w[i] += at<int64_t>(buf, off); // count/sum: deltas add
		}
	}
	return out;
}

std::vector<uint8_t> key64(uint64_t v)
{
	std::vector<uint8_t> k(8);
	std::memcpy(k.data(), &v, 8);
	return k;
}

// ---- the checks ----------------------------------------------------------

void check_registry(int fd, dtrace_conf_t &conf)
{
	bool confok = ioctl(fd, DTRACEIOC_CONF, &conf) == 0 &&
		      conf.dtc_abi_version == DTRACE_IOCTL_VERSION &&
		      conf.dtc_difversion == DIF_VERSION && conf.dtc_difintregs == DIF_DIR_NREGS &&
		      conf.dtc_ncpus >= 1;
	check(confok, "CONF: ABI " + std::to_string(conf.dtc_abi_version) + ", " +
			      std::to_string(conf.dtc_ncpus) + " CPU slots");

	std::set<std::string> provs;
	dtrace_providerdesc_t pd{};
	for (pd.dtvd_id = 1; ioctl(fd, DTRACEIOC_PROVIDER, &pd) == 0; pd.dtvd_id++) {
		provs.insert(pd.dtvd_name);
		pd.dtvd_name[0] = '\0';
	}
	check(errno == ESRCH && provs.count("dtrace") && provs.count("dt_test"),
	      "PROVIDER lists dtrace and dt_test");
	dtrace_providerdesc_t byname{};
	std::strcpy(byname.dtvd_name, "dtrace");
	check(ioctl(fd, DTRACEIOC_PROVIDER, &byname) == 0 && byname.dtvd_nprobes == 3 &&
		      byname.dtvd_attr.dtpa_provider.dtat_name == DTRACE_STABILITY_STABLE,
	      "PROVIDER dtrace by name: 3 probes, stable");
	std::strcpy(byname.dtvd_name, "nosuch");
	check(ioctl(fd, DTRACEIOC_PROVIDER, &byname) < 0 && errno == ESRCH,
	      "PROVIDER nosuch: ESRCH");

	std::vector<std::string> all;
	dtrace_probedesc_t p{};
	for (p.dtpd_id = 1; ioctl(fd, DTRACEIOC_PROBES, &p) == 0; p.dtpd_id++)
		all.push_back(std::to_string(p.dtpd_id) + " " + p.dtpd_provider + ":" + p.dtpd_mod +
			      ":" + p.dtpd_func + ":" + p.dtpd_name);
	for (auto &s : all)
		std::printf("# probe %s\n", s.c_str());
	bool begin = false, test = false;
	for (auto &s : all) {
		begin |= s.find("dtrace:::BEGIN") != std::string::npos;
		test |= s.find("dt_test:dt_test:fire:test") != std::string::npos;
	}
	check(begin && test && all.size() >= 4, "PROBES lists dtrace:::BEGIN and dt_test:dt_test:fire:test");

	auto match = [&](const char *prov, const char *mod, const char *func, const char *name) {
		std::vector<uint32_t> ids;
		dtrace_probedesc_t m{};
		std::strcpy(m.dtpd_provider, prov);
		std::strcpy(m.dtpd_mod, mod);
		std::strcpy(m.dtpd_func, func);
		std::strcpy(m.dtpd_name, name);
		for (m.dtpd_id = 1; ioctl(fd, DTRACEIOC_PROBEMATCH, &m) == 0; m.dtpd_id++) {
			ids.push_back(m.dtpd_id);
			std::strcpy(m.dtpd_provider, prov);
			std::strcpy(m.dtpd_mod, mod);
			std::strcpy(m.dtpd_func, func);
			std::strcpy(m.dtpd_name, name);
		}
		return ids;
	};
	check(match("dt_test", "", "", "").size() == 1, "PROBEMATCH dt_test::: finds 1 probe");
	check(match("dt_te?t", "", "f*", "t[a-e]st").size() == 1, "PROBEMATCH with globs");
	check(match("dtrace", "", "", "").size() == 3, "PROBEMATCH dtrace::: finds 3 probes");
	check(match("dtrace", "", "", "B*").size() == 1, "PROBEMATCH dtrace:::B* finds BEGIN");
	check(match("nosuch*", "", "", "").empty(), "PROBEMATCH nosuch*::: finds nothing");

	auto ids = match("dt_test", "", "", "");
	if (ids.size() == 1) {
		dtrace_argdesc_t a{};
		a.dtargd_id = ids[0];
		a.dtargd_ndx = 0;
		bool ok0 = ioctl(fd, DTRACEIOC_PROBEARG, &a) == 0 &&
			   std::string(a.dtargd_native) == "int64_t" && a.dtargd_mapping == 0;
		a.dtargd_ndx = 7;
		bool ok7 = ioctl(fd, DTRACEIOC_PROBEARG, &a) == 0 &&
			   std::string(a.dtargd_native) == "uint64_t" && a.dtargd_mapping == 7;
		a.dtargd_ndx = 12;
		bool none = ioctl(fd, DTRACEIOC_PROBEARG, &a) == 0 && a.dtargd_mapping == DTRACE_ARGNONE;
		check(ok0 && ok7 && none, "PROBEARG: int64_t arg0, uint64_t arg7, none for arg12");
	}
	dtrace_argdesc_t bad{};
	bad.dtargd_id = 999999;
	check(ioctl(fd, DTRACEIOC_PROBEARG, &bad) < 0 && errno == ESRCH, "PROBEARG bad id: ESRCH");
}

ecb test_ecb(uint32_t cookie, uint32_t size = 16)
{
	ecb e;
	e.provider = "dt_test";
	e.name = "test";
	e.size = size;
	e.cookie = cookie;
	return e;
}

void check_rejects(int fd)
{
	{
		blob b;
		b.hdr.dtph_magic = 0x12345678;
		auto r = enable(fd, b);
		check(r.rc < 0 && r.err == EINVAL && std::string(r.en.dten_errmsg).find("magic") != std::string::npos,
		      "ENABLE bad magic: EINVAL", r.en.dten_errmsg);
	}
	{
		blob b;
		difo d = constant(1);
		d.text = {DIF_INSTR_BRANCH(DIF_OP_BA, 0), DIF_INSTR_RET(1)}; // a loop
		uint32_t n = b.add(d);
		ecb e = test_ecb(1);
		e.pred = n;
		b.add(e);
		auto r = enable(fd, b);
		check(r.rc < 0 && r.err == EINVAL &&
			      std::string(r.en.dten_errmsg).find("DIF object 1") != std::string::npos,
		      std::string("ENABLE backward branch: EINVAL (") + r.en.dten_errmsg + ")");
	}
	{
		blob b;
		difo d = constant(1);
		d.text = {DIF_INSTR_SETX(0, 0), DIF_INSTR_RET(0)}; // writes %r0
		b.add(d);
		b.add(test_ecb(1));
		auto r = enable(fd, b);
		check(r.rc < 0 && r.err == EINVAL, std::string("ENABLE write to %r0: EINVAL (") +
							   r.en.dten_errmsg + ")");
	}
	{
		blob b;
		uint32_t n = b.add(constant(1));
		ecb e = test_ecb(1, 16);
		e.acts.push_back({DTRACEACT_DIFEXPR, DTRACE_PROLE_ARG, DTRACE_PV_INT, n, 16, 8});
		b.add(e);
		auto r = enable(fd, b);
		check(r.rc < 0 && r.err == EINVAL, std::string("ENABLE record outside the firing: EINVAL (") +
							   r.en.dten_errmsg + ")");
	}
	{
		blob b;
		b.add(constant(1));
		ecb e = test_ecb(1, 16);
		e.acts.push_back({DTRACEACT_SPECULATE, DTRACE_PROLE_ARG, DTRACE_PV_INT, 0, 0, 0});
		b.add(e);
		auto r = enable(fd, b);
		check(r.rc < 0 && r.err == EINVAL,
		      std::string("ENABLE speculate() without its id: EINVAL (") + r.en.dten_errmsg +
			      ")");
	}
	{
		blob b;
		uint32_t n = b.add(constant(1));
		ecb e = test_ecb(1, 16);
		e.acts.push_back({DTRACEACT_SYSTEM, DTRACE_PROLE_ARG, DTRACE_PV_INT, n, 0, 0});
		b.add(e);
		auto r = enable(fd, b);
		check(r.rc < 0 && r.err == EPERM,
		      std::string("ENABLE system() without DTRACE_PROGF_DESTRUCTIVE: EPERM (") +
			      r.en.dten_errmsg + ")");
	}
	{
		blob b;
		b.add(constant(1));
		std::vector<uint8_t> bytes = b.bytes();
		bytes.resize(bytes.size() - 8); // cut the last section short
		dtrace_prog_hdr_t h;
		std::memcpy(&h, bytes.data(), sizeof(h));
		h.dtph_size = static_cast<uint32_t>(bytes.size());
		std::memcpy(bytes.data(), &h, sizeof(h));
		dtrace_enable_t en{};
		en.dten_prog = reinterpret_cast<uintptr_t>(bytes.data());
		en.dten_size = static_cast<uint32_t>(bytes.size());
		int rc = ioctl(fd, DTRACEIOC_ENABLE, &en);
		check(rc < 0 && errno == EINVAL, std::string("ENABLE truncated section: EINVAL (") +
							 en.dten_errmsg + ")");
	}
	{
		blob b;
		dtrace_prog_agg_t a{};
		a.dtpa_id = 1;
		a.dtpa_func = DTRACEAGG_LQUANTIZE;
		a.dtpa_nparams = 3;
		a.dtpa_params[0] = 0;
		a.dtpa_params[1] = 10;
		a.dtpa_params[2] = 0; // step 0
		a.dtpa_nwords = 12;
		b.add(a);
		auto r = enable(fd, b);
		check(r.rc < 0 && r.err == EINVAL, std::string("ENABLE lquantize step 0: EINVAL (") +
							   r.en.dten_errmsg + ")");
	}
	dtrace_status_t st{};
	check(ioctl(fd, DTRACEIOC_STATUS, &st) == 0 && st.dtst_activity == DTRACE_ACTIVITY_INACTIVE,
	      "rejected ENABLEs leave the state inactive");
	uint32_t cpu;
	check(ioctl(fd, DTRACEIOC_GO, &cpu) < 0 && errno == EINVAL, "GO with nothing enabled: EINVAL");
}

// The main program: records, predicate, getargval, execname, self->,
// count() and sum() aggregations, a fault and ERROR, BEGIN and END.
void check_program(int fd, const dtrace_conf_t &conf)
{
	blob b;
	b.hdr.dtph_flags |= DTRACE_PROGF_TIMESTAMP; // record timestamps: checked below
	const uint32_t selfvar = DIF_VAR_OTHER_UBASE;
	uint32_t pred7 = b.add(arg_equals(0, 7));
	uint32_t pred99 = b.add(arg_equals(0, 99));
	uint32_t arg0 = b.add(builtin(DIF_VAR_ARG0));
	uint32_t arg1 = b.add(builtin(DIF_VAR_ARG1));
	uint32_t arg7 = b.add(builtin(DIF_VAR_ARG7));
	uint32_t execname = b.add(builtin(DIF_VAR_EXECNAME, true));
	uint32_t deref = b.add(deref_arg(2));
	uint32_t selfadd = b.add(self_add_arg(selfvar, 0));
	std::vector<uint32_t> eargs;
	for (uint32_t i = 1; i <= 5; i++)
		eargs.push_back(b.add(builtin(DIF_VAR_ARG0 + i)));
	uint32_t cbegin = b.add(constant(0xbe61));
	uint32_t cend = b.add(constant(0xe4d));

	dtrace_prog_agg_t count{};
	count.dtpa_id = 1;
	count.dtpa_func = DTRACEAGG_COUNT;
	count.dtpa_keysize = 8;
	count.dtpa_nwords = 1;
	b.add(count);
	dtrace_prog_agg_t sum{};
	sum.dtpa_id = 2;
	sum.dtpa_func = DTRACEAGG_SUM;
	sum.dtpa_nwords = 1;
	b.add(sum);

	// 1: /arg0 == 7/ { trace(arg1); trace(arg7); trace(execname); }
	ecb a = test_ecb(1, 48);
	a.pred = pred7;
	a.acts = {{DTRACEACT_DIFEXPR, DTRACE_PROLE_ARG, DTRACE_PV_INT, arg1, 16, 8},
		  {DTRACEACT_DIFEXPR, DTRACE_PROLE_ARG, DTRACE_PV_INT, arg7, 24, 8},
		  {DTRACEACT_DIFEXPR, DTRACE_PROLE_ARG, DTRACE_PV_STRING, execname, 32, 16}};
	b.add(a);
	// 2: { @c[arg0] = count(); @s = sum(arg1); }
	ecb g = test_ecb(2, 16);
	g.acts = {{DTRACEAGG_COUNT, DTRACE_PROLE_KEY, DTRACE_PV_INT, arg0, 0, 8, 1},
		  {DTRACEAGG_COUNT, DTRACE_PROLE_VAL, DTRACE_PV_INT, 0, 0, 0, 1, 0, 0},
		  {DTRACEAGG_SUM, DTRACE_PROLE_VAL, DTRACE_PV_INT, arg1, 0, 0, 2}};
	b.add(g);
	// 3: /arg0 == 99/ { trace(*(int *)arg2); }
	ecb c = test_ecb(3, 24);
	c.pred = pred99;
	c.acts = {{DTRACEACT_DIFEXPR, DTRACE_PROLE_ARG, DTRACE_PV_INT, deref, 16, 4}};
	b.add(c);
	// 4: { trace(self->x += arg0); }
	ecb s = test_ecb(4, 24);
	s.acts = {{DTRACEACT_DIFEXPR, DTRACE_PROLE_ARG, DTRACE_PV_INT, selfadd, 16, 8}};
	b.add(s);
	// 5: dtrace:::ERROR { trace(arg1); ... trace(arg5); }
	ecb e;
	e.provider = "dtrace";
	e.name = "ERROR";
	e.size = 56;
	e.cookie = 5;
	for (uint32_t i = 0; i < 5; i++)
		e.acts.push_back({DTRACEACT_DIFEXPR, DTRACE_PROLE_ARG, DTRACE_PV_INT, eargs[i], 16 + 8 * i, 8});
	b.add(e);
	// 6, 7: BEGIN { trace(0xbe61); } END { trace(0xe4d); }
	ecb bg;
	bg.provider = "dtrace";
	bg.name = "BEGIN";
	bg.size = 24;
	bg.cookie = 6;
	bg.acts = {{DTRACEACT_DIFEXPR, DTRACE_PROLE_ARG, DTRACE_PV_INT, cbegin, 16, 8}};
	b.add(bg);
	ecb en = bg;
	en.name = "END";
	en.cookie = 7;
	en.acts[0].difo = cend;
	b.add(en);

	auto r = enable(fd, b);
	check(r.rc == 0 && r.en.dten_nprobes == 7 && r.en.dten_first_epid == 1,
	      "ENABLE the program: 7 EPIDs from 1", r.rc ? r.en.dten_errmsg : "");
	if (r.rc != 0)
		return;
	std::map<uint32_t, uint32_t> cookie; // epid -> ECB cookie
	for (uint32_t epid = 1; epid <= 7; epid++) {
		dtrace_eprobedesc_t d{};
		d.dtpe_epid = epid;
		if (ioctl(fd, DTRACEIOC_EPROBE, &d) == 0)
			cookie[epid] = d.dtpe_ecb;
	}
	check(cookie.size() == 7, "EPROBE maps every EPID to its ECB");
	char enabled[8] = {};
	int efd = open("/sys/kernel/debug/dt_test/enabled", O_RDONLY);
	check(efd >= 0 && read(efd, enabled, sizeof(enabled) - 1) > 0 && enabled[0] == '1',
	      "dt_test's enable hook ran");
	if (efd >= 0)
		close(efd);

	uint32_t gocpu = ~0u, stopcpu = ~0u;
	check(ioctl(fd, DTRACEIOC_GO, &gocpu) == 0 && gocpu < conf.dtc_ncpus, "GO: BEGIN fired on a CPU");
	check(ioctl(fd, DTRACEIOC_GO, &gocpu) < 0 && errno == EBUSY, "GO twice: EBUSY");
	check(fire(3, 7, 100) && fire(2, 5, 1) && fire(1, 99, 0, 0), "fired dt_test:::test 6 times");
	check(ioctl(fd, DTRACEIOC_STOP, &stopcpu) == 0 && stopcpu < conf.dtc_ncpus, "STOP: END fired");

	std::string err;
	uint64_t drops = 0;
	auto fs = drain(fd, conf, b.hdr.dtph_bufsize, &drops, &err);
	check(err.empty() && drops == 0, "BUFSNAP of every CPU", err);
	std::map<uint32_t, std::vector<const firing *>> by;
	for (const firing &f : fs)
		by[cookie[f.epid]].push_back(&f);

	check(by[6].size() == 1 && at<uint64_t>(by[6][0]->bytes, 16) == 0xbe61 &&
		      by[6][0]->cpu == gocpu,
	      "BEGIN recorded once, on GO's CPU");
	check(by[7].size() == 1 && at<uint64_t>(by[7][0]->bytes, 16) == 0xe4d, "END recorded once");
	bool recs = by[1].size() == 3;
	for (const firing *f : by[1])
		recs = recs && at<uint64_t>(f->bytes, 16) == 100 && at<uint64_t>(f->bytes, 24) == 1007 &&
		       std::string(reinterpret_cast<const char *>(f->bytes.data() + 32)) == "kmod_client";
	check(recs, "predicate arg0 == 7: 3 firings of arg1 = 100, arg7 = 1007 (getargval), execname");
	std::vector<uint64_t> selfv;
	for (const firing *f : by[4])
		selfv.push_back(at<uint64_t>(f->bytes, 16));
	std::sort(selfv.begin(), selfv.end());
	check(selfv == std::vector<uint64_t>{7, 14, 21, 26, 31, 130},
	      "self->x += arg0 across 6 firings: 7 14 21 26 31 130");
	check(by[3].empty(), "the faulting clause recorded nothing");
	bool errok = by[5].size() == 1;
	if (errok) {
		const auto &bb = by[5][0]->bytes;
		uint32_t cepid = 0;
		for (auto [ep, ck] : cookie)
			if (ck == 3)
				cepid = ep;
		errok = at<uint64_t>(bb, 16) == cepid && at<uint64_t>(bb, 24) == 1 &&
			at<uint64_t>(bb, 32) == 4 && at<uint64_t>(bb, 40) == DTRACEFLT_BADADDR &&
			at<uint64_t>(bb, 48) == 0;
		std::printf("# ERROR: epid %" PRIu64 " action %" PRIu64 " offset %" PRIu64
			    " fault %" PRIu64 " addr 0x%" PRIx64 "\n",
			    at<uint64_t>(bb, 16), at<uint64_t>(bb, 24), at<uint64_t>(bb, 32),
			    at<uint64_t>(bb, 40), at<uint64_t>(bb, 48));
	}
	check(errok, "*(int *)0: ERROR fired with (epid, action 1, offset 4, BADADDR, 0x0)");
	// ERROR fires inside the faulting firing with a later timestamp, so
	// only the other firings are in time order within a CPU's buffer.
	std::map<uint32_t, uint64_t> last;
	bool order = true;
	for (const firing &f : fs) {
		if (cookie[f.epid] == 5)
			continue;
		order = order && f.ts != 0 && f.ts >= last[f.cpu];
		last[f.cpu] = f.ts;
	}
	check(order, "DTRACE_PROGF_TIMESTAMP: every firing has its timestamp, never going back "
		     "within a CPU's buffer (ERROR aside)");

	dtrace_status_t st{};
	check(ioctl(fd, DTRACEIOC_STATUS, &st) == 0 && st.dtst_errors == 1 && st.dtst_dblerrors == 0 &&
		      st.dtst_activity == DTRACE_ACTIVITY_STOPPED && !st.dtst_exiting,
	      "STATUS: 1 error, stopped");

	auto ag = aggs(fd, conf, b.hdr.dtph_aggsize, &err);
	check(err.empty() && ag.size() == 4 && ag[{1, key64(7)}] == std::vector<int64_t>{3} &&
		      ag[{1, key64(5)}] == std::vector<int64_t>{2} &&
		      ag[{1, key64(99)}] == std::vector<int64_t>{1} &&
		      ag[{2, {}}] == std::vector<int64_t>{302},
	      "AGGSNAP: @c[7] = 3, @c[5] = 2, @c[99] = 1, @s = 302", err);
	auto again = aggs(fd, conf, b.hdr.dtph_aggsize, &err);
	check(err.empty() && again.empty(), "a second AGGSNAP has no new data (deltas)");
	check(ioctl(fd, DTRACEIOC_STOP, &stopcpu) < 0 && errno == EALREADY, "STOP twice: EALREADY");
}

// exit() in probe context and a full buffer's drops.
void check_exit_and_drops(const dtrace_conf_t &conf)
{
	int fd = open_dev();
	blob b;
	b.hdr.dtph_bufsize = 64; // room for 2 firings of 32 bytes
	uint32_t one = b.add(constant(3));
	ecb e = test_ecb(1, 32);
	e.acts = {{DTRACEACT_DIFEXPR, DTRACE_PROLE_ARG, DTRACE_PV_INT, one, 16, 8}};
	b.add(e);
	auto r = enable(fd, b);
	uint32_t cpu;
	check(r.rc == 0 && ioctl(fd, DTRACEIOC_GO, &cpu) == 0, "small buffer: ENABLE, GO", r.en.dten_errmsg);
	fire(10);
	uint64_t drops = 0;
	std::string err;
	auto fs = drain(fd, conf, 64, &drops, &err);
	check(err.empty() && fs.size() + drops == 10 && drops >= 8,
	      "64-byte buffer, 10 firings: " + std::to_string(fs.size()) + " kept, " +
		      std::to_string(drops) + " dropped");
	close(fd);

	fd = open_dev();
	blob x;
	uint32_t status = x.add(constant(3));
	ecb ex = test_ecb(1, 24);
	ex.acts = {{DTRACEACT_EXIT, DTRACE_PROLE_ARG, DTRACE_PV_INT, status, 16, 4}};
	x.add(ex);
	r = enable(fd, x);
	check(r.rc == 0 && ioctl(fd, DTRACEIOC_GO, &cpu) == 0, "exit(3): ENABLE, GO", r.en.dten_errmsg);
	fire(5);
	dtrace_status_t st{};
	check(ioctl(fd, DTRACEIOC_STATUS, &st) == 0 && st.dtst_exiting &&
		      st.dtst_activity == DTRACE_ACTIVITY_DRAINING,
	      "exit(): STATUS says exiting, draining");
	fs = drain(fd, conf, x.hdr.dtph_bufsize, nullptr, &err);
	check(fs.size() == 1 && at<uint32_t>(fs[0].bytes, 16) == 3,
	      "exit(3) recorded once; later firings do not run");
	close(fd);
}

int run()
{
	int fd = open_dev();
	dtrace_conf_t conf{};
	check_registry(fd, conf);
	check_rejects(fd);
	check_program(fd, conf);
	close(fd);
	check_exit_and_drops(conf);
	std::printf("kmod_client: %d passed, %d failed\n", passed, failed);
	return failed ? 1 : 0;
}

// Run argv as a command; its exit status. quiet: its stdout to /dev/null.
int run_cmd(char **argv, bool quiet = false)
{
	std::fflush(stdout);
	pid_t pid = fork();
	if (pid == 0) {
		if (quiet) {
			int null = open("/dev/null", O_WRONLY);
			if (null >= 0)
				dup2(null, 1);
		}
		execvp(argv[0], argv);
		_exit(127);
	}
	int st = 0;
	waitpid(pid, &st, 0);
	return WIFEXITED(st) ? WEXITSTATUS(st) : 128;
}

int hold(bool busy, char **argv)
{
	int fd = open_dev();
	if (busy) {
		blob b;
		b.add(test_ecb(1, 16));
		auto r = enable(fd, b);
		uint32_t cpu;
		if (r.rc != 0 || ioctl(fd, DTRACEIOC_GO, &cpu) != 0) {
			std::printf("enable failed: %s\n", r.en.dten_errmsg);
			return 2;
		}
	}
	int st = run_cmd(argv);
	std::printf("%s: command exited %d\n", busy ? "busy" : "open", st);
	close(fd);
	return 0;
}

// Enable, go, fire, and leave without STOP or close: the kernel cleans up.
int abandon()
{
	int fd = open_dev();
	blob b;
	uint32_t d = b.add(builtin(DIF_VAR_ARG0));
	ecb e = test_ecb(1, 24);
	e.acts = {{DTRACEACT_DIFEXPR, DTRACE_PROLE_ARG, DTRACE_PV_INT, d, 16, 8}};
	b.add(e);
	auto r = enable(fd, b);
	uint32_t cpu;
	if (r.rc != 0 || ioctl(fd, DTRACEIOC_GO, &cpu) != 0)
		return 2;
	fire(1000, 1);
	std::printf("abandon: tracing, exiting without STOP\n");
	std::fflush(stdout);
	_exit(0);
}

// The syscall provider (dtrace_syscall.ko): openat entry and return seen
// for a path this process opens.
int syscalls()
{
	int fd = open_dev();
	dtrace_conf_t conf{};
	ioctl(fd, DTRACEIOC_CONF, &conf);
	uint32_t n = 0;
	bool openat = false;
	dtrace_probedesc_t m{};
	for (m.dtpd_id = 1;; m.dtpd_id++) {
		std::strcpy(m.dtpd_provider, "syscall");
		m.dtpd_mod[0] = m.dtpd_func[0] = m.dtpd_name[0] = '\0';
		if (ioctl(fd, DTRACEIOC_PROBEMATCH, &m) != 0)
			break;
		n++;
		openat |= std::string(m.dtpd_mod) == "vmlinux" &&
			  std::string(m.dtpd_func) == "openat" && std::string(m.dtpd_name) == "entry";
	}
	check(n > 500 && openat, "syscall provider: " + std::to_string(n) +
					 " probes, syscall:vmlinux:openat:entry among them");

	blob b;
	uint32_t mine = b.add(var_equals(DIF_VAR_PID, static_cast<uint64_t>(getpid())));
	uint32_t path = b.add(copyinstr_arg(1));
	uint32_t arg0 = b.add(builtin(DIF_VAR_ARG0));
	uint32_t exec = b.add(builtin(DIF_VAR_EXECNAME, true));
	ecb entry;
	entry.provider = "syscall";
	entry.func = "openat";
	entry.name = "entry";
	entry.pred = mine;
	entry.size = 16 + 16 + 256;
	entry.cookie = 1;
	entry.acts = {{DTRACEACT_DIFEXPR, DTRACE_PROLE_ARG, DTRACE_PV_STRING, exec, 16, 16},
		      {DTRACEACT_DIFEXPR, DTRACE_PROLE_ARG, DTRACE_PV_STRING, path, 32, 256}};
	b.add(entry);
	ecb ret = entry;
	ret.name = "return";
	ret.size = 24;
	ret.cookie = 2;
	ret.acts = {{DTRACEACT_DIFEXPR, DTRACE_PROLE_ARG, DTRACE_PV_INT, arg0, 16, 8}};
	b.add(ret);
	auto r = enable(fd, b);
	uint32_t cpu;
	check(r.rc == 0 && r.en.dten_nprobes == 2 && ioctl(fd, DTRACEIOC_GO, &cpu) == 0,
	      "enable syscall::openat:entry and :return for this pid", r.en.dten_errmsg);
	const char *probe = "/run/dtrace-kmod-no-such-file";
	int tfd = open(probe, O_RDONLY);
	check(tfd < 0 && errno == ENOENT, "opened a missing file");
	check(ioctl(fd, DTRACEIOC_STOP, &cpu) == 0, "STOP");
	std::string err;
	auto fs = drain(fd, conf, b.hdr.dtph_bufsize, nullptr, &err);
	bool saw_entry = false, saw_return = false;
	for (const firing &f : fs) {
		dtrace_eprobedesc_t e{};
		e.dtpe_epid = f.epid;
		ioctl(fd, DTRACEIOC_EPROBE, &e);
		if (e.dtpe_ecb == 1) {
			std::string en(reinterpret_cast<const char *>(f.bytes.data() + 16));
			std::string p(reinterpret_cast<const char *>(f.bytes.data() + 32));
			std::printf("# openat entry: %s %s\n", en.c_str(), p.c_str());
			saw_entry |= en == "kmod_client" && p == probe;
		} else if (e.dtpe_ecb == 2) {
			auto rv = at<int64_t>(f.bytes, 16);
			std::printf("# openat return: %" PRId64 "\n", rv);
			saw_return |= rv == -ENOENT;
		}
	}
	check(err.empty() && saw_entry, "openat:entry recorded execname and copyinstr(arg1)", err);
	check(saw_return, "openat:return recorded -ENOENT");
	close(fd);

	// Every entry probe at once, counted by probe id, from every process.
	fd = open_dev();
	blob all;
	uint32_t pid = all.add(builtin(DIF_VAR_ID));
	dtrace_prog_agg_t cnt{};
	cnt.dtpa_id = 1;
	cnt.dtpa_func = DTRACEAGG_COUNT;
	cnt.dtpa_keysize = 8;
	cnt.dtpa_nwords = 1;
	all.add(cnt);
	ecb any;
	any.provider = "syscall";
	any.name = "entry";
	any.cookie = 1;
	any.acts = {{DTRACEAGG_COUNT, DTRACE_PROLE_KEY, DTRACE_PV_INT, pid, 0, 8, 1},
		    {DTRACEAGG_COUNT, DTRACE_PROLE_VAL, DTRACE_PV_INT, 0, 0, 0, 1, 0, 0}};
	all.add(any);
	r = enable(fd, all);
	check(r.rc == 0 && r.en.dten_nprobes == n / 2 && ioctl(fd, DTRACEIOC_GO, &cpu) == 0,
	      "enable syscall:::entry (" + std::to_string(r.en.dten_nprobes) + " probes)",
	      r.en.dten_errmsg);
	std::string a0 = "ls", a1 = "-l", a2 = "/";
	char *ls[] = {a0.data(), a1.data(), a2.data(), nullptr};
	run_cmd(ls, true);
	auto ag = aggs(fd, conf, all.hdr.dtph_aggsize, &err);
	int64_t total = 0;
	for (auto &[k, w] : ag)
		total += w.empty() ? 0 : w[0];
	check(err.empty() && ag.size() >= 5 && total >= 20,
	      "syscall:::entry counts: " + std::to_string(ag.size()) + " system calls, " +
		      std::to_string(total) + " calls");
	close(fd);
	std::printf("kmod_client: %d passed, %d failed\n", passed, failed);
	return failed ? 1 : 0;
}

// Torture: n times enable syscall:::entry with count(), trace, and close
// without STOP (teardown under load).
int churn(int n)
{
	for (int i = 0; i < n; i++) {
		int fd = open_dev();
		blob b;
		uint32_t id = b.add(builtin(DIF_VAR_ID));
		dtrace_prog_agg_t cnt{};
		cnt.dtpa_id = 1;
		cnt.dtpa_func = DTRACEAGG_COUNT;
		cnt.dtpa_keysize = 8;
		cnt.dtpa_nwords = 1;
		b.add(cnt);
		ecb any;
		any.provider = "syscall";
		any.cookie = 1;
		any.acts = {{DTRACEAGG_COUNT, DTRACE_PROLE_KEY, DTRACE_PV_INT, id, 0, 8, 1},
			    {DTRACEAGG_COUNT, DTRACE_PROLE_VAL, DTRACE_PV_INT, 0, 0, 0, 1, 0, 0}};
		b.add(any);
		auto r = enable(fd, b);
		uint32_t cpu;
		if (r.rc != 0 || ioctl(fd, DTRACEIOC_GO, &cpu) != 0) {
			std::printf("churn %d: %s\n", i, r.en.dten_errmsg);
			return 1;
		}
		usleep(20000);
		close(fd);
	}
	std::printf("churn: %d enable/trace/close cycles of syscall:::\n", n);
	return 0;
}

// The deadman (dtrace.ko's deadman_*_ms parameters, shortened here and
// restored after): of two consumers tracing dt_test:::test, the one that
// keeps calling STATUS stays ACTIVE; the one that stops is KILLED once
// probe context sees its deadman too far behind, records nothing more,
// and STOP refuses it (EINVAL), as illumos.
bool set_param(const char *name, const char *v)
{
	std::string path = std::string("/sys/module/dtrace/parameters/") + name;
	FILE *f = std::fopen(path.c_str(), "w");
	if (f == nullptr)
		return false;
	bool ok = std::fputs(v, f) >= 0;
	return std::fclose(f) == 0 && ok;
}

int deadman()
{
	bool params = set_param("deadman_interval_ms", "50") &&
		      set_param("deadman_timeout_ms", "1000") && set_param("deadman_user_ms", "500");
	check(params, "deadman: parameters shortened (50, 1000, 500 ms)");
	dtrace_conf_t conf{};
	int fds[2];
	for (int &fd : fds) {
		fd = open_dev();
		ioctl(fd, DTRACEIOC_CONF, &conf);
		blob b;
		uint32_t d = b.add(builtin(DIF_VAR_ARG0));
		ecb e = test_ecb(1, 24);
		e.acts = {{DTRACEACT_DIFEXPR, DTRACE_PROLE_ARG, DTRACE_PV_INT, d, 16, 8}};
		b.add(e);
		auto r = enable(fd, b);
		uint32_t cpu;
		check(r.rc == 0 && ioctl(fd, DTRACEIOC_GO, &cpu) == 0, "deadman: enable and GO",
		      r.en.dten_errmsg);
	}
	// 3 s: fds[0] asks for status every 100 ms, fds[1] never; the probe fires.
	for (int i = 0; i < 30; i++) {
		dtrace_status_t st{};
		ioctl(fds[0], DTRACEIOC_STATUS, &st);
		fire(10, 1);
		usleep(100000);
	}
	dtrace_status_t live{}, dead{};
	ioctl(fds[0], DTRACEIOC_STATUS, &live);
	ioctl(fds[1], DTRACEIOC_STATUS, &dead);
	check(live.dtst_activity == DTRACE_ACTIVITY_ACTIVE,
	      "deadman: the consumer calling STATUS is ACTIVE (" +
		      std::to_string(live.dtst_activity) + ")");
	check(dead.dtst_activity == DTRACE_ACTIVITY_KILLED,
	      "deadman: the silent consumer is KILLED (" + std::to_string(dead.dtst_activity) +
		      ")");
	// Nothing is recorded for a killed state: drain, fire, drain again.
	std::string err;
	uint64_t drops = 0;
	(void)drain(fds[1], conf, 4 << 20, &drops, &err);
	fire(10, 2);
	auto after = drain(fds[1], conf, 4 << 20, &drops, &err);
	check(err.empty() && after.empty(), "deadman: a killed state records nothing", err);
	uint32_t cpu;
	errno = 0;
	check(ioctl(fds[1], DTRACEIOC_STOP, &cpu) < 0 && errno == EINVAL,
	      "deadman: STOP of a killed state: EINVAL");
	check(ioctl(fds[0], DTRACEIOC_STOP, &cpu) == 0, "deadman: STOP of the live one");
	close(fds[0]);
	close(fds[1]);
	check(set_param("deadman_interval_ms", "1000") && set_param("deadman_timeout_ms", "10000") &&
		      set_param("deadman_user_ms", "30000"),
	      "deadman: parameters restored");
	std::printf("kmod_client: %d passed, %d failed\n", passed, failed);
	return failed ? 1 : 0;
}

// List every probe n times (PROBES), concurrently with churn.
int list(int n)
{
	size_t count = 0;
	for (int i = 0; i < n; i++) {
		int fd = open_dev();
		dtrace_probedesc_t p{};
		count = 0;
		for (p.dtpd_id = 1; ioctl(fd, DTRACEIOC_PROBES, &p) == 0; p.dtpd_id++)
			count++;
		close(fd);
	}
	std::printf("list: %d listings, %zu probes\n", n, count);
	return 0;
}

} // namespace

int main(int argc, char **argv)
{
	std::string cmd = argc > 1 ? argv[1] : "run";
	if (cmd == "run")
		return run();
	if ((cmd == "open" || cmd == "busy") && argc > 2)
		return hold(cmd == "busy", argv + 2);
	if (cmd == "abandon")
		return abandon();
	if (cmd == "syscall")
		return syscalls();
	if (cmd == "deadman")
		return deadman();
	if (cmd == "churn" && argc > 2)
		return churn(std::atoi(argv[2]));
	if (cmd == "list" && argc > 2)
		return list(std::atoi(argv[2]));
	std::fprintf(stderr, "usage: kmod_client run | open CMD... | busy CMD... | abandon | syscall | churn N | list N | deadman\n");
	return 2;
}
