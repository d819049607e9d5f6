// SPDX-License-Identifier: GPL-2.0
/*
 * hello.ko: the VM tier's test module (tests/vm). Prints a line on load and
 * unload. With warn=1 its init hits a WARN(), with oops=1 it oopses (a NULL
 * write), so the harness's detection of kernel problems can be tested.
 */
#include <linux/init.h>
#include <linux/kernel.h>
#include <linux/module.h>
#include <linux/moduleparam.h>

static bool warn;
module_param(warn, bool, 0444);
MODULE_PARM_DESC(warn, "WARN() in module init");

static bool oops;
module_param(oops, bool, 0444);
MODULE_PARM_DESC(oops, "write through a NULL pointer in module init");

static int __init hello_init(void)
{
	pr_info("hello: loaded\n");
	WARN(warn, "hello: warning requested by warn=1\n");
	if (oops) {
		int *volatile p = NULL;

		*p = 1;
	}
	return 0;
}

static void __exit hello_exit(void)
{
	pr_info("hello: unloaded\n");
}

module_init(hello_init);
module_exit(hello_exit);

MODULE_DESCRIPTION("DTrace VM tier test module");
MODULE_LICENSE("GPL");
