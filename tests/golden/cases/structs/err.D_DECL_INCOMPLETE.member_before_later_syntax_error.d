/* SPDX-License-Identifier: MIT */

/*
 * A declaration is acted on as soon as it is read: its error is the one
 * reported, not the syntax error further down the program.
 */
struct outer {
	struct not_yet_defined inner;
	int n;
};

BEGIN
/1 2/
{
	exit(0);
}
