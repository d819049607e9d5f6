/* SPDX-License-Identifier: MIT */
BEGIN
{
	a = 1;
	x = a + (a + (a + (a + (a + (a + (a + (a + (a + (a + (a + a))))))))));
}
