// SPDX-License-Identifier: GPL-2.0
/*
 * bench: the workloads of make bench, pinned to one CPU.
 *
 *   bench spin CPU MS [-g CGROUP] [-w FILE VALUE]... [-m MODULE.ko PARAMS]
 *	Spin on CPU; after 50 ms of warm-up do the writes (and load the
 *	module) from that CPU, which starts the capping mechanism, and
 *	measure MS of wall time from just before. Prints the share of the
 *	CPU the spinner got.
 *   bench wake CPU MS [-g CGROUP] [-t TRACEFILE] [-n NAME]
 *	Sleep 1 ms in a loop for MS; count wakeups and measure how late
 *	each one is. Prints count, p50/p99/max latency and quantiles.
 *	With -t, reads the trace after the run and counts how many of the
 *	wakeups late by 1 ms or more ("spikes") an injection held up
 *	(kidled_inject_begin/end, or sched_switch to/from idle_inject/N).
 *   bench lock CPU MS -g CGROUP -h CGROUP [-c WCPU] [-n NAME]
 *	A lock holder (a process in the -h group, on CPU) takes a shared
 *	futex-based mutex for 500 us every 1 ms of its own run time; a
 *	waiter (in the -g group, on WCPU, default CPU) takes it every 1 ms
 *	of sleep for MS. Prints the waiter's wait for the lock: p50, p99,
 *	max, and how many waits were 1 ms or longer.
 *
 * Output lines start with "bench:" and hold key=value pairs.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <pthread.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <time.h>
#include <sys/wait.h>
#include <unistd.h>

#define MAX_WRITES	8
#define MAX_WAKES	200000
#define MAX_SPANS	100000
#define SPIKE_NS	1000000ULL

static unsigned long long clock_ns(clockid_t id)
{
	struct timespec ts;

	clock_gettime(id, &ts);
	return ts.tv_sec * 1000000000ULL + ts.tv_nsec;
}

static unsigned long long now_ns(void)
{
	return clock_ns(CLOCK_MONOTONIC);
}

static int write_file(const char *path, const char *val)
{
	int fd = open(path, O_WRONLY), ret;

	if (fd < 0) {
		perror(path);
		return -1;
	}
	ret = write(fd, val, strlen(val)) < 0 ? -1 : 0;
	if (ret)
		perror(path);
	close(fd);
	return ret;
}

static void pin(int cpu, const char *cg)
{
	char path[256], buf[32];
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	if (sched_setaffinity(0, sizeof(set), &set)) {
		perror("sched_setaffinity");
		exit(1);
	}
	if (!cg)
		return;
	snprintf(path, sizeof(path), "%s/cgroup.procs", cg);
	snprintf(buf, sizeof(buf), "%d", getpid());
	if (write_file(path, buf))
		exit(1);
}

static int load_module(const char *ko, const char *params)
{
	int fd = open(ko, O_RDONLY), ret;

	if (fd < 0) {
		perror(ko);
		return -1;
	}
	ret = syscall(SYS_finit_module, fd, params, 0);
	if (ret)
		perror("finit_module");
	close(fd);
	return ret;
}

static int spin(int cpu, unsigned long long ms, int argc, char **argv)
{
	const char *cg = NULL, *ko = NULL, *params = "", *w[MAX_WRITES][2];
	unsigned long long t0, c0, t, end;
	int i, nw = 0;

	for (i = 0; i < argc; i++) {
		if (!strcmp(argv[i], "-g") && i + 1 < argc) {
			cg = argv[++i];
		} else if (!strcmp(argv[i], "-w") && i + 2 < argc && nw < MAX_WRITES) {
			w[nw][0] = argv[++i];
			w[nw++][1] = argv[++i];
		} else if (!strcmp(argv[i], "-m") && i + 2 < argc) {
			ko = argv[++i];
			params = argv[++i];
		} else {
			fprintf(stderr, "bench spin: bad argument %s\n", argv[i]);
			return 2;
		}
	}
	pin(cpu, cg);
	for (t = now_ns(); now_ns() - t < 50000000ULL;)
		;
	/* the window starts with the mechanism: it may preempt us at once */
	t0 = now_ns();
	c0 = clock_ns(CLOCK_PROCESS_CPUTIME_ID);
	end = t0 + ms * 1000000ULL;
	for (i = 0; i < nw; i++)
		if (write_file(w[i][0], w[i][1]))
			return 1;
	if (ko && load_module(ko, params))
		return 1;
	while ((t = now_ns()) < end)
		;
	/*
	 * Over [t0, end]: when the capping mechanism took the CPU away just
	 * before the end, the time until it gave it back is not in the window.
	 */
	printf("bench: spin cpu=%d ms=%llu share=%.5f\n", cpu, ms,
	       (double)(clock_ns(CLOCK_PROCESS_CPUTIME_ID) - c0) / (end - t0));
	return 0;
}

struct span {
	unsigned long long a, b;
};

/*
 * Injections on @cpu from the trace file, in time order. A line reads
 * "TASK-PID [CPU] FLAGS TIMESTAMP: EVENT: FIELDS" (trace_clock mono).
 */
static int read_spans(const char *file, int cpu, struct span *s, int max)
{
	char line[512], cpustr[16], *p, *ev, *to;
	int n = 0, open_ = 0, begin, end;
	double ts;
	FILE *f = fopen(file, "r");

	if (!f)
		return -1;
	snprintf(cpustr, sizeof(cpustr), "[%03d]", cpu);
	while (fgets(line, sizeof(line), f) && n < max) {
		p = strstr(line, cpustr);
		ev = p ? strstr(p, ": ") : NULL;
		if (line[0] == '#' || !ev)
			continue;
		for (p = ev; p > line && p[-1] != ' '; p--)
			;
		if (sscanf(p, "%lf", &ts) != 1)
			continue;
		ev += 2;
		to = strstr(ev, "==>");
		begin = !strncmp(ev, "kidled_inject_begin:", 20) ||
			(!strncmp(ev, "sched_switch:", 13) && to &&
			 strstr(to, "next_comm=idle_inject/"));
		end = !strncmp(ev, "kidled_inject_end:", 18) ||
		      (!strncmp(ev, "sched_switch:", 13) && to &&
		       (p = strstr(ev, "prev_comm=idle_inject/")) && p < to);
		if (begin && !open_) {
			s[n].a = (unsigned long long)(ts * 1e9);
			open_ = 1;
		} else if (end && open_) {
			s[n++].b = (unsigned long long)(ts * 1e9);
			open_ = 0;
		}
	}
	fclose(f);
	return n;
}

/* the quantiles printed: every percent, then the tail */
static const double tail[] = { 99.5, 99.9, 99.95, 99.99, 100 };
#define NQ	(99 + 1 + (int)(sizeof(tail) / sizeof(tail[0])))

static double quantile(int i)
{
	return i < 100 ? i : tail[i - 100];
}

static int cmp_ull(const void *a, const void *b)
{
	unsigned long long x = *(const unsigned long long *)a;
	unsigned long long y = *(const unsigned long long *)b;

	return x < y ? -1 : x > y;
}

static int wake(int cpu, unsigned long long ms, int argc, char **argv)
{
	static unsigned long long start[MAX_WAKES], lat[MAX_WAKES];
	static unsigned long long sorted[MAX_WAKES];
	static struct span spans[MAX_SPANS];
	const char *cg = NULL, *trace = NULL, *name = "-";
	struct timespec req = { 0, 1000000 };
	unsigned long long t0, a, b, end, mid;
	long n = 0, i, spikes = 0, in_inj = 0;
	int nspans = -1, j = 0;

	for (i = 0; i < argc; i++) {
		if (!strcmp(argv[i], "-g") && i + 1 < argc)
			cg = argv[++i];
		else if (!strcmp(argv[i], "-t") && i + 1 < argc)
			trace = argv[++i];
		else if (!strcmp(argv[i], "-n") && i + 1 < argc)
			name = argv[++i];
		else
			return 2;
	}
	pin(cpu, cg);
	prctl(PR_SET_TIMERSLACK, 1UL);	/* wake on time, not 50 us late */
	t0 = now_ns();
	end = t0 + ms * 1000000ULL;
	for (a = t0; a < end && n < MAX_WAKES; a = b) {
		nanosleep(&req, NULL);
		b = now_ns();
		start[n] = a;
		lat[n++] = b - a > 1000000ULL ? b - a - 1000000ULL : 0;
	}
	if (!n)
		return 1;
	memcpy(sorted, lat, n * sizeof(lat[0]));
	qsort(sorted, n, sizeof(sorted[0]), cmp_ull);
	if (trace)
		nspans = read_spans(trace, cpu, spans, MAX_SPANS);
	for (i = 0; i < n; i++) {
		if (lat[i] < SPIKE_NS)
			continue;
		spikes++;
		if (nspans <= 0)
			continue;
		/*
		 * Caused by an injection if one was in progress halfway through
		 * the delay, i.e. it held the CPU well after the wakeup was due
		 * (an eager injection cut short at the wakeup does not count).
		 */
		mid = start[i] + 1000000ULL + lat[i] / 2;
		while (j < nspans && spans[j].b < mid)
			j++;
		if (j < nspans && spans[j].a <= mid)
			in_inj++;
	}
	printf("bench: wake name=%s cpu=%d ms=%llu count=%ld p50_us=%.1f p99_us=%.1f max_us=%.1f spikes=%ld",
	       name, cpu, ms, n, sorted[n / 2] / 1e3, sorted[n * 99 / 100] / 1e3,
	       sorted[n - 1] / 1e3, spikes);
	if (nspans >= 0)
		printf(" injections=%d spikes_in_injection=%ld", nspans, in_inj);
	printf("\nbench: cdf name=%s q=", name);
	for (i = 0; i < NQ; i++)
		printf("%s%g", i ? "," : "", quantile(i));
	printf(" us=");
	for (i = 0; i < NQ; i++) {
		long k = (long)(n * quantile(i) / 100);

		printf("%s%.1f", i ? "," : "", sorted[k < n ? k : n - 1] / 1e3);
	}
	printf("\n");
	return 0;
}

/* spin for @ns of this process's CPU time */
static void burn(unsigned long long ns)
{
	unsigned long long t = clock_ns(CLOCK_PROCESS_CPUTIME_ID);

	while (clock_ns(CLOCK_PROCESS_CPUTIME_ID) - t < ns)
		;
}

static int lock(int cpu, unsigned long long ms, int argc, char **argv)
{
	static unsigned long long wait[MAX_WAKES], sorted[MAX_WAKES];
	const char *cg = NULL, *hcg = NULL, *name = "-";
	struct timespec req = { 0, 1000000 };
	unsigned long long t, end;
	pthread_mutexattr_t attr;
	pthread_mutex_t *m;
	long n = 0, i, over = 0;
	int wcpu = cpu;
	pid_t holder;

	for (i = 0; i < argc; i++) {
		if (!strcmp(argv[i], "-g") && i + 1 < argc)
			cg = argv[++i];
		else if (!strcmp(argv[i], "-h") && i + 1 < argc)
			hcg = argv[++i];
		else if (!strcmp(argv[i], "-c") && i + 1 < argc)
			wcpu = atoi(argv[++i]);
		else if (!strcmp(argv[i], "-n") && i + 1 < argc)
			name = argv[++i];
		else
			return 2;
	}
	m = mmap(NULL, sizeof(*m), PROT_READ | PROT_WRITE,
		 MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (m == MAP_FAILED)
		return 1;
	pthread_mutexattr_init(&attr);
	pthread_mutexattr_setpshared(&attr, PTHREAD_PROCESS_SHARED);
	pthread_mutex_init(m, &attr);
	holder = fork();
	if (holder < 0)
		return 1;
	if (!holder) {
		pin(cpu, hcg);
		for (;;) {
			pthread_mutex_lock(m);
			burn(500000);
			pthread_mutex_unlock(m);
			burn(500000);
		}
	}
	pin(wcpu, cg);
	nanosleep(&req, NULL);
	prctl(PR_SET_TIMERSLACK, 1UL);
	end = now_ns() + ms * 1000000ULL;
	while (now_ns() < end && n < MAX_WAKES) {
		nanosleep(&req, NULL);
		t = now_ns();
		pthread_mutex_lock(m);
		wait[n] = now_ns() - t;
		pthread_mutex_unlock(m);
		if (wait[n++] >= SPIKE_NS)
			over++;
	}
	kill(holder, SIGKILL);
	waitpid(holder, NULL, 0);
	if (!n)
		return 1;
	memcpy(sorted, wait, n * sizeof(wait[0]));
	qsort(sorted, n, sizeof(sorted[0]), cmp_ull);
	printf("bench: lock name=%s cpu=%d wcpu=%d ms=%llu count=%ld p50_us=%.1f p99_us=%.1f max_us=%.1f over_1ms=%ld\n",
	       name, cpu, wcpu, ms, n, sorted[n / 2] / 1e3,
	       sorted[n * 99 / 100] / 1e3, sorted[n - 1] / 1e3, over);
	return 0;
}

int main(int argc, char **argv)
{
	if (argc < 4) {
		fprintf(stderr, "usage: bench spin|wake|lock CPU MS [options]\n");
		return 2;
	}
	if (!strcmp(argv[1], "spin"))
		return spin(atoi(argv[2]), strtoull(argv[3], NULL, 10), argc - 4, argv + 4);
	if (!strcmp(argv[1], "wake"))
		return wake(atoi(argv[2]), strtoull(argv[3], NULL, 10), argc - 4, argv + 4);
	if (!strcmp(argv[1], "lock"))
		return lock(atoi(argv[2]), strtoull(argv[3], NULL, 10), argc - 4, argv + 4);
	return 2;
}
