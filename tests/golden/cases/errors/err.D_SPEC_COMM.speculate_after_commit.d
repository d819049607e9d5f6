/* SPDX-License-Identifier: MIT */
BEGIN
{
	commit(1);
	speculate(1);
}
