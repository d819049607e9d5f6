/* SPDX-License-Identifier: MIT */
/* A struct tag gets one body; a second is refused at its opening brace. */
struct point { int x; };
struct point
{
	int y;
};
