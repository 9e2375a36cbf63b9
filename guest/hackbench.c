// SPDX-License-Identifier: GPL-2.0-only
/*
 * hackbench: the scheduler's messaging benchmark, small. GROUPS groups of
 * 10 senders and 10 receivers, unpinned (wakeups cross CPUs); every sender
 * writes LOOPS rounds of one 100-byte message to each receiver of its
 * group through the receiver's pipe, so tasks block and wake all the time.
 * With CGROUP_DIR, each group runs in its own child group hbN of it (the
 * cpu controller enabled below CGROUP_DIR for the run, the parent's
 * cpu.power_interactive copied when it has one): the enqueues and
 * dequeues then go through two levels of group entities. Prints the guest time
 * from the start signal until every task has exited, and the tasks' CPU
 * time per context switch (under QEMU -icount, guest time is instructions;
 * the elapsed time also depends on where the tasks land, the CPU time per
 * switch much less).
 *   hackbench GROUPS LOOPS [CGROUP_DIR]
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define FDS	10
#define MSG	100

static int start[2];

static void die(const char *what)
{
	perror(what);
	exit(1);
}

static void put(const char *path, const char *val)
{
	int fd = open(path, O_WRONLY);

	if (fd < 0 || write(fd, val, strlen(val)) < 0)
		die(path);
	close(fd);
}

/* the group directory for group @g, created once */
static void group_dir(const char *parent, int g, char *dir, size_t len)
{
	char path[340], val[16];
	ssize_t n;
	int fd;

	snprintf(dir, len, "%s/hb%d", parent, g);
	if (mkdir(dir, 0755) && errno != EEXIST)
		die(dir);
	snprintf(path, sizeof(path), "%s/cpu.power_interactive", parent);
	fd = open(path, O_RDONLY);
	if (fd < 0)
		return;
	n = read(fd, val, sizeof(val) - 1);
	close(fd);
	if (n <= 0)
		return;
	val[n] = 0;
	snprintf(path, sizeof(path), "%s/cpu.power_interactive", dir);
	put(path, val);
}

static void wait_start(void)
{
	char c;

	if (read(start[0], &c, 1) < 0)
		die("start");
}

static void child(const char *dir, void (*fn)(int *, int), int *fds, int arg)
{
	char path[320], pid[16];

	if (dir) {
		snprintf(path, sizeof(path), "%s/cgroup.procs", dir);
		snprintf(pid, sizeof(pid), "%d", getpid());
		put(path, pid);
	}
	close(start[1]);
	wait_start();
	fn(fds, arg);
	exit(0);
}

static void sender(int *wfds, int loops)
{
	char msg[MSG];
	int i, j;

	memset(msg, 's', sizeof(msg));
	for (i = 0; i < loops; i++)
		for (j = 0; j < FDS; j++)
			if (write(wfds[j], msg, MSG) != MSG)
				die("write");
}

static void receiver(int *rfd, int total)
{
	char buf[MSG];
	int got = 0;
	ssize_t n;

	while (got < total * MSG) {
		n = read(*rfd, buf, MSG);
		if (n <= 0)
			die("read");
		got += n;
	}
}

int main(int argc, char **argv)
{
	int groups, loops, g, i, j, status, fails = 0;
	const char *parent = argc > 3 ? argv[3] : NULL;
	int (*pipes)[FDS][2];
	struct timespec t0, t1;
	struct rusage ru;
	double cpu;
	long csw;
	char dir[300];
	int wfds[FDS];

	if (argc < 3)
		return fprintf(stderr, "usage: hackbench GROUPS LOOPS [CGROUP_DIR]\n"), 2;
	groups = atoi(argv[1]);
	loops = atoi(argv[2]);
	if (groups < 1 || loops < 1)
		return 2;
	pipes = calloc(groups, sizeof(*pipes));
	if (!pipes || pipe(start))
		die("setup");
	if (parent) {
		snprintf(dir, sizeof(dir), "%s/cgroup.subtree_control", parent);
		put(dir, "+cpu");
	}
	for (g = 0; g < groups; g++) {
		if (parent)
			group_dir(parent, g, dir, sizeof(dir));
		for (j = 0; j < FDS; j++)
			if (pipe(pipes[g][j]))
				die("pipe");
		for (j = 0; j < FDS; j++)
			if (!fork())
				child(parent ? dir : NULL, receiver, &pipes[g][j][0],
				      FDS * loops);
		for (j = 0; j < FDS; j++)
			wfds[j] = pipes[g][j][1];
		for (i = 0; i < FDS; i++)
			if (!fork())
				child(parent ? dir : NULL, sender, wfds, loops);
		for (j = 0; j < FDS; j++) {
			close(pipes[g][j][0]);
			close(pipes[g][j][1]);
		}
	}
	close(start[0]);
	clock_gettime(CLOCK_MONOTONIC, &t0);
	close(start[1]);	/* every child's read returns: go */
	while (wait(&status) > 0)
		if (!WIFEXITED(status) || WEXITSTATUS(status))
			fails++;
	clock_gettime(CLOCK_MONOTONIC, &t1);
	/* leave CGROUP_DIR as it was: tasks can join it again */
	for (g = 0; parent && g < groups; g++) {
		snprintf(dir, sizeof(dir), "%s/hb%d", parent, g);
		rmdir(dir);
	}
	if (parent) {
		snprintf(dir, sizeof(dir), "%s/cgroup.subtree_control", parent);
		put(dir, "-cpu");
	}
	getrusage(RUSAGE_CHILDREN, &ru);
	cpu = ru.ru_utime.tv_sec * 1e9 + ru.ru_utime.tv_usec * 1e3 +
	      ru.ru_stime.tv_sec * 1e9 + ru.ru_stime.tv_usec * 1e3;
	csw = ru.ru_nvcsw + ru.ru_nivcsw;
	printf("hackbench: %d groups, %d tasks, %d loops, %ld switches, %.0f ns cpu each, %.3f ms%s\n",
	       groups, groups * 2 * FDS, loops, csw, csw ? cpu / csw : 0,
	       (t1.tv_sec - t0.tv_sec) * 1e3 + (t1.tv_nsec - t0.tv_nsec) / 1e6,
	       fails ? " (a task failed)" : "");
	return fails ? 1 : 0;
}
