/* SPDX-License-Identifier: MIT */

/*
 * An inline with parameters (as io.d's fds[int fd]) is used like an array:
 * each use binds the parameters to its own arguments, evaluated once in
 * the caller's scope.
 */
#pragma D option quiet

inline int scaled[int x, int by] = x * by + 1;
inline string pick[int i] = i == 0 ? "zero" : i == 1 ? "one" : "many";

BEGIN
{
	n = 3;
	printf("%d %d %d\n", scaled[2, 10], scaled[n, n], scaled[scaled[1, 1], 2]);
	printf("%s %s %s\n", pick[0], pick[n - 2], pick[n]);
	exit(0);
}
