#!/bin/sh
# control run: churn on cpu0 and a cpu.max-throttled hog on cpu1, 3 x 30 s;
# on a kidled kernel, cpu1 also at 100% of 100 ms (as kidled_full case 1)
K=/proc/sys/kernel/kidled/cpu/1
if [ -d $K ]; then
	echo 100 > $K/interval
	echo 100 > $K/min_idle_percent
	echo "control: kidled at 100% on cpu1"
fi
for i in 1 2 3; do /bin/churn 30 || exit 1; done
exit 0
