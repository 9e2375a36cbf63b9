// SPDX-License-Identifier: GPL-2.0-only
/*
 * ptyrun: run a command with its stdout and stderr on a pseudo terminal and
 * copy what it prints to our stdout. Programs that use stdio then flush
 * every line (as on a console), so nothing printed is lost if they crash.
 * Exit status: the command's, or 128 + signal number. We stop when the
 * command has exited, even if children it left behind keep the pty open.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	char buf[4096];
	int master, status, exited = 0;
	ssize_t n;
	pid_t pid;

	if (argc < 2) {
		fprintf(stderr, "usage: ptyrun COMMAND [ARG]...\n");
		return 2;
	}
	master = posix_openpt(O_RDWR | O_NOCTTY);
	if (master < 0 || grantpt(master) || unlockpt(master)) {
		perror("ptyrun: pty");
		return 2;
	}
	pid = fork();
	if (pid < 0) {
		perror("ptyrun: fork");
		return 2;
	}
	if (!pid) {
		int slave = open(ptsname(master), O_RDWR);

		if (slave < 0) {
			perror("ptyrun: open slave");
			_exit(2);
		}
		close(master);
		dup2(slave, 1);
		dup2(slave, 2);
		execvp(argv[1], argv + 1);
		perror("ptyrun: exec");
		_exit(127);
	}
	for (;;) {
		struct pollfd pfd = { .fd = master, .events = POLLIN };
		int ready;

		if (!exited) {
			pid_t w = waitpid(pid, &status, WNOHANG);

			if (w < 0)
				return 2;
			exited = w == pid;
		}
		/* once the command is gone, drain what is left, then stop */
		ready = poll(&pfd, 1, exited ? 0 : 100);
		if (ready > 0 && (pfd.revents & POLLIN)) {
			n = read(master, buf, sizeof(buf));
			if (n > 0 && write(1, buf, n) == n)
				continue;
		}
		if (exited)
			break;
		if (ready > 0) {	/* hangup: every writer is gone */
			if (waitpid(pid, &status, 0) < 0)
				return 2;
			break;
		}
	}
	if (WIFSIGNALED(status))
		return 128 + WTERMSIG(status);
	return WEXITSTATUS(status);
}
