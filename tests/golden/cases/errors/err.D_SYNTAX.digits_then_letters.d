/* SPDX-License-Identifier: MIT */
/* An integer constant ends at its last digit: 1abc is 1 and then abc. */
int 1abc;
BEGIN
{
	exit(0);
}
