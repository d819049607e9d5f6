#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# The tcp, udp and ip providers end to end on the bpf engine (host tier,
# root): dtrace -c runs net_workload.py, which makes loopback traffic of
# known shape over IPv4 and IPv6 and prints each socket's own view of it
# (getsockname/getpeername, bytes sent); what the probes saw must agree:
#   tcp  connect-request, connect-established, accept-established,
#        connect-refused, accept-refused: one each per connection, with
#        the segment's addresses, ports and flags and the connection's
#        (tcpsinfo_t) from the right side; send and receive: the payload
#        bytes each way; state-change: the handshake's transitions
#   udp  send and receive: one datagram each way, its bytes, ports and
#        addresses, and the socket's view (udpsinfo_t)
#   ip   send and receive of those datagrams on lo, with ipv4info_t or
#        ipv6info_t
# Then the Guide's example scripts for these providers (in our words)
# must compile and run.
#
# Usage: net_host_test.py DTRACE WORKLOAD [ENGINE]
# With ENGINE (kmod: the VM tier, tests/vm/kmod-providers-guest.sh),
# dtrace runs with -x engine=ENGINE: the same checks of the providers'
# kernel halves (plugins/{tcp,udp,ip}/kernel).
import os
import subprocess
import sys

SCRIPT = r"""
#pragma D option quiet
#pragma D option bufsize=4m
#pragma D option aggsize=4m
tcp:::connect-request, tcp:::connect-established, tcp:::connect-refused,
tcp:::accept-established, tcp:::accept-refused
{
	printf("T %s %d %s %d %s %d %x\n", probename, args[2]->ip_ver,
	    args[2]->ip_saddr, args[4]->tcp_sport, args[2]->ip_daddr,
	    args[4]->tcp_dport, args[4]->tcp_flags);
	printf("C %s %s %d %s %d %d\n", probename, args[3]->tcps_laddr,
	    args[3]->tcps_lport, args[3]->tcps_raddr, args[3]->tcps_rport,
	    args[3]->tcps_state);
}
tcp:::send, tcp:::receive
{
	@tcp[probename, args[2]->ip_saddr, args[4]->tcp_sport,
	    args[2]->ip_daddr, args[4]->tcp_dport] =
	    sum(args[2]->ip_plength - args[4]->tcp_offset);
}
tcp:::state-change
{
	printf("S %d %d %d %d\n", args[3]->tcps_lport, args[3]->tcps_rport,
	    args[5]->tcps_state, args[3]->tcps_state);
}
"""

NET_SCRIPT = r"""
udp:::send, udp:::receive
{
	@udp[probename, args[2]->ip_saddr, args[4]->udp_sport,
	    args[2]->ip_daddr, args[4]->udp_dport] = sum(args[4]->udp_length - 8);
	@udps[probename, args[3]->udps_laddr, args[3]->udps_lport,
	    args[3]->udps_raddr, args[3]->udps_rport] = count();
}
ip:::send, ip:::receive
/args[2]->ip_ver == 4 && args[4]->ipv4_protocol == 17/
{
	@ip[probename, args[3]->if_name, 4, args[4]->ipv4_saddr,
	    args[4]->ipv4_daddr] = sum(args[2]->ip_plength);
}
ip:::send, ip:::receive
/args[2]->ip_ver == 6 && args[5]->ipv6_nexthdr == 17/
{
	@ip[probename, args[3]->if_name, 6, args[5]->ipv6_saddr,
	    args[5]->ipv6_daddr] = sum(args[2]->ip_plength);
}
END
{
	printa("UB %s %s %d %s %d %@d\n", @udp);
	printa("US %s %s %d %s %d %@d\n", @udps);
	printa("IB %s %s %d %s %s %@d\n", @ip);
}
"""

TCP_END = r"""
END
{
	printa("TB %s %s %d %s %d %@d\n", @tcp);
}
"""

# The Guide's examples for these providers, in our words: each must
# compile, run over the workload and exit 0.
GUIDE = [
    # Who connects to us, by remote address.
    "tcp:::accept-established { @[args[3]->tcps_raddr] = count(); }",
    # Refused connections, by remote address and local port.
    "tcp:::accept-refused { @[args[2]->ip_daddr, args[4]->tcp_sport] = count(); }",
    # Payload bytes per remote address and local port, each way.
    "tcp:::send { @out[args[2]->ip_daddr, args[4]->tcp_sport] ="
    " sum(args[2]->ip_plength - args[4]->tcp_offset); }"
    " tcp:::receive { @in[args[2]->ip_saddr, args[4]->tcp_dport] ="
    " sum(args[2]->ip_plength - args[4]->tcp_offset); }",
    # Connection state changes, named.
    "tcp:::state-change { @[args[5]->tcps_state, args[3]->tcps_state] = count(); }",
]
NET_GUIDE = [
    # IP packets by host pair and version.
    "ip:::send, ip:::receive { @[args[2]->ip_saddr, args[2]->ip_daddr,"
    " args[2]->ip_ver] = count(); }",
    # IP payload bytes by interface.
    "ip:::send, ip:::receive { @[args[3]->if_name] = sum(args[2]->ip_plength); }",
    # UDP datagrams by local port.
    "udp:::send { @tx[args[3]->udps_lport] = count(); }"
    " udp:::receive { @rx[args[3]->udps_lport] = count(); }",
]

failures = []
ENGINE = []


def check(cond, what):
    if not cond:
        failures.append(what)


def run(dtrace, workload, args):
    return subprocess.run([dtrace] + ENGINE + args + ["-c", "python3 " + workload + " 0.3"],
                          capture_output=True, text=True, timeout=120)


def main():
    dtrace, workload = sys.argv[1], sys.argv[2]
    if len(sys.argv) > 3:
        ENGINE.extend(["-x", "engine=" + sys.argv[3]])
    if os.geteuid() != 0:
        print("SKIP: needs root (bpf)")
        return 0
    # The VM guest's /tmp is read-only: $TMPDIR, or /run there.
    tmp = os.environ.get("TMPDIR") or ("/tmp" if os.access("/tmp", os.W_OK) else "/run")
    with open(os.path.join(tmp, "dt-net-host-%d.d" % os.getpid()), "w") as f:
        f.write(SCRIPT + NET_SCRIPT + TCP_END)
        path = f.name
    try:
        r = run(dtrace, workload, ["-s", path])
    finally:
        os.unlink(path)
    if r.returncode != 0:
        print(r.stdout, r.stderr, sep="\n")
        print("FAIL: dtrace exited", r.returncode)
        return 1
    check(r.stderr.strip() == "", "stderr: " + r.stderr)
    lines = [l.split() for l in r.stdout.splitlines() if l.strip()]
    ev = [l for l in lines if l[0] in ("T", "C")]
    tb = {tuple(l[1:6]): int(l[6]) for l in lines if l[0] == "TB"}
    ub = {tuple(l[1:6]): int(l[6]) for l in lines if l[0] == "UB"}
    us = {tuple(l[1:6]): int(l[6]) for l in lines if l[0] == "US"}
    ib = {tuple(l[1:6]): int(l[6]) for l in lines if l[0] == "IB"}
    states = [tuple(int(x) for x in l[1:5]) for l in lines if l[0] == "S"]
    facts = [l for l in lines if l[0] in ("tcp", "udp")]
    check(len(facts) == 6, "the workload's six facts: %s" % facts)

    def events(kind, probe):
        return [tuple(l[2:]) for l in ev if l[0] == kind and l[1] == probe]

    for f in facts:
        fam = f[1]
        if f[0] == "tcp" and f[2] == "conn":
            cport, sport, caddr, saddr = f[3], f[4], f[5], f[6]
            cbytes, sbytes = int(f[7]), int(f[8])
            # The SYN leaves the client; the SYN-ACK reaches it; the ACK
            # reaches the server (T: ver, saddr, sport, daddr, dport, flags).
            want = {
                "connect-request": (fam, caddr, cport, saddr, sport, "2"),
                "connect-established": (fam, saddr, sport, caddr, cport, "12"),
                "accept-established": (fam, caddr, cport, saddr, sport, "10"),
            }
            for probe, t in want.items():
                check(events("T", probe).count(t) == 1,
                      "%s %s: %s in %s" % (probe, fam, t, events("T", probe)))
            # C: laddr, lport, raddr, rport, state (ESTABLISHED 1, SYN_SENT 2)
            cv = {
                "connect-request": (caddr, cport, saddr, sport, "2"),
                "connect-established": (caddr, cport, saddr, sport, "1"),
                "accept-established": (saddr, sport, caddr, cport, "1"),
            }
            for probe, c in cv.items():
                check(events("C", probe).count(c) == 1,
                      "%s %s tcpsinfo: %s in %s" % (probe, fam, c, events("C", probe)))
            for probe, key, n in (
                    ("send", (caddr, cport, saddr, sport), cbytes),
                    ("receive", (caddr, cport, saddr, sport), cbytes),
                    ("send", (saddr, sport, caddr, cport), sbytes),
                    ("receive", (saddr, sport, caddr, cport), sbytes)):
                got = tb.get((probe,) + key)
                check(got == n, "tcp:::%s %s bytes: %s, want %d" % (probe, key, got, n))
            # state-change: client SYN_SENT -> ESTABLISHED, server
            # LISTEN -> SYN_RECV -> ESTABLISHED (lport, rport, old, new).
            # (Linux 6.1 clones the listener into SYN_RECV before it
            # sets the peer: rport 0 there.)
            c, s = int(cport), int(sport)
            for t in ((c, s, 2, 1), (s, c, 3, 1), (c, s, 1, 4)):
                check(t in states, "state-change %s %s in %s" % (fam, t, states))
            check((s, c, 10, 3) in states or (s, 0, 10, 3) in states,
                  "state-change %s LISTEN -> SYN_RECV on %d in %s" % (fam, s, states))
        elif f[0] == "tcp" and f[2] == "refused":
            port = f[3]
            addr = "127.0.0.1" if fam == "4" else "::1"
            # The refused SYN's reply (RST|ACK 0x14) from the closed port,
            # and the client's socket seeing it.
            ar = [t for t in events("T", "accept-refused")
                  if t[0] == fam and t[2] == port and t[5] == "14"]
            check(len(ar) == 1 and ar[0][1] == addr and ar[0][3] == addr,
                  "accept-refused %s: %s" % (port, events("T", "accept-refused")))
            cr = [t for t in events("T", "connect-refused")
                  if t[0] == fam and t[2] == port and t[5] == "14"]
            check(len(cr) == 1, "connect-refused %s: %s" % (port, events("T", "connect-refused")))
            # (The v4 and v6 runs may be refused on the same port number.)
            crc = [c for c in events("C", "connect-refused")
                   if c[3] == port and c[0] == addr]
            check(len(crc) == 1 and crc[0][4] == "2",
                  "connect-refused tcpsinfo %s: %s" % (port, events("C", "connect-refused")))
        elif f[0] == "udp":
            sport, dport, saddr, daddr, n = f[3], f[4], f[5], f[6], int(f[7])
            for probe in ("send", "receive"):
                got = ub.get((probe, saddr, sport, daddr, dport))
                check(got == n, "udp:::%s %s bytes: %s, want %d" % (probe, f, got, n))
            check(us.get(("send", saddr, sport, daddr, dport)) == 1,
                  "udp:::send udpsinfo %s: %s" % (f, us))
            check(us.get(("receive", daddr, dport, saddr, sport)) == 1,
                  "udp:::receive udpsinfo %s: %s" % (f, us))
            for probe in ("send", "receive"):
                got = ib.get((probe, "lo", fam, saddr, daddr))
                check(got is not None and got >= n + 8,
                      "ip:::%s %s: %s, want >= %d" % (probe, f, got, n + 8))

    for prog in GUIDE + NET_GUIDE:
        g = run(dtrace, workload, ["-q", "-n", prog])
        check(g.returncode == 0 and "error" not in g.stderr,
              "Guide example %r: exit %d %s" % (prog, g.returncode, g.stderr))

    if failures:
        for f in failures:
            print("FAIL:", f)
        print(r.stdout)
        return 1
    print("PASS: tcp, udp and ip on %d facts, %d Guide examples%s" %
          (len(facts), len(GUIDE) + len(NET_GUIDE), " (" + " ".join(ENGINE) + ")" if ENGINE else ""))
    return 0


if __name__ == "__main__":
    sys.exit(main())
