#!/bin/sh
# make bench, guest side: the same workloads under kidled, the kernel's
# idle_inject (through /bench/kidled_bench_ii.ko), cpu.max and no capping,
# all on the last CPU. Prints "bench: ..." lines for bench/report.py.
#   bench.sh PART   PART (or kidled_bench= on the command line):
#     full   cost, accuracy, interactive protection, who pays (-icount)
#     cost   hot-path cost and timer interrupts only (the baseline kernel)
#     halt   host CPU per guest second, marked for the host (no -icount)
#     align  aligned injection: overlap and accuracy per kernel/kidled/align
#            level (kidled_align's figures; 4 vCPUs, SMT siblings, -icount)
#     halt_align  host CPU per guest second per level, all CPUs capped
#            (marked for the host; 4 vCPUs, no -icount)
#     smoke  every workload once, briefly; KTAP for make test
#     accuracy, protect, pays, lock: that section of full alone
part=${1:-$(sed -n 's/.*kidled_bench=\([a-z_]*\).*/\1/p' /proc/cmdline)}
K=/proc/sys/kernel/kidled
CG=/tmp/bcg
T=/sys/kernel/tracing
KO=/bench/kidled_bench_ii.ko
CPU=$(( $(nproc) - 1 ))
scale=1; [ "$part" = smoke ] && scale=20   # smoke: windows 20x shorter
kidled=0; [ -d $K ] && kidled=1
fails=0

ms() { echo $(( $1 / scale )); }

setup() {
	mkdir -p $CG && mount -t cgroup2 none $CG && echo +cpu > $CG/cgroup.subtree_control
	for g in batch inter hi lo capped capmax; do mkdir -p $CG/$g; done
	echo +cpu > $CG/capped/cgroup.subtree_control
	mkdir -p $CG/capped/hi $CG/capped/lo
	mount -t tracefs nodev $T 2>/dev/null
	echo mono > $T/trace_clock
	echo 8192 > $T/buffer_size_kb
}

# kidled's group settings (after the cost part: they turn a static key on)
flags() {
	[ $kidled = 1 ] || return 0
	for g in inter hi lo; do echo 1 > $CG/$g/cpu.power_interactive; done
	echo 14 > $CG/hi/cpu.power_capping_priority
	echo 0 > $CG/lo/cpu.power_capping_priority
}

# start a spinning hog on $CPU in group $1; pid in $hog
hog_in() {
	/bin/hog $CPU &
	hog=$!
	echo $hog > $CG/$1/cgroup.procs
}

# stop whatever caps $CPU
uncap() {
	[ $kidled = 1 ] && echo 0 > $K/cpu/$CPU/min_idle_percent
	grep -q kidled_bench_ii /proc/modules && rmmod kidled_bench_ii
	echo max > $CG/capmax/cpu.max
	echo max > $CG/capped/cpu.max
}

# cost: pipe ping-pong (guest ns per round trip), hackbench (guest ms) and
# timer interrupts of a dormant CPU, in the state $1
cost() {
	for i in 1 2 3; do
		echo "bench: pingpong state=$1 $(pingpong $CPU $(ms 20000) $2 | sed 's/.*, \([0-9.]*\) ns each/ns=\1/')"
	done
	# every CPU, many groups, wake-heavy: 4 groups of 20 tasks, each
	# group in a child of $2 when given (the cgroup tree's paths too);
	# one run varies by up to 10% (where the tasks land), five of
	# 400 rounds (about 0.35 s each) give a steadier median
	for i in 1 2 3 4 5; do
		echo "bench: hackbench state=$1 $(hackbench 4 $(ms 400) ${2:+$2} |
			sed 's/.*, \([0-9]*\) switches, \([0-9]*\) ns cpu each, \([0-9.]*\) ms.*/csw=\1 ns=\2 ms=\3/')"
	done
	a=$(awk '/LOC:/ { print $('$CPU' + 2) }' /proc/interrupts)
	sleep $(( 10 / scale ))
	b=$(awk '/LOC:/ { print $('$CPU' + 2) }' /proc/interrupts)
	echo "bench: timer state=$1 cpu=$CPU loc=$((b - a)) seconds=$(( 10 / scale ))"
}

do_cost() {
	cost root-fresh
	cost group-fresh $CG/batch
	if [ $kidled = 1 ]; then
		# every CPU has had a target and an interactive group exists (all
		# static keys on), the CPUs are at 0% now
		flags
		for c in $(seq 0 $CPU); do echo 50 > $K/cpu/$c/min_idle_percent; done
		sleep 1
		for c in $(seq 0 $CPU); do echo 0 > $K/cpu/$c/min_idle_percent; done
		sleep 1
		cost root-on0
		cost group-on0 $CG/inter
	fi
}

# accuracy MECH INTERVAL_MS PCT WINDOW_MS
accuracy() {
	case $1 in
	kidled-lazy|kidled-eager)
		g=batch; [ $1 = kidled-lazy ] && g=inter
		echo "$2" > $K/cpu/$CPU/interval
		r=$(bench spin $CPU $(ms $4) -g $CG/$g -w $K/cpu/$CPU/min_idle_percent $3) ;;
	idle_inject)
		r=$(bench spin $CPU $(ms $4) -g $CG/batch -m $KO \
			"cpus=$CPU idle_us=$(($2 * $3 * 10)) run_us=$(($2 * (100 - $3) * 10))") ;;
	cpu.max)
		r=$(bench spin $CPU $(ms $4) -g $CG/capmax \
			-w $CG/capmax/cpu.max "$(($2 * (100 - $3) * 10)) $(($2 * 1000))") ;;
	esac
	uncap
	echo "bench: accuracy mech=$1 interval=$2 target=$3 ${r#bench: spin }"
	case "$r" in *share=*) ;; *) fails=$((fails + 1)) ;; esac
}

do_accuracy() {
	for mech in kidled-lazy kidled-eager idle_inject cpu.max; do
		[ $kidled = 0 ] && case $mech in kidled*) continue ;; esac
		for iv in 10 100 500; do
			w=3000; [ $iv = 500 ] && w=4000
			for pct in $1; do accuracy $mech $iv $pct $w; done
		done
	done
}

# protect MECH PCT: a 1 ms sleeper next to a hog, 100 ms interval; "idle":
# the sleeper alone (wakeups from natural idle). kidled-interactive runs
# untraced (its latency is compared with natural idle); the -traced run
# and kidled-batch tell which spikes an injection held up.
protect() {
	pg=inter hg=batch trace=
	echo 0 > $T/tracing_on; echo > $T/trace
	case $1 in
	none|idle) ;;
	kidled-interactive|kidled-interactive-traced|kidled-batch)
		[ $1 = kidled-batch ] && pg=batch
		echo 100 > $K/cpu/$CPU/interval
		[ $1 != kidled-interactive ] && echo 1 > $T/events/kidled/enable
		[ $1 != kidled-interactive ] && trace="-t $T/trace"
		echo $2 > $K/cpu/$CPU/min_idle_percent ;;
	idle_inject)
		echo 'next_comm ~ "idle_inject*" || prev_comm ~ "idle_inject*"' \
			> $T/events/sched/sched_switch/filter
		echo 1 > $T/events/sched/sched_switch/enable
		trace="-t $T/trace"
		insmod $KO cpus=$CPU idle_us=$(($2 * 1000)) run_us=$(((100 - $2) * 1000)) ;;
	cpu.max)
		hg=capmax
		echo "$(((100 - $2) * 1000)) 100000" > $CG/capmax/cpu.max ;;
	esac
	echo 1 > $T/tracing_on
	[ $1 != idle ] && hog_in $hg
	r=$(bench wake $CPU $(ms 10000) -g $CG/$pg $trace -n "$1@$2")
	echo 0 > $T/tracing_on
	[ $1 != idle ] && { kill $hog; wait $hog 2>/dev/null; }
	uncap
	echo 0 > $T/events/enable
	echo 0 > $T/events/sched/sched_switch/filter
	echo "$r" | sed "s/^bench: wake /bench: wake mech=$1 target=$2 /; s/^bench: cdf /bench: cdf mech=$1 target=$2 /"
	case "$r" in *count=*) ;; *) fails=$((fails + 1)) ;; esac
}

do_protect() {
	protect idle 0
	protect none 0
	for pct in $1; do
		for mech in kidled-interactive kidled-interactive-traced kidled-batch idle_inject cpu.max; do
			[ $kidled = 0 ] && case $mech in kidled*) continue ;; esac
			protect $mech $pct
		done
	done
}

# lock WCPU: a batch lock holder on $CPU (500 us of every 1 ms it runs) and
# an interactive waiter on WCPU taking the lock every 1 ms; the waiter's
# wait uncapped and with lazy 50% at 10, 100 and 500 ms
do_lock() {
	for w in $CPU 0; do
		bench lock $CPU $(ms 3000) -g $CG/inter -h $CG/batch -c $w -n none@0 || fails=$((fails + 1))
		[ $kidled = 1 ] || continue
		for iv in 10 100 500; do
			echo $iv > $K/cpu/$CPU/interval
			echo 50 > $K/cpu/$CPU/min_idle_percent
			sleep 0.2
			bench lock $CPU $(ms 3000) -g $CG/inter -h $CG/batch -c $w \
				-n kidled-$iv@50 || fails=$((fails + 1))
			uncap
		done
	done
}

# pays MECH PCT: two always-running groups, priorities 14 (hi) and 0 (lo)
pays() {
	base=
	case $1 in
	kidled)
		echo 100 > $K/cpu/$CPU/interval
		echo $2 > $K/cpu/$CPU/min_idle_percent ;;
	idle_inject)
		insmod $KO cpus=$CPU idle_us=$(($2 * 1000)) run_us=$(((100 - $2) * 1000)) ;;
	cpu.max)
		base=capped/
		echo "$(((100 - $2) * 1000)) 100000" > $CG/capped/cpu.max ;;
	esac
	sleep 0.2
	bench spin $CPU $(ms 5000) -g $CG/${base}hi > /tmp/hi &
	bench spin $CPU $(ms 5000) -g $CG/${base}lo > /tmp/lo
	wait
	uncap
	hi=$(sed -n 's/.*share=//p' /tmp/hi) lo=$(sed -n 's/.*share=//p' /tmp/lo)
	echo "bench: pays mech=$1 target=$2 hi=$hi lo=$lo"
	[ -n "$hi" ] && [ -n "$lo" ] || fails=$((fails + 1))
}

do_pays() {
	pays none 0
	for mech in kidled idle_inject cpu.max; do
		[ $kidled = 0 ] && [ $mech = kidled ] && continue
		pays $mech 50
	done
}

# halt: host CPU time per guest second; the host samples QEMU at the marks
halt_run() {
	name=$1 pct=$2
	[ "$name" != idle ] && hog_in batch
	case $name in
	kidled) echo 100 > $K/cpu/$CPU/interval; echo $pct > $K/cpu/$CPU/min_idle_percent ;;
	idle_inject) insmod $KO cpus=$CPU idle_us=$((pct * 1000)) run_us=$(((100 - pct) * 1000)) ;;
	esac
	sleep 1
	echo "kidled-mark begin $name@$pct $(cut -d' ' -f1 /proc/uptime)"
	sleep 10
	echo "kidled-mark end $name@$pct $(cut -d' ' -f1 /proc/uptime)"
	[ "$name" != idle ] && { kill $hog; wait $hog 2>/dev/null; }
	uncap
}

# align: kidled_align measures; its "bench: align" lines are the figures
do_align() {
	/selftests/kidled/kidled_align > /tmp/align.out 2>&1 || fails=$((fails + 1))
	sed -n 's/^# \(bench: align .*\)/\1/p' /tmp/align.out
	grep -E '^(not )?ok ' /tmp/align.out | sed 's/^/bench: align-result /'
}

# halt_align: every CPU busy and capped at 60% of 50 ms, per level (60%:
# four vCPUs busy 40% ask 1.6 host CPUs, below what 2 cores give)
do_halt_align() {
	n=$(nproc) pids=""
	for c in $(seq 0 $((n - 1))); do
		/bin/hog $c & pids="$pids $!"
		echo 50 > $K/cpu/$c/interval; echo 60 > $K/cpu/$c/min_idle_percent
	done
	for level in none smt package all; do
		echo $level > $K/align
		sleep 1
		echo "kidled-mark begin align=$level $(cut -d' ' -f1 /proc/uptime)"
		sleep 10
		echo "kidled-mark end align=$level $(cut -d' ' -f1 /proc/uptime)"
	done
	for c in $(seq 0 $((n - 1))); do echo 0 > $K/cpu/$c/min_idle_percent; done
	echo smt > $K/align
	kill $pids; wait 2>/dev/null
}

setup
echo "bench: part=$part kernel=$(uname -r) cpus=$(nproc) kidled=$kidled cpu=$CPU"
case $part in
full)
	do_cost
	flags
	do_accuracy "10 20 30 40 50 60 70 80 90"
	do_protect "50 80"
	do_pays
	do_lock ;;
cost)
	do_cost ;;
accuracy|protect|pays|lock)	# one section alone (developers)
	flags
	case $part in
	accuracy) do_accuracy "10 20 30 40 50 60 70 80 90" ;;
	protect) do_protect "50 80" ;;
	pays) do_pays ;;
	lock) do_lock ;;
	esac ;;
align)
	do_align ;;
halt_align)
	do_halt_align ;;
halt)
	flags
	halt_run idle 0
	halt_run none 0
	for pct in 50 80; do halt_run kidled $pct; halt_run idle_inject $pct; done ;;
smoke)
	echo "TAP version 13"
	echo "1..4"
	flags
	n=0 bad=0
	step() {
		n=$((n + 1)) before=$fails
		"$@" > /tmp/step.out 2>&1
		sed 's/^/# /' /tmp/step.out
		if [ $fails = $before ] && grep -q '^bench: ' /tmp/step.out; then
			echo "ok $n $*"
		else
			echo "not ok $n $*"; bad=$((bad + 1))
		fi
	}
	step do_accuracy 50
	step do_protect 80
	step do_pays
	step cost smoke
	echo "# Totals: pass:$((4 - bad)) fail:$bad"
	;;
*)
	echo "bench: unknown part '$part'"; exit 1 ;;
esac
echo "bench: done fails=$fails"
[ $fails = 0 ]
