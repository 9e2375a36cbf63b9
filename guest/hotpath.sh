#!/bin/sh
# Cost of kidled's enqueue/dequeue hooks: pipe ping-pong on the last CPU,
# guest ns per round trip (instructions under -icount), in four states.
# Not a pass/fail test: the figures go into the documentation.
cpu=$(( $(nproc) - 1 ))
R=${1:-20000}
run() {
	echo "hotpath: $1"
	for i in 1 2 3; do pingpong $cpu $R $2; done
}
run "A static key off (no group ever interactive)"
mkdir -p /tmp/cg && mount -t cgroup2 none /tmp/cg && echo +cpu > /tmp/cg/cgroup.subtree_control
mkdir /tmp/cg/batch /tmp/cg/inter
run "B0 tasks in a batch group, key off" /tmp/cg/batch
echo 1 > /tmp/cg/inter/cpu.power_interactive
run "B key on, tasks in a batch group" /tmp/cg/batch
run "C key on, tasks interactive, kidled off on the CPU" /tmp/cg/inter
