// SPDX-License-Identifier: GPL-2.0
/*
 * vm_emulate.c - compiles the shared DIF VM source core/dif/dif_emulate.c (MIT,
 * freestanding C, the same file libdtrace compiles) into dtrace.ko. Kbuild
 * puts core/dif on the include path (see Kbuild).
 */
#include "dif_emulate.c"
