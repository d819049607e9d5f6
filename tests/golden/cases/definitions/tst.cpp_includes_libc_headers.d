/* SPDX-License-Identifier: MIT */
/* @@runtest-opts: -C -q */
/*
 * With -C a program may include the C library's headers: their typedefs,
 * structs and enumerators join the program, beside D's own definitions of
 * the same names (id_t, IPPROTO_TCP), which stay as they were. The
 * headers' inline functions are not D and are left out.
 */
#include <endian.h>
#include <netinet/in.h>

BEGIN
{
#if __BYTE_ORDER == __LITTLE_ENDIAN
	printf("htons 0x%x\n", htons(0x1234));
#else
	printf("htons 0x%x\n", htons(0x3412));
#endif
	printf("in_port_t %d, sockaddr_in %d, in6_addr %d\n", sizeof (in_port_t),
	    sizeof (struct sockaddr_in), sizeof (struct in6_addr));
	printf("IPPROTO_TCP %d, IPPROTO_UDP %d\n", IPPROTO_TCP, IPPROTO_UDP);
	this->sin = (struct sockaddr_in *)alloca(sizeof (struct sockaddr_in));
	this->sin->sin_port = htons(80);
	printf("port %d\n", ntohs(this->sin->sin_port));
	exit(0);
}
