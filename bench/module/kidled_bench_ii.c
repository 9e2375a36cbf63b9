// SPDX-License-Identifier: GPL-2.0-only
/*
 * kidled_bench_ii: drive the kernel's idle_inject framework (what
 * intel_powerclamp and the cpuidle cooling device use) at a fixed duty
 * cycle, so that make bench can compare it with kidled on the same
 * workloads. Loading starts injection, unloading stops it.
 *
 *   insmod kidled_bench_ii.ko cpus=1 idle_us=50000 run_us=50000
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/cpumask.h>
#include <linux/idle_inject.h>
#include <linux/module.h>
#include <linux/slab.h>

static char *cpus = "1";
module_param(cpus, charp, 0444);
MODULE_PARM_DESC(cpus, "CPUs to inject idle on (cpulist, default 1)");

static unsigned int idle_us = 50000;
module_param(idle_us, uint, 0444);
MODULE_PARM_DESC(idle_us, "idle time per period in microseconds");

static unsigned int run_us = 50000;
module_param(run_us, uint, 0444);
MODULE_PARM_DESC(run_us, "run time per period in microseconds");

static struct idle_inject_device *ii_dev;

static int __init kidled_bench_ii_init(void)
{
	cpumask_var_t mask;
	int ret;

	if (!idle_us || !run_us) {
		pr_err("idle_us and run_us must both be set\n");
		return -EINVAL;
	}
	if (!zalloc_cpumask_var(&mask, GFP_KERNEL))
		return -ENOMEM;
	ret = cpulist_parse(cpus, mask);
	if (!ret && (cpumask_empty(mask) || !cpumask_subset(mask, cpu_online_mask)))
		ret = -EINVAL;
	if (ret) {
		pr_err("bad cpus '%s'\n", cpus);
		goto out;
	}
	ii_dev = idle_inject_register(mask);
	if (!ii_dev) {
		ret = -ENOMEM;
		goto out;
	}
	idle_inject_set_duration(ii_dev, run_us, idle_us);
	ret = idle_inject_start(ii_dev);
	if (ret) {
		idle_inject_unregister(ii_dev);
		goto out;
	}
	pr_info("injecting %u us idle every %u us on CPUs %*pbl\n", idle_us,
		idle_us + run_us, cpumask_pr_args(mask));
out:
	free_cpumask_var(mask);
	return ret;
}

static void __exit kidled_bench_ii_exit(void)
{
	idle_inject_unregister(ii_dev);	/* stops injection first */
}

module_init(kidled_bench_ii_init);
module_exit(kidled_bench_ii_exit);
MODULE_DESCRIPTION("Fixed duty-cycle idle_inject user for kidled's benchmark");
MODULE_LICENSE("GPL");
MODULE_IMPORT_NS(IDLE_INJECT);
