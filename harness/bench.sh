#!/bin/bash
# make bench: kidled against the kernel's idle_inject, cpu.max and no
# capping on the same workloads (guest/bench.sh), and the series' cost
# against the kernel without it. Builds the patched kernel and a baseline
# from the same config without kidled, boots four guests (patched under
# -icount: everything but real halting; baseline under -icount: cost;
# patched without -icount: host CPU per guest second; Debian's config
# under -icount: the irq-off sections of charging) and writes
# bench/results/<date>/ with report.md, plots and the raw figures.
. "$(dirname "$0")/common.sh"
commit=$(git -C "$REPO" describe --always --dirty 2>/dev/null || echo unknown)
eval "$(bash "$REPO/harness/kernel.sh" test)"
base=$CACHE/out/base
if [ "${KIDLED_BENCH_ONLY:-}" != align ]; then
	mkdir -p "$base"
	grep -v -e IDLE_CYCLE_INJECTOR -e KIDLED "$REPO/config/kidled.config" > "$CACHE/out/base.fragment"
	bash "$REPO/harness/build.sh" base "$SRC" "$CACHE/out/base.fragment"
	bash "$REPO/harness/initramfs.sh" "$SRC" "$base/initramfs.cpio.gz"
fi

res=${KIDLED_BENCH_OUT:-$REPO/bench/results/$(date +%Y-%m-%d)}
logs=$CACHE/out/bench
mkdir -p "$res" "$logs"
boot() { # NAME KERNEL INITRD PART [qemu.py options]
	local name=$1 kernel=$2 initrd=$3 part=$4 result
	shift 4
	log "bench: $name ($part)"
	python3 "$REPO/harness/qemu.py" --kernel "$kernel" --initrd "$initrd" \
		--append "kidled_mode=bench kidled_bench=$part kunit.enable=0" --log "$logs/$name.log" \
		--timeout 3600 --echo --echo-filter '^bench: (part|accuracy|wake|pays|pingpong|timer|align|done)|^qemu: mark' \
		"$@" | cut -c1-160 || true
	result=$(cut -d' ' -f2 "$logs/$name.log.result" 2>/dev/null || echo CRASH)
	[ "$result" = PASS ] || die "bench guest $name: $result (log $logs/$name.log)"
	grep -E '^(bench:|kidled-mark|qemu: mark)' "$logs/$name.log" > "$res/$name.txt"
}
# aligned injection wants SMT siblings: 4 vCPUs, 2 cores x 2 threads
SMT4=(--smp 4 --topology sockets=1,cores=2,threads=2)
# KIDLED_BENCH_ONLY=align: only the aligned injection section (developers)
if [ "${KIDLED_BENCH_ONLY:-}" != align ]; then
boot patched "$KERNEL" "$INITRD" full
boot baseline "$base/arch/x86/boot/bzImage" "$base/initramfs.cpio.gz" cost
boot halt "$KERNEL" "$INITRD" halt --no-icount --marks
fi
boot align "$KERNEL" "$INITRD" align "${SMT4[@]}"
boot halt_align "$KERNEL" "$INITRD" halt_align --no-icount --marks "${SMT4[@]}"
if [ "${KIDLED_BENCH_ONLY:-}" = align ]; then
	log "bench: align figures in $res/align.txt, $res/halt_align.txt"
	exit 0
fi
# the interrupts-off sections of power capping priority per lazy injection,
# timed by function_graph, which Debian's config has and the test one not
eval "$(bash "$REPO/harness/kernel.sh" prod | sed 's/^KERNEL=/PKERNEL=/; s/ INITRD=/ PINITRD=/')"
log "bench: irqoff (prod)"
python3 "$REPO/harness/qemu.py" --kernel "$PKERNEL" --initrd "$PINITRD" --mem 1G \
	--append "kidled_mode=irqoff kunit.enable=0" --log "$logs/irqoff.log" --timeout 1200 |
	cut -c1-160 || true
[ "$(cut -d' ' -f2 "$logs/irqoff.log.result" 2>/dev/null)" = PASS ] ||
	die "bench guest irqoff failed (log $logs/irqoff.log)"
grep '^irqoff:' "$logs/irqoff.log" > "$res/irqoff.txt"
cp "$CACHE/out/test/.config" "$res/kernel.config"
python3 "$REPO/bench/report.py" "$res" \
	--commit "$commit" \
	--qemu "$(qemu-system-x86_64 --version | head -1)"
log "bench: report in $res/report.md"
