/* control: cgroup create/destroy on cpu0 for N s while a throttled hog runs on cpu1 */
#define _GNU_SOURCE
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

static void put(const char *p, const char *v)
{
	FILE *f = fopen(p, "w");

	if (!f || fputs(v, f) < 0 || fclose(f))
		perror(p);
}

static void pin(int c)
{
	cpu_set_t s;

	CPU_ZERO(&s);
	CPU_SET(c, &s);
	sched_setaffinity(0, sizeof(s), &s);
}

static double now(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec + t.tv_nsec / 1e9;
}

int main(int argc, char **argv)
{
	double secs = argc > 1 ? atof(argv[1]) : 30, end;
	long n = 0;
	char pid[32];
	pid_t hog;

	mkdir("/tmp/cg", 0755);
	if (mount("none", "/tmp/cg", "cgroup2", 0, NULL))
		perror("mount");
	put("/tmp/cg/cgroup.subtree_control", "+cpu");
	mkdir("/tmp/cg/capped", 0755);
	put("/tmp/cg/capped/cpu.max", "50000 100000");
	hog = fork();
	if (!hog) {
		pin(1);
		for (;;)
			;
	}
	snprintf(pid, sizeof(pid), "%d", hog);
	put("/tmp/cg/capped/cgroup.procs", pid);
	pin(0);
	end = now() + secs;
	while (now() < end) {
		if (mkdir("/tmp/cg/g", 0755) || rmdir("/tmp/cg/g")) {
			perror("churn");
			break;
		}
		n++;
	}
	kill(hog, SIGKILL);
	printf("churn: %ld cgroup create/destroy cycles in %.0f s\n", n, secs);
	return 0;
}
