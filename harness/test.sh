#!/bin/bash
# make test: for each lane (the test config, then the debug config with
# lockdep & co.), build the patched kernel, boot it under QEMU -icount in
# test mode (KUnit at boot, then the kidled kselftests) and count the
# results. Ends with the overall "N passed, N failed".
#   test.sh [LANE...]     default: test debug
. "$(dirname "$0")/common.sh"
lanes=("$@")
[ ${#lanes[@]} -gt 0 ] || lanes=(test debug)
total_pass=0 total_fail=0
# the harness's own log parsing, against golden logs
line=$(python3 "$REPO/tests/test_harness.py" 2>&1 | tail -1)
echo "[harness] $line"
total_pass=$((total_pass + $(echo "$line" | cut -d' ' -f1)))
total_fail=$((total_fail + $(echo "$line" | cut -d' ' -f3)))
for lane in "${lanes[@]}"; do
	log "=== lane $lane ==="
	start=$(date +%s)
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
	python3 "$REPO/harness/qemu.py" --kernel "$KERNEL" --initrd "$INITRD" \
		--append "kidled_mode=test" --log "$out/console.log" --timeout 2400 --echo \
		--echo-filter '^[^\[]|^\[[ .0-9]*\] *(KTAP|# Subtest|# kidled|ok|not ok)' || true
	result=$(cut -d' ' -f2 "$out/console.log.result" 2>/dev/null || echo CRASH)
	summary=$(python3 "$REPO/harness/summary.py" "$out/console.log" --kunit kidled \
		--selftests "$selftests" --result "$result" || true)
	echo "$summary" | sed "s/^/[$lane] /"
	line=$(echo "$summary" | tail -1)
	total_pass=$((total_pass + $(echo "$line" | cut -d' ' -f1)))
	total_fail=$((total_fail + $(echo "$line" | cut -d' ' -f3)))
	# the 2010 test program needs cgroup v1 with cpuset: a boot of its own
	if [ "$lane" = test ]; then
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
