/* SPDX-License-Identifier: MIT */
/*
 * A script must hold at least one clause or declaration: one with only
 * comments (and pragmas) is refused at its end unless -x empty is set.
 */
#pragma D option quiet
