/* SPDX-License-Identifier: MIT */
/* A variable keeps the type of its first assignment: a pointer takes no integer but 0. */
BEGIN
{
	this->p = curthread;
	this->p = 0;
	this->p = pid;
	exit(0);
}
