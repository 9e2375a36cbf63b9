// SPDX-License-Identifier: GPL-2.0
/*
 * kidled-top: print, once per second, the target and the idle share each
 * CPU achieved in that second, from /proc/sys/kernel/kidled/cpu/N/stats.
 *   kidled-top SECONDS
 */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <sched.h>

#define MAX_CPUS 64

static unsigned long long now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000ULL + ts.tv_nsec;
}

static int read_stats(int cpu, unsigned long long *idle, unsigned long long *lazy)
{
	char path[96];
	unsigned long long busy, eager;
	FILE *f;
	int n;

	snprintf(path, sizeof(path), "/proc/sys/kernel/kidled/cpu/%d/stats", cpu);
	f = fopen(path, "r");
	if (!f)
		return -1;
	n = fscanf(f, "%llu %llu %llu %llu", idle, &busy, lazy, &eager);
	fclose(f);
	return n == 4 ? 0 : -1;
}

static int read_int(int cpu, const char *file)
{
	char path[96];
	int v = -1;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/sys/kernel/kidled/cpu/%d/%s", cpu, file);
	f = fopen(path, "r");
	if (!f)
		return -1;
	if (fscanf(f, "%d", &v) != 1)
		v = -1;
	fclose(f);
	return v;
}

int main(int argc, char **argv)
{
	unsigned long long idle[MAX_CPUS], lazy[MAX_CPUS], t, t0, start;
	int secs = argc > 1 ? atoi(argv[1]) : 10, ncpus = 0, cpu, s;
	struct timespec one = { 1, 0 };
	struct sched_param sp = { .sched_priority = 99 };

	/*
	 * Read on time: a fair reader on a capped CPU waits out lazy
	 * injection (as kidled_busy's reader, which runs at FIFO 99 too).
	 */
	sched_setscheduler(0, SCHED_FIFO, &sp);

	while (ncpus < MAX_CPUS && !read_stats(ncpus, &idle[ncpus], &lazy[ncpus]))
		ncpus++;
	printf("  time");
	for (cpu = 0; cpu < ncpus; cpu++)
		printf(" | cpu%d interval target achieved injected", cpu);
	printf("\n");
	start = t0 = now_ns();
	for (s = 0; s < secs; s++) {
		nanosleep(&one, NULL);
		t = now_ns();
		printf("%5.1fs", (t - start) / 1e9);
		for (cpu = 0; cpu < ncpus; cpu++) {
			unsigned long long i, l;

			read_stats(cpu, &i, &l);
			printf(" | %9dms %5d%% %7.1f%% %7.1f%%",
			       read_int(cpu, "interval"),
			       read_int(cpu, "min_idle_percent"),
			       100.0 * (i - idle[cpu]) / (t - t0),
			       100.0 * (l - lazy[cpu]) / (t - t0));
			idle[cpu] = i;
			lazy[cpu] = l;
		}
		printf("\n");
		fflush(stdout);
		t0 = t;
	}
	return 0;
}
