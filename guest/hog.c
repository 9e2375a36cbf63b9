// SPDX-License-Identifier: GPL-2.0
/* hog CPU: spin forever on one CPU. */
#define _GNU_SOURCE
#include <sched.h>
#include <stdlib.h>

int main(int argc, char **argv)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(argc > 1 ? atoi(argv[1]) : 0, &set);
	sched_setaffinity(0, sizeof(set), &set);
	for (;;)
		;
}
