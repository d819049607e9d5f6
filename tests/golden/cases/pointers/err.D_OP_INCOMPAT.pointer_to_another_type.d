/* SPDX-License-Identifier: MIT */
/*
 * A pointer takes a pointer to the same type, to void, or from void *,
 * never a pointer to another type: a struct file * is no struct
 * task_struct *.
 */
BEGIN
{
	this->f = (struct file *)0;
	this->f = (void *)0;
	this->v = (void *)0;
	this->v = curthread;
	this->f = curthread;
	exit(0);
}
