/* SPDX-License-Identifier: MIT */
struct in {
	int a;
};
struct out {
	int b;
};
struct in i;

BEGIN
{
	trace(xlate<struct out>(i).b);
}
