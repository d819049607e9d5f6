/* SPDX-License-Identifier: MIT */
/*
 * curcpu's cpu_chip and cpu_lgrp are the current CPU's package and NUMA
 * node, which illumos' chip and lgrp inlines name too: ids of a CPU this
 * machine has, so not -1.
 */
#pragma D option quiet

BEGIN
{
	printf("chip %s\n", curcpu->cpu_chip == chip && chip >= 0 ? "ok" : "wrong");
	printf("lgrp %s\n", curcpu->cpu_lgrp == lgrp && lgrp >= 0 ? "ok" : "wrong");
	exit(0);
}
