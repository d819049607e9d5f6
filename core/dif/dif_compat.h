/* SPDX-License-Identifier: MIT */
/*
 * dif_compat.h - the only headers the DIF VM sources may use.
 *
 * The VM (dif_validate.c, dif_emulate.c) is one freestanding C11 source
 * compiled into libdtrace and into dtrace.ko (docs/architecture.md §1):
 * no libc, no floating point, no recursion, no VLAs, no mutable globals.
 * In the kernel the fixed-width types come from <linux/types.h>; anywhere
 * else from the compiler's own freestanding <stdint.h>/<stddef.h>/<stdbool.h>
 * (the build compiles the VM once more with -ffreestanding -nostdinc to
 * prove it, see core/dif/CMakeLists.txt).
 */
#ifndef DTRACE_DIF_COMPAT_H
#define DTRACE_DIF_COMPAT_H

#ifdef __KERNEL__
#include <linux/stddef.h>
#include <linux/types.h>
#else
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#endif

#include <uapi/dtrace/dif.h> /* kmod/include is on the include path */

/*
 * 64-bit division. Every target we build for (x86-64, arm64) divides 64-bit
 * integers natively; a 32-bit kernel build would map these to div64_u64().
 */
#define DIF_UDIV64(a, b) ((a) / (b))
#define DIF_UREM64(a, b) ((a) % (b))

#endif /* DTRACE_DIF_COMPAT_H */
