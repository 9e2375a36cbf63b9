// SPDX-License-Identifier: GPL-2.0-only
/*
 * pingpong: two processes pinned to one CPU pass a byte back and forth
 * through two pipes; every round trip is two wakeups, two sleeps and two
 * context switches, i.e. two enqueues and two dequeues. Prints the guest
 * time per round trip (under QEMU -icount, guest time is instructions).
 *   pingpong CPU ROUNDS [CGROUP_DIR]
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static void pin_and_join(int cpu, const char *cg)
{
	cpu_set_t set;
	char buf[32], path[256];
	int fd;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	sched_setaffinity(0, sizeof(set), &set);
	if (!cg)
		return;
	snprintf(path, sizeof(path), "%s/cgroup.procs", cg);
	fd = open(path, O_WRONLY);
	snprintf(buf, sizeof(buf), "%d", getpid());
	if (fd < 0 || write(fd, buf, strlen(buf)) < 0) {
		perror(path);
		exit(1);
	}
	close(fd);
}

int main(int argc, char **argv)
{
	int ab[2], ba[2], cpu, i;
	long rounds;
	struct timespec t0, t1;
	char c = 0;
	pid_t pid;

	if (argc < 3) {
		fprintf(stderr, "usage: pingpong CPU ROUNDS [CGROUP_DIR]\n");
		return 2;
	}
	cpu = atoi(argv[1]);
	rounds = atol(argv[2]);
	if (pipe(ab) || pipe(ba))
		return 1;
	pin_and_join(cpu, argc > 3 ? argv[3] : NULL);
	pid = fork();
	if (!pid) {
		for (i = 0; i < rounds; i++)
			if (read(ab[0], &c, 1) != 1 || write(ba[1], &c, 1) != 1)
				_exit(1);
		_exit(0);
	}
	clock_gettime(CLOCK_MONOTONIC, &t0);
	for (i = 0; i < rounds; i++)
		if (write(ab[1], &c, 1) != 1 || read(ba[0], &c, 1) != 1)
			return 1;
	clock_gettime(CLOCK_MONOTONIC, &t1);
	waitpid(pid, NULL, 0);
	printf("pingpong: %ld round trips, %.1f ns each\n", rounds,
	       ((t1.tv_sec - t0.tv_sec) * 1e9 + (t1.tv_nsec - t0.tv_nsec)) / rounds);
	return 0;
}
