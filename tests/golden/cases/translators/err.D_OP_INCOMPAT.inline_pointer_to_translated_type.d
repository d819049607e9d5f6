/* SPDX-License-Identifier: MIT */
/*
 * An inline's value must be of its declared type: xlate<psinfo_t *>
 * gives a psinfo_t *, which no struct file * inline takes.
 */
inline psinfo_t *ok = xlate<psinfo_t *>(curthread);
inline struct file *wrong = xlate<psinfo_t *>(curthread);

BEGIN
{
	exit(0);
}
