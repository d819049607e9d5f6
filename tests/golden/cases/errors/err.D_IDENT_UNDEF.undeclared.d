/* SPDX-License-Identifier: MIT */

BEGIN
{
	trace(nosuchvar);
}
