/* SPDX-License-Identifier: MIT */
/* A D library for tst.x_libdir_adds_a_library_directory.d: one inline. */
inline int the_answer = 42;
