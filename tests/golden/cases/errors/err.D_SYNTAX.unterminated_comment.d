/* SPDX-License-Identifier: MIT */
BEGIN
{
	trace(1);
}
/* never closed
