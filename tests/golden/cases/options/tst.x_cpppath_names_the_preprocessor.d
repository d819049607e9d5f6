/* SPDX-License-Identifier: MIT */
/* -x cpppath=PATH runs PATH as the preprocessor of -C. */
/* @@runtest-opts: -C -x cpppath=/usr/bin/cpp */
#pragma D option quiet

#define GREETING "preprocessed"

BEGIN
{
	printf("%s\n", GREETING);
	exit(0);
}
