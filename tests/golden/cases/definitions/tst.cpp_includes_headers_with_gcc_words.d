/* SPDX-License-Identifier: MIT */
/* @@runtest-opts: -C -q */
/*
 * Headers written for GCC use its words whatever cpp defines: <stdio.h>
 * and <stdarg.h> name __builtin_va_list, <stddef.h> puts
 * __attribute__((...)) on max_align_t's members, the kernel's UAPI headers
 * spell signed as __signed__. In a header's declarations D reads the
 * spellings as C's words and passes over the attributes, so such headers
 * can be included; their types are usable.
 */
#include <stdio.h>
#include <stdarg.h>
#include <stddef.h>
#include <linux/types.h>

__s8 small;
va_list ap;

BEGIN
{
	small = -3;
	printf("__s8 %d, __u16 %d, max_align_t members %d\n", small,
	    sizeof (__u16), sizeof (max_align_t) >= 16);
	printf("va_list is opaque, %d bytes\n", sizeof (ap) > 0);
	this->fp = (FILE *)0;
	printf("FILE * %d\n", this->fp == NULL);
	exit(0);
}
