/* SPDX-License-Identifier: MIT */
/* link_ntop(): 6 bytes of an Ethernet address, 20 of an InfiniBand one, in hex. */
#pragma D option quiet

BEGIN
{
	mac = (uint8_t *)alloca(20);
	mac[0] = 0x52;
	mac[1] = 0x54;
	mac[2] = 0x00;
	mac[3] = 0xab;
	mac[4] = 0x0c;
	mac[5] = 0xff;
	printf("%s\n", link_ntop(ARPHRD_ETHER, mac));
	mac[19] = 0x7e;
	t = ARPHRD_INFINIBAND;
	printf("%s\n", link_ntop(t, mac));
	exit(0);
}
