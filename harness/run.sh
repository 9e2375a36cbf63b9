#!/bin/bash
# Build the patched test kernel and boot it in a guest job, console shown:
#   run.sh [MODE]   run (default): show kidled holding its targets on loaded
#                   CPUs (a per-second table of target vs achieved idle);
#                   seed: the 2010 cover letter's test program, unchanged;
#                   hotpath: cost of the scheduler hooks (pipe ping-pong).
. "$(dirname "$0")/common.sh"
mode=${1:-run}
[ -x "$REPO/guest/$mode.sh" ] || die "no guest job '$mode' (see guest/*.sh)"
eval "$(bash "$REPO/harness/kernel.sh" test)"
# no KUnit at boot: its live case sets a target, which turns static keys
# on that the hotpath figures want off
python3 "$REPO/harness/qemu.py" --kernel "$KERNEL" --initrd "$INITRD" \
	--append "kidled_mode=$mode kunit.enable=0" --log "$CACHE/out/test/$mode.log" --timeout 1200 \
	--echo --echo-filter '^[^\[]'
