/* SPDX-License-Identifier: MIT */
/* index() takes two or three arguments. */
BEGIN
{
	n = index("abc", "b", 0, 1);
}
