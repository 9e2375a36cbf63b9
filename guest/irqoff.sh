#!/bin/sh
# Time with interrupts off that power capping priority costs per lazy
# injection: kidled_mark_groups() and kidled_charge_groups(), each one
# rq_lock_irq() section, timed by the function_graph tracer (guest time:
# instructions under -icount). N = 1, 100, 1000 root tasks spin on the
# capped CPU (50% of 10 ms): next to a two-level tree of interactive
# groups with a task each (v2), charged at both levels, then alone
# (cgroup v1, the root group interactive, so that injection is lazy).
# Not pass/fail: figures for the documentation.
cpu=$(( $(nproc) - 1 ))
T=/sys/kernel/tracing
K=/proc/sys/kernel/kidled/cpu/$cpu
mount -t tracefs none $T 2>/dev/null
if ! grep -qw function_graph $T/available_tracers 2>/dev/null; then
	echo "irqoff: no function_graph tracer in this kernel"
	exit 0
fi
echo kidled_mark_groups kidled_charge_groups > $T/set_ftrace_filter
echo function_graph > $T/current_tracer
echo 10 > $K/interval
pids=
measure() { # LABEL: root hogs up to 1, 100, 1000, one second each
	n=0
	for want in 1 100 1000; do
		while [ $n -lt $want ]; do
			hog $cpu &
			pids="$pids $!"
			n=$((n + 1))
		done
		sleep 2
		echo > $T/trace
		echo 1 > $T/tracing_on
		sleep 1
		echo 0 > $T/tracing_on
		for f in kidled_mark_groups kidled_charge_groups; do
			grep "$f" $T/trace |
				sed -n 's/^[^|]*[^0-9.]\([0-9][0-9.]*\) us .*/\1/p' |
				sort -n | awk -v n=$want -v f=$f -v l="$1" '
				{ v[NR] = $1 }
				END { if (!NR) { print "irqoff: " l ", " n " root tasks: " f ": no calls"; exit }
				      printf "irqoff: %s, %d root tasks: %s: %d calls, median %.1f us, max %.1f us\n",
					     l, n, f, NR, v[int((NR + 1) / 2)], v[NR] }'
		done
	done
	kill $pids 2>/dev/null
	wait 2>/dev/null
	pids=
}
mkdir -p /tmp/cg && mount -t cgroup2 none /tmp/cg
echo +cpu > /tmp/cg/cgroup.subtree_control
mkdir -p /tmp/cg/a/a1 /tmp/cg/a/a2 /tmp/cg/b
echo +cpu > /tmp/cg/a/cgroup.subtree_control
for g in a a/a1 a/a2 b; do echo 1 > /tmp/cg/$g/cpu.power_interactive; done
echo 10 > /tmp/cg/a/cpu.power_capping_priority
echo 30 > /tmp/cg/b/cpu.power_capping_priority
for g in a/a1 a/a2 b; do
	sh -c "echo \$\$ > /tmp/cg/$g/cgroup.procs; exec hog $cpu" &
	pids="$pids $!"
done
echo 50 > $K/min_idle_percent
measure "groups a/a1, a/a2, b"
echo 0 > $K/min_idle_percent
# hand the cpu controller over to a v1 hierarchy
rmdir /tmp/cg/a/a1 /tmp/cg/a/a2 /tmp/cg/b
echo -cpu > /tmp/cg/a/cgroup.subtree_control
rmdir /tmp/cg/a
echo -cpu > /tmp/cg/cgroup.subtree_control
umount /tmp/cg
mkdir -p /tmp/cg1
# the v2 groups' css die asynchronously: EBUSY until then
i=0
until mount -t cgroup -o cpu none /tmp/cg1 2>/dev/null || [ $i -ge 50 ]; do
	sleep 0.2
	i=$((i + 1))
done
if [ -e /tmp/cg1/cpu.power_interactive ]; then
	echo 1 > /tmp/cg1/cpu.power_interactive
	echo 50 > $K/min_idle_percent
	measure "no groups"
	echo 0 > $K/min_idle_percent
	echo 0 > /tmp/cg1/cpu.power_interactive
else
	echo "irqoff: no cgroup v1 cpu hierarchy"
fi
echo nop > $T/current_tracer
echo "irqoff: done"
