/* SPDX-License-Identifier: MIT */
BEGIN
{
	@a = count();
}

END
{
	@a = sum(1);
}
