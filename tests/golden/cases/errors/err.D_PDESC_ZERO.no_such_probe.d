/* SPDX-License-Identifier: MIT */
dtrace:::NOSUCH
{
	trace(1);
}
