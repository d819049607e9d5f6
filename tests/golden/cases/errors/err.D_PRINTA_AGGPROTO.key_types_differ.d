/* SPDX-License-Identifier: MIT */
/*
 * printa() of several aggregations prints one line per key, so their keys
 * must be of compatible types position by position: here the first key of
 * @hits is an integer and that of @names a string.
 */
BEGIN
{
	@hits[42] = count();
	@names["answer"] = count();
	printa("%d %@d %@d\n", @hits, @names);
}
