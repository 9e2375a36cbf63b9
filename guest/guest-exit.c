// SPDX-License-Identifier: GPL-2.0
/*
 * Tell the host how the guest run ended, through QEMU's isa-debug-exit
 * device (iobase 0xf4): QEMU exits with status (code << 1) | 1.
 */
#include <stdio.h>
#include <stdlib.h>
#include <sys/io.h>

int main(int argc, char **argv)
{
	int code = argc > 1 ? atoi(argv[1]) : 1;

	if (ioperm(0xf4, 4, 1)) {
		perror("ioperm");
		return 1;
	}
	outl(code, 0xf4);
	return 1;	/* not reached when the device exists */
}
