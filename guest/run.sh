#!/bin/sh
# make run: show kidled holding targets on loaded CPUs.
k=/proc/sys/kernel/kidled/cpu
echo "kidled demo: a CPU hog on every CPU; targets change at 6 s and 12 s"
for c in $(seq 0 $(($(nproc) - 1))); do
	/bin/hog "$c" &
done
echo 100 > $k/0/interval; echo 30 > $k/0/min_idle_percent
echo 10 > $k/1/interval; echo 75 > $k/1/min_idle_percent
/bin/kidled-top 6
echo 500 > $k/0/interval; echo 60 > $k/0/min_idle_percent
echo 50 > $k/1/min_idle_percent
/bin/kidled-top 6 | tail -n +2
echo 0 > $k/0/min_idle_percent; echo 0 > $k/1/min_idle_percent
/bin/kidled-top 3 | tail -n +2
kill $(jobs -p) 2>/dev/null
exit 0
