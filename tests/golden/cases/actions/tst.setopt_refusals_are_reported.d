/* SPDX-License-Identifier: MIT */
/*
 * setopt() takes effect when its record is consumed. An unknown option, a
 * value the option does not take, and an option that only matters before
 * tracing starts are each reported as an error of the enabled probe, and
 * tracing goes on.
 */
#pragma D option quiet

BEGIN
{
	setopt("nosuchoption");
	setopt("quiet", "perhaps");
	setopt("bufsize", "8m");
	setopt("aggsortrev");
	printf("still tracing\n");
	exit(0);
}
