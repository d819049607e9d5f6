/* SPDX-License-Identifier: MIT */
/*
 * Integer keys sort as unsigned values and print as signed ones
 * (illumos tst.signedkeys.d); char and short keys wrap when sorted.
 */
#pragma D option quiet
#pragma D option aggsortkey

BEGIN
{
	@i8[(char)-2] = sum(-2);
	@i8[(char)-1] = sum(-1);
	@i8[(char)0] = sum(0);
	@i8[(char)1] = sum(1);
	@i8[(char)2] = sum(2);
	@i32[-2] = sum(-2);
	@i32[-1] = sum(-1);
	@i32[0] = sum(0);
	@i32[1] = sum(1);
	@i32[2] = sum(2);
	@i64[(long long)-2] = sum(-2);
	@i64[(long long)-1] = sum(-1);
	@i64[(long long)0] = sum(0);
	@i64[(long long)1] = sum(1);
	@i64[(long long)2] = sum(2);
	exit(0);
}
