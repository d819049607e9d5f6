/* SPDX-License-Identifier: MIT */
BEGIN
{
	setopt(1);
}
