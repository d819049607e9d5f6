/* SPDX-License-Identifier: MIT */
BEGIN
{
	exit();
}
