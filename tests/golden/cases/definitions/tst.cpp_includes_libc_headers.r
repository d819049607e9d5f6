htons 0x3412
in_port_t 2, sockaddr_in 16, in6_addr 16
IPPROTO_TCP 6, IPPROTO_UDP 17
port 80

