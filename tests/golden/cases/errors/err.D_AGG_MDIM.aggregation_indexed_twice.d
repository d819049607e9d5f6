/* SPDX-License-Identifier: MIT */
/* An aggregation takes one key list; [a][b] is not a second dimension. */
BEGIN
{
	@calls["read"][1] = count();
}
