#!/bin/bash
# make test: for each lane (the test config, then the debug config with
# lockdep, UBSAN & co.), build the patched kernel, boot it under QEMU
# -icount in test mode (KUnit at boot, then the kidled kselftests) and count
# the results; the KASAN lane runs KUnit and the selftests that exercise
# memory lifetimes ($KASAN_TESTS); the production lane boots Debian's own
# config (HZ=250, NO_HZ_FULL, PREEMPT_DYNAMIC, VIRT_CPU_ACCOUNTING_GEN,
# SCHED_AUTOGROUP) and runs $PROD_TESTS and the seed program; then the build
# matrix (harness/matrix.sh: injector off). Ends with the overall
# "N passed, N failed".
#   test.sh [LANE...]     default: test debug prod matrix (kasan on request)
. "$(dirname "$0")/common.sh"
lanes=("$@")
# (kasan is not a default lane: with the prod lane, CI's 75 minutes do not
# hold it; run it with: bash harness/test.sh kasan)
[ ${#lanes[@]} -gt 0 ] || lanes=(test debug prod matrix)
# KASAN triples the kernel's instruction count: all of the suite would take
# half an hour, and its timing tests would measure KASAN
KASAN_TESTS=abi,churn,delegation,fuzz,hotplug
# kidled_busy's cases on the debug lane: every interval and target once
DEBUG_BUSY=10:50,100:90,500:10,7:33,25:80
# what operators run: the ABI, accuracy with every CPU busy, eager and lazy
# injection, priorities, trace events (with autogroups), giving way
PROD_TESTS=abi,accounting,busy,interactive,priority,trace,yield
total_pass=0 total_fail=0
# the harness's own log parsing, against golden logs
line=$(python3 "$REPO/tests/test_harness.py" 2>&1 | tail -1)
echo "[harness] $line"
total_pass=$((total_pass + $(echo "$line" | cut -d' ' -f1)))
total_fail=$((total_fail + $(echo "$line" | cut -d' ' -f3)))
for lane in "${lanes[@]}"; do
	log "=== lane $lane ==="
	start=$(date +%s)
	if [ "$lane" = matrix ]; then
		# (not tee /dev/stderr: reopening a redirected stderr truncates the file)
		res=$(bash "$REPO/harness/matrix.sh") || true
		echo "$res" >&2
		line=$(echo "$res" | tail -1)
		[[ $line =~ ^[0-9]+\ passed,\ [0-9]+\ failed$ ]] || line="0 passed, 1 failed"
		echo "[matrix] $line"
		total_pass=$((total_pass + $(echo "$line" | cut -d' ' -f1)))
		total_fail=$((total_fail + $(echo "$line" | cut -d' ' -f3)))
		log "lane $lane took $(( $(date +%s) - start ))s"
		continue
	fi
	if ! paths=$(bash "$REPO/harness/kernel.sh" "$lane"); then
		echo "FAILED: lane $lane: kernel build"
		total_fail=$((total_fail + 1))
		continue
	fi
	eval "$paths"
	out=$CACHE/out/$lane
	rm -f "$out/console.log.result"
	selftests=$(grep -oP '^TEST_GEN_PROGS\s*\+?=\s*\K\S+' \
		"$BUILDSRC/tools/testing/selftests/kidled/Makefile" | sed 's/^/kidled:/' | paste -sd,),bench:smoke
	append=kidled_mode=test
	kunit=kidled
	if [ "$lane" = kasan ]; then
		append+=" kidled_only=$KASAN_TESTS"
		selftests=$(echo ",$KASAN_TESTS" | sed 's/,/,kidled:kidled_/g; s/^,//')
	elif [ "$lane" = debug ]; then
		# the lockdep kernel runs the suite but for the one-CPU-at-a-time
		# accuracy cases, and a third of kidled_busy's grid (CI's time)
		append+=" kidled_skip=accuracy kidled_busy=$DEBUG_BUSY"
		selftests=$(echo "$selftests" | sed 's/kidled:kidled_accuracy,//')
	elif [ "$lane" = prod ]; then
		# no KUnit in Debian's built-in config
		append+=" kidled_only=$PROD_TESTS"
		selftests=$(echo ",$PROD_TESTS" | sed 's/,/,kidled:kidled_/g; s/^,//')
		kunit=""
	fi
	python3 "$REPO/harness/qemu.py" --kernel "$KERNEL" --initrd "$INITRD" \
		--append "$append" --log "$out/console.log" --timeout 2400 --echo \
		--echo-filter '^[^\[]|^\[[ .0-9]*\] *(KTAP|# Subtest|# kidled|ok|not ok)' || true
	result=$(cut -d' ' -f2 "$out/console.log.result" 2>/dev/null || echo CRASH)
	summary=$(python3 "$REPO/harness/summary.py" "$out/console.log" --kunit "$kunit" \
		--selftests "$selftests" --result "$result" || true)
	echo "$summary" | sed "s/^/[$lane] /"
	line=$(echo "$summary" | tail -1)
	total_pass=$((total_pass + $(echo "$line" | cut -d' ' -f1)))
	total_fail=$((total_fail + $(echo "$line" | cut -d' ' -f3)))
	# the 2010 test program needs cgroup v1 with cpuset: a boot of its own
	if [ "$lane" = test ] || [ "$lane" = prod ]; then
		rm -f "$out/seed.log.result"
		python3 "$REPO/harness/qemu.py" --kernel "$KERNEL" --initrd "$INITRD" \
			--append "kidled_mode=seed" --log "$out/seed.log" --timeout 1200 --echo \
			--echo-filter '^[^\[]' || true
		result=$(cut -d' ' -f2 "$out/seed.log.result" 2>/dev/null || echo CRASH)
		summary=$(python3 "$REPO/harness/summary.py" "$out/seed.log" \
			--kunit "" --selftests kidled:seed --result "$result" || true)
		echo "$summary" | sed "s/^/[$lane seed] /"
		line=$(echo "$summary" | tail -1)
		total_pass=$((total_pass + $(echo "$line" | cut -d' ' -f1)))
		total_fail=$((total_fail + $(echo "$line" | cut -d' ' -f3)))
	fi
	log "lane $lane took $(( $(date +%s) - start ))s"
done
echo "$total_pass passed, $total_fail failed"
[ "$total_fail" = 0 ]
