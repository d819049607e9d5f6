/* SPDX-License-Identifier: MIT */
BEGIN
{
	this->a["key"] = 1;
	exit(0);
}
