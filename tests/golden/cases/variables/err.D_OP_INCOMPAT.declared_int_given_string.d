/* SPDX-License-Identifier: MIT */
/* A declared clause-local keeps its declared type. */
this int n;

BEGIN
{
	this->n = "text";
	exit(0);
}
