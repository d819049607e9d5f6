/* SPDX-License-Identifier: MIT */
/* On Linux the mutex subroutines take a struct mutex *; a string is not one. */
BEGIN
{
	n = mutex_owned("lock");
}
