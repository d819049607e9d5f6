/* SPDX-License-Identifier: MIT */
/* bcopy()'s source is any readable memory: a string converts to void *. */
#pragma D option quiet

BEGIN
{
	buf = (char *)alloca(8);
	bcopy("tracing", buf, 8);
	printf("%s\n", stringof(buf));
	bcopy(probename, buf, 3);
	printf("%s\n", stringof(buf));
	exit(0);
}
