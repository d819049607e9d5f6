/* SPDX-License-Identifier: MIT */
/*
 * Aggregations not printed by printa() are one record each at exit: the
 * entries sorted as printa() sorts them, keys as an array, the value
 * under the function's name; the quantizations as the buckets that hold
 * data, each with its inclusive range. Then the "end" record.
 */
/* @@runtest-opts: -q */
BEGIN
{
	@c["a", 1] = count();
	@c["b", 2] = count();
	@c["b", 2] = count();
	@s = sum(-5);
	@s = sum(3);
	@mn = min(4);
	@mn = min(-7);
	@mx = max(4);
	@mx = max(9);
	@av = avg(2);
	@av = avg(5);
	@sd = stddev(2);
	@sd = stddev(4);
	@q = quantize(0);
	@q = quantize(1);
	@q = quantize(5);
	@q = quantize(5);
	@q = quantize(-3);
	@q = quantize(1000);
	@l = lquantize(-1, 0, 10, 2);
	@l = lquantize(3, 0, 10, 2);
	@l = lquantize(10, 0, 10, 2);
	@ll = llquantize(5, 10, 0, 2, 10);
	@ll = llquantize(55, 10, 0, 2, 10);
	@ll = llquantize(5000, 10, 0, 2, 10);
	exit(0);
}
