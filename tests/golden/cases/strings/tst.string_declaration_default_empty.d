/* SPDX-License-Identifier: MIT */
/* A declared string global is the empty string until assigned. */
#pragma D option quiet

string s;

BEGIN
{
	printf("[%s] %d %d\n", s, s == "", strlen(s));
	s = "now";
	printf("[%s]\n", s);
	exit(0);
}
