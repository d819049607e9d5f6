// SPDX-License-Identifier: GPL-2.0
/*
 * vm_validate.c - compiles the shared DIF VM source core/dif/dif_validate.c (MIT,
 * freestanding C, the same file libdtrace compiles) into dtrace.ko. Kbuild
 * puts core/dif on the include path (see Kbuild).
 */
#include "dif_validate.c"
