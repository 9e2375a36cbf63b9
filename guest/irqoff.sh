#!/bin/sh
# Time with interrupts off that power capping priority costs per lazy
# injection: kidled_mark_groups() and kidled_charge_groups(), each one
# rq_lock_irq() section walking the queued entities, timed by the
# function_graph tracer (guest time: instructions under -icount). N root
# tasks spin on the capped CPU (50% of 10 ms) next to a two-level tree
# of interactive groups with a task each, so that injection is lazy and
# charged at both levels. Not pass/fail: figures for the documentation.
cpu=$(( $(nproc) - 1 ))
T=/sys/kernel/tracing
K=/proc/sys/kernel/kidled/cpu/$cpu
mount -t tracefs none $T 2>/dev/null
if ! grep -qw function_graph $T/available_tracers 2>/dev/null; then
	echo "irqoff: no function_graph tracer in this kernel"
	exit 0
fi
mkdir -p /tmp/cg && mount -t cgroup2 none /tmp/cg
echo +cpu > /tmp/cg/cgroup.subtree_control
mkdir -p /tmp/cg/a/a1 /tmp/cg/a/a2 /tmp/cg/b
echo +cpu > /tmp/cg/a/cgroup.subtree_control
for g in a a/a1 a/a2 b; do echo 1 > /tmp/cg/$g/cpu.power_interactive; done
echo 10 > /tmp/cg/a/cpu.power_capping_priority
echo 30 > /tmp/cg/b/cpu.power_capping_priority
for g in a/a1 a/a2 b; do
	sh -c "echo \$\$ > /tmp/cg/$g/cgroup.procs; exec hog $cpu" &
done
echo kidled_mark_groups kidled_charge_groups > $T/set_ftrace_filter
echo function_graph > $T/current_tracer
echo 10 > $K/interval
echo 50 > $K/min_idle_percent
n=0
for want in 1 100 1000; do
	while [ $n -lt $want ]; do
		hog $cpu &
		n=$((n + 1))
	done
	sleep 2
	echo > $T/trace
	echo 1 > $T/tracing_on
	sleep 1
	echo 0 > $T/tracing_on
	for f in kidled_mark_groups kidled_charge_groups; do
		grep "$f" $T/trace | sed -n 's/^[^|]*[^0-9.]\([0-9][0-9.]*\) us .*/\1/p' |
			sort -n | awk -v n=$want -v f=$f '
			{ v[NR] = $1 }
			END { if (!NR) { print "irqoff: " n " root tasks: " f ": no calls"; exit }
			      printf "irqoff: %d root tasks: %s: %d calls, median %.1f us, max %.1f us\n",
				     n, f, NR, v[int((NR + 1) / 2)], v[NR] }'
	done
done
echo 0 > $K/min_idle_percent
echo nop > $T/current_tracer
echo "irqoff: done"
