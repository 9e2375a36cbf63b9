#!/bin/bash
# make run: build the patched kernel, boot it and show kidled holding its
# targets on loaded CPUs (a per-second table of target vs achieved idle).
. "$(dirname "$0")/common.sh"
eval "$(bash "$REPO/harness/kernel.sh" test)"
python3 "$REPO/harness/qemu.py" --kernel "$KERNEL" --initrd "$INITRD" \
	--append "kidled_mode=run" --log "$CACHE/out/test/run.log" --timeout 900 \
	--echo --echo-filter '^[^\[]'
