// SPDX-License-Identifier: GPL-2.0
/*
 * timerlat CPU USEC N: a control for timer lateness in the guest. Pinned to
 * CPU at SCHED_FIFO 50 (kidled's priority), sleep USEC microseconds N times
 * and print how late each wakeup was (p50, p90, p99, max, in us). Run it with
 * kidled off to see what the guest's timers do under the QEMU mode in use.
 */
#define _GNU_SOURCE
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static int cmp(const void *a, const void *b)
{
	long x = *(const long *)a, y = *(const long *)b;

	return x < y ? -1 : x > y;
}

static long long ns(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec * 1000000000LL + t.tv_nsec;
}

int main(int argc, char **argv)
{
	int cpu = argc > 1 ? atoi(argv[1]) : 0;
	long us = argc > 2 ? atol(argv[2]) : 2500;
	int n = argc > 3 ? atoi(argv[3]) : 400, i;
	struct sched_param sp = { .sched_priority = 50 };
	struct timespec d = { us / 1000000, us % 1000000 * 1000 };
	long *late = calloc(n, sizeof(*late));
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	if (!late || sched_setaffinity(0, sizeof(set), &set) ||
	    sched_setscheduler(0, SCHED_FIFO, &sp)) {
		perror("timerlat");
		return 1;
	}
	for (i = 0; i < n; i++) {
		long long t0 = ns();

		nanosleep(&d, NULL);
		late[i] = (ns() - t0) / 1000 - us;
	}
	qsort(late, n, sizeof(*late), cmp);
	printf("timerlat cpu%d %ldus x%d: late p50 %ld p90 %ld p99 %ld max %ld us\n",
	       cpu, us, n, late[n / 2], late[n * 9 / 10], late[n * 99 / 100], late[n - 1]);
	return 0;
}
