#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Per-category conformance table for docs/conformance.md.

Runs Oracle's dtrace-utils unit tests (kept outside the project, in
../shared/conformance, with their own runner) against build/bin/dtrace, or reads
a JSON the runner wrote, and prints the table docs/conformance.md keeps: for
each category, the tests run, the tests a do-nothing dtrace already passes (the
runner's --floor file), how many of the others pass, and that share.

Tests whose expected text is Oracle's implementation rather than DTrace's
behaviour are listed with a reason in tests/conformance/oracle-specific.txt
(ids only: nothing of the suite is in this tree); they are counted apart.
So are the failing tests that no dtrace can pass here ("cannot pass here",
runner_cannot_pass()): found from the suite's own files (an expected-results
file flattened in the copy, unstable tests marked @@xfail, triggers the runner
builds without the suite Build's CFLAGS, test/utils helpers it does not
build), or listed with a reason in tests/conformance/not-on-linux.txt (tests
that need Solaris' kernel types). --apart lists both kinds with the reasons.

    tools/conformance.py --run [--dtrace build/bin/dtrace] [CATEGORY...]
    tools/conformance.py --json /tmp/all.json        # an earlier run
    tools/conformance.py --json host.json --vm-json vm.json   # + the VM tier's
    tools/conformance.py --json all.json --json profile-j1.json  # a later run wins

The VM tier (tools/vm/conformance.sh) runs, in the QEMU guest, the tests that
need what this machine's kernel lacks: kernel data symbols (kallsyms without
CONFIG_KALLSYMS_ALL) and fbt (no kprobes). --vm-tests lists them, as the
runner's own scan of each test sees them; --vm-json adds, for the categories
it has results for, the counts with the guest's outcomes in place of the
host's for the tests run there.
"""
import argparse
import json
import os
import re
import subprocess
import sys
import tempfile

TOP = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SUITE = os.path.join(os.path.dirname(TOP), "shared", "conformance")
SPECIFIC = os.path.join(TOP, "tests", "conformance", "oracle-specific.txt")
NOT_ON_LINUX = os.path.join(TOP, "tests", "conformance", "not-on-linux.txt")

# Provider categories: counted apart from the language categories, each with
# what this machine lacks for the tests of it that fail here (a server, a
# second host, XFS/NFS, lockdep, kprobes), or why it is not planned.
PROVIDER_CATEGORIES = {
    "fbtprovider": "fbt: kprobes, which this host refuses (VM tier)",
    "io": "io (#15): local2/nfs2 need XFS and NFS mounts",
    "ip": "ip (#15): the remote tests need ping and a second host",
    "udp": "udp (#15)",
    "sched": "sched (#15)",
    "lockstat": "lockstat (#15): acquire/release need lockdep",
    "sdt": "sdt (#15): Oracle's dt_test module and perf provider",
    "tcp": "tcp (#13): the local tests need a server on port 22, the remote ones a second host",
    "usdt": "USDT (#14): -m32 (no multilib here), a dtrace on PATH",
    "pid": "pid (#14)",
    "ustack": "ustack (#14): pid 0 samples need an idle CPU",
    "proc": "proc: Oracle's trigger programs and psinfo fields",
    "cpc": "cpc provider (hardware counters): not planned",
    "mib": "mib provider: not planned",
    "pcap": "pcap() action: not planned",
    "disasm": "Oracle's BPF disassembler output (-xdisasm)",
    "consumer": "Oracle's libdtrace C API",
}


def load_specific(path=SPECIFIC):
    """A list of test ids with reasons: {id: why}."""
    out = {}
    if not os.path.exists(path):
        return out
    with open(path) as f:
        for line in f:
            line = line.strip()
            if not line or line.startswith("#"):
                continue
            tid, _, why = line.partition(" ")
            out[tid] = why.strip()
    return out


def vm_tests(failed_in=None):
    """The ids of the tests that need kernel data symbols or fbt.

    From the runner's own reading of each test (oracle_suite.Test.scan():
    the providers a test probes, and whether its D source uses kernel data:
    a `symbol, curthread, stack(), mod()/sym()/func() ...). A shell script's
    backquotes are command substitutions, not kernel symbols: scripts are
    chosen only for the fbt provider. With failed_in (a host run's JSON),
    only the tests that did not pass there.
    """
    oracle_suite = suite_module()
    skip = set()
    if failed_in:
        with open(failed_in) as f:
            skip = {r["id"] for r in json.load(f)["results"] if r["outcome"] == "pass"}
    with tempfile.TemporaryDirectory(prefix="conformance.") as tmp:
        root = os.path.join(tmp, "src")
        os.makedirs(root)
        oracle_suite.extract(oracle_suite.DEFAULT_MIRROR, "devel", root)
        ids = []
        for t in oracle_suite.discover(root):
            if t.kind == "c" or t.id in skip:
                continue
            provs, kernel_data = t.scan()
            if provs & {"fbt", "rawfbt"} or (kernel_data and t.kind != "sh"):
                ids.append(t.id)
    return ids


def run_suite(dtrace, cats, jobs, build_cflags_too=False):
    """Runs the suite's runner; its JSON's path.

    build_cflags_too: the runner, imported in a child, with each trigger's
    CFLAGS from the suite's test/triggers/Build added to its TRIGGER_FLAGS
    (which lack the ustack triggers' -O0 -fno-omit-frame-pointer): how those
    tests run when their triggers are built as the suite builds them.
    """
    fd, path = tempfile.mkstemp(suffix=".json")
    os.close(fd)
    args = ["--dtrace", dtrace, "-j", str(jobs), "--json", path] + cats
    if build_cflags_too:
        code = ("import sys; sys.path.insert(0, sys.argv[1]); import oracle_suite as o\n"
                "for n, f in __import__('json').loads(sys.argv[2]).items():\n"
                "    o.TRIGGER_FLAGS[n] = o.TRIGGER_FLAGS.get(n, []) + f\n"
                "sys.argv = ['oracle_suite.py'] + sys.argv[3:]; sys.exit(o.main())")
        cmd = [sys.executable, "-c", code, SUITE, json.dumps(build_cflags())] + args
    else:
        cmd = [sys.executable, os.path.join(SUITE, "oracle_suite.py")] + args
    subprocess.run(cmd, check=False, stdout=subprocess.DEVNULL)
    return path


# A symbolic link flattened into a file: its text is the name it pointed to.
FLATTENED = re.compile(r"^[\w./-]+\.(r|p)\n?$")
# A workload program of test/utils run by a test (target=workload_user, ...).
UTILS_HELPER = re.compile(r"\b(workload_(?:user|kernel))\b")
# A trigger the test runs: @@trigger, or test/triggers/NAME in a script.
TRIGGER_USE = re.compile(r"\btriggers/([\w-]+)")
BUILD_CFLAGS = re.compile(r"^([\w-]+)_CFLAGS := (.*)$", re.M)
UNITTEST = os.path.join(SUITE, "dtrace-utils", "test", "unittest")


def broken_in_copy(tid):
    """Whether the suite copy lost one of the test's expected-results files.

    Some of the suite's .r (expected output) and .r.p (its post-processor)
    are symbolic links to another test's; the copy in ../shared holds them
    as plain files whose text is the link's target, so the runner compares
    against, or runs, a file name.
    """
    base = os.path.join(UNITTEST, os.path.splitext(tid)[0])
    for path in (base + ".r", base + ".x86_64.r", base + ".r.p"):
        try:
            with open(path) as f:
                text = f.read(256)
        except OSError:
            continue
        if FLATTENED.match(text) and not text.startswith("#!"):
            return True
    return False


def suite_module():
    """The runner (../shared/conformance/oracle_suite.py), imported."""
    sys.path.insert(0, SUITE)
    import oracle_suite  # pylint: disable=import-outside-toplevel

    return oracle_suite


def build_cflags():
    """Each trigger's own CFLAGS, from the suite's test/triggers/Build."""
    try:
        with open(os.path.join(SUITE, "dtrace-utils", "test", "triggers", "Build")) as f:
            text = f.read()
    except OSError:
        return {}
    return {name: flags.split() for name, flags in BUILD_CFLAGS.findall(text)}


def runner_cannot_pass(tid):
    """Why no dtrace can pass this test under the runner, or None.

    - the copy lost an expected-results file (broken_in_copy);
    - the test is tagged unstable and @@xfail: the runner, like the suite's
      runtest.sh, turns such a test's pass (XPASS) into a failure (XFAIL);
    - the runner builds the test's trigger without the CFLAGS that the
      suite's test/triggers/Build gives it (the ustack triggers' -O0
      -fno-omit-frame-pointer: built -O2, main becomes one jump);
    - the test runs a helper program of the suite's test/utils that the
      runner does not build (it builds only test/triggers).
    - the test needs what only Solaris has (tests/conformance/not-on-linux.txt,
      each with its reason).
    Counted apart ("cannot pass here"), and only when the test fails.
    """
    solaris = load_specific(NOT_ON_LINUX).get(tid)
    if solaris:
        return "not on Linux: " + solaris
    if broken_in_copy(tid):
        return "suite copy: an expected-results file is a flattened link"
    suite = suite_module()
    o = suite.Opts(os.path.join(SUITE, "dtrace-utils"), os.path.join(suite.SUITE, tid))
    if "unstable" in o.get("tags", accumulate=True).split() and o.has("xfail") and \
            not o.has("no-xfail"):
        return "tagged unstable and @@xfail: the runner counts its pass as a failure"
    try:
        with open(os.path.join(UNITTEST, tid), errors="replace") as f:
            text = f.read()
    except OSError:
        return None
    for trig in set(TRIGGER_USE.findall(text)) | {o.get("trigger")} - {""}:
        want = set(build_cflags().get(trig, []))
        if want - set(suite.TRIGGER_FLAGS.get(trig, [])):
            return (f"the runner builds its trigger {trig} without the suite Build's "
                    f"CFLAGS ({' '.join(sorted(want))})")
    for helper in UTILS_HELPER.findall(text):
        if not os.path.exists(os.path.join(SUITE, "dtrace-utils", "test", "utils", helper)):
            return f"needs test/utils/{helper}, which the runner does not build"
    return None


def table(results, floor, specific):
    cats = {}
    for r in results:
        c = cats.setdefault(r["category"], {"run": 0, "pass": 0, "floor": 0,
                                             "beyond": 0, "specific": 0, "copy": 0})
        if r["outcome"] == "skip":
            continue
        c["run"] += 1
        passed = r["outcome"] == "pass"
        c["pass"] += passed
        if r["id"] in floor:
            c["floor"] += 1
        elif r["id"] in specific and not passed:
            c["specific"] += 1
        elif not passed and runner_cannot_pass(r["id"]):
            c["copy"] += 1
        else:
            c["beyond"] += passed
    return cats


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--run", action="store_true", help="run the suite first")
    ap.add_argument("--dtrace", default=os.path.join(TOP, "build", "bin", "dtrace"))
    ap.add_argument("--build-cflags", action="store_true",
                    help="with --run: build each trigger with the CFLAGS the suite's "
                    "test/triggers/Build gives it too")
    ap.add_argument("--json", action="append",
                    help="a JSON written by oracle_suite.py --json; given again, a later "
                    "run's results replace an earlier one's for the tests it ran (e.g. a "
                    "-j 1 rerun of the categories whose tests sample the whole system)")
    ap.add_argument("--apart", action="store_true",
                    help="list the failing tests counted apart (Oracle-specific, runner) "
                    "with their reasons")
    ap.add_argument("--vm-json", help="the VM tier's JSON (tools/vm/conformance.sh)")
    ap.add_argument("--vm-only", action="store_true",
                    help="with --vm-json: only the rows of the categories the VM tier ran")
    ap.add_argument("--vm-tests", action="store_true",
                    help="list the tests that need kernel data symbols or fbt; run nothing")
    ap.add_argument("--failed-in", metavar="JSON",
                    help="with --vm-tests: only those that did not pass in this run")
    ap.add_argument("-j", "--jobs", type=int, default=2)
    ap.add_argument("categories", nargs="*")
    a = ap.parse_args()
    if a.vm_tests:
        print("\n".join(vm_tests(a.failed_in)))
        return 0
    if a.run:
        a.json = [run_suite(a.dtrace, a.categories, a.jobs, a.build_cflags)]
    if not a.json:
        ap.error("--run or --json")
    by_id = {}
    for path in a.json:
        with open(path) as f:
            by_id.update({r["id"]: r for r in json.load(f)["results"]})
    results = list(by_id.values())
    with open(os.path.join(SUITE, "trivial_floor.json")) as f:
        floor = {r["id"] for r in json.load(f)["results"] if r["outcome"] == "pass"}
    specific = load_specific()
    if a.apart:
        for r in sorted(results, key=lambda r: r["id"]):
            if r["outcome"] != "fail" or r["id"] in floor:
                continue
            why = specific.get(r["id"]) or runner_cannot_pass(r["id"])
            if why:
                kind = "Oracle-specific" if r["id"] in specific else "cannot pass here"
                print(f"{r['id']}\t{kind}\t{why}")
        return 0
    cats = table(results, floor, specific)
    vm_cats = {}
    if a.vm_json:
        with open(a.vm_json) as f:
            vm = {r["id"]: r for r in json.load(f)["results"] if r["outcome"] != "skip"}
        merged = [vm.get(r["id"], r) for r in results]
        vm_cats = {name: c for name, c in table(merged, floor, specific).items()
                   if any(r["category"] == name for r in vm.values())}

    vm_head = " VM tier: pass beyond | VM tier: share |" if vm_cats else ""
    print("| category | run | pass | do-nothing passes | Oracle-specific | cannot pass here | "
          "pass beyond | share |" + vm_head + " target |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|" + ("---:|---:|" if vm_cats else "") + "---|")
    tot = {"lang": [0, 0], "prov": [0, 0], "vmlang": [0, 0], "vmprov": [0, 0]}
    for name in sorted(cats):
        if a.vm_only and name not in vm_cats:
            continue
        c = cats[name]
        den = c["run"] - c["floor"] - c["specific"] - c["copy"]
        share = f"{100 * c['beyond'] / den:.0f}%" if den > 0 else "—"
        target = PROVIDER_CATEGORIES.get(name, "90%")
        key = "prov" if name in PROVIDER_CATEGORIES else "lang"
        tot[key][0] += c["beyond"]
        tot[key][1] += max(den, 0)
        vm_col = ""
        if vm_cats:
            v = vm_cats.get(name)
            if v:
                vden = v["run"] - v["floor"] - v["specific"] - v["copy"]
                vshare = f"{100 * v['beyond'] / vden:.0f}%" if vden > 0 else "—"
                vm_col = f" {v['beyond']} | {vshare} |"
                tot["vm" + key][0] += v["beyond"]
                tot["vm" + key][1] += max(vden, 0)
            else:
                vm_col = " | |"
                tot["vm" + key][0] += c["beyond"]
                tot["vm" + key][1] += max(den, 0)
        print(f"| {name} | {c['run']} | {c['pass']} | {c['floor']} | {c['specific']} | "
              f"{c['copy']} | {c['beyond']} | {share} |{vm_col} {target} |")
    for key, label in (("lang", "language categories"), ("prov", "provider categories")):
        b, d = tot[key]
        if d and a.vm_only:
            label += " (these rows)"
        if d:
            vm_col = ""
            if vm_cats:
                vb, vd = tot["vm" + key]
                vm_col = f" {vb} of {vd} | {100 * vb / vd:.0f}% |" if vd else " | |"
            print(f"| **{label}** | | | | | | {b} of {d} | {100 * b / d:.0f}% |{vm_col} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
