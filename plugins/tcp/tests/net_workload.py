#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# Loopback traffic of known shape for the tcp, udp and ip provider tests
# (net_host_test.py), printing each socket's own view of it, one line per
# fact:
#   tcp <fam> conn <cport> <sport> <caddr> <saddr> <c_sent> <s_sent>
#       a connection from the client's port to the server's; the bytes
#       each side sent (the other received them all)
#   tcp <fam> refused <port>    a connect() refused (nothing listened)
#   udp <fam> dgram <sport> <dport> <saddr> <daddr> <bytes>
#       one datagram, as the sender's getsockname() and its destination
# <fam> is 4 or 6. Ports and addresses come from getsockname() and
# getpeername(), not from what was asked.
import socket
import sys
import time

LOOP = {4: ("127.0.0.1", socket.AF_INET), 6: ("::1", socket.AF_INET6)}


def out(*words):
    print(" ".join(str(w) for w in words), flush=True)


def tcp_conn(fam, c_bytes, s_bytes):
    addr, af = LOOP[fam]
    ls = socket.socket(af, socket.SOCK_STREAM)
    ls.bind((addr, 0))
    ls.listen(1)
    c = socket.socket(af, socket.SOCK_STREAM)
    c.connect(ls.getsockname()[:2])
    s, _ = ls.accept()
    c.sendall(b"c" * c_bytes)
    got = 0
    while got < c_bytes:
        got += len(s.recv(65536))
    s.sendall(b"s" * s_bytes)
    got = 0
    while got < s_bytes:
        got += len(c.recv(65536))
    cl, sl = c.getsockname(), s.getsockname()
    assert c.getpeername()[:2] == sl[:2] and s.getpeername()[:2] == cl[:2]
    out("tcp", fam, "conn", cl[1], sl[1], cl[0], sl[0], c_bytes, s_bytes)
    c.close()
    s.close()
    ls.close()


def tcp_refused(fam):
    addr, af = LOOP[fam]
    ls = socket.socket(af, socket.SOCK_STREAM)
    ls.bind((addr, 0))
    port = ls.getsockname()[1]
    ls.close()  # bound, never listening: the port is closed
    c = socket.socket(af, socket.SOCK_STREAM)
    try:
        c.connect((addr, port))
    except ConnectionRefusedError:
        out("tcp", fam, "refused", port)
    c.close()


def udp_dgram(fam, nbytes):
    addr, af = LOOP[fam]
    r = socket.socket(af, socket.SOCK_DGRAM)
    r.bind((addr, 0))
    s = socket.socket(af, socket.SOCK_DGRAM)
    s.bind((addr, 0))
    s.sendto(b"u" * nbytes, r.getsockname())
    data, peer = r.recvfrom(65536)
    assert len(data) == nbytes and peer[1] == s.getsockname()[1]
    sl, rl = s.getsockname(), r.getsockname()
    out("udp", fam, "dgram", sl[1], rl[1], sl[0], rl[0], nbytes)
    s.close()
    r.close()


def main():
    time.sleep(float(sys.argv[1]) if len(sys.argv) > 1 else 0)
    for fam in (4, 6):
        tcp_conn(fam, 1000 + fam, 3000 + fam)
        tcp_refused(fam)
        udp_dgram(fam, 100 + fam)
    time.sleep(0.2)  # the last segments (FIN, ACK) leave before exit


if __name__ == "__main__":
    main()
