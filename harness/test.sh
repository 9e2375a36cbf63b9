#!/bin/bash
# make test: build the patched kernel, boot it under QEMU -icount with the
# guest in test mode (KUnit at boot, then the kidled kselftests) and count
# the results. Ends with "N passed, N failed".
. "$(dirname "$0")/common.sh"
eval "$(bash "$REPO/harness/kernel.sh" test)"
log=$CACHE/out/test/console.log
rm -f "$log.result"
selftests=$(grep -oP '^TEST_GEN_PROGS\s*\+?=\s*\K\S+' \
	"$BUILDSRC/tools/testing/selftests/kidled/Makefile" | sed 's/^/kidled:/' | paste -sd,)
python3 "$REPO/harness/qemu.py" --kernel "$KERNEL" --initrd "$INITRD" \
	--append "kidled_mode=test" --log "$log" --timeout 1800 --echo \
	--echo-filter '^[^\[]|^\[[ .0-9]*\] *(KTAP|# Subtest|# kidled|ok|not ok)' || true
result=$(cut -d' ' -f2 "$log.result" 2>/dev/null || echo CRASH)
python3 "$REPO/harness/summary.py" "$log" --kunit kidled --selftests "$selftests" \
	--result "$result"
