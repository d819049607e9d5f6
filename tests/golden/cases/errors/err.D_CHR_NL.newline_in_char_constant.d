/* SPDX-License-Identifier: MIT */
BEGIN
{
	trace('a
	);
}
