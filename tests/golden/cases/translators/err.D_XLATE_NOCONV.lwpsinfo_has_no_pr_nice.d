/* SPDX-License-Identifier: MIT */
/* The lwpsinfo_t translator leaves pr_nice out, as illumos does. */
BEGIN
{
	trace(curlwpsinfo->pr_nice);
}
