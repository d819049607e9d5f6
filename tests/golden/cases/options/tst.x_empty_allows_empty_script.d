/* SPDX-License-Identifier: MIT */
/* With -x empty an empty script compiles; it then enables nothing. */
/* @@runtest-opts: -x empty */
/* @@status: 1 */
