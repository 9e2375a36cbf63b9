#!/bin/bash
# Prepare everything a guest run needs, for LANE (default "test"; "debug"
# adds config/debug.config: lockdep, atomic-sleep, list and object checks,
# UBSAN; "kasan" adds config/kasan.config):
# packages, pristine tree, series applied, kernel, initramfs.
# Prints the paths as KERNEL=... INITRD=... on stdout.
. "$(dirname "$0")/common.sh"
lane=${1:-test}
bash "$REPO/harness/deps.sh"
bash "$REPO/harness/tree.sh" build
frags=("$REPO/config/kidled.config")
[ "$lane" = debug ] && frags+=("$REPO/config/debug.config")
[ "$lane" = kasan ] && frags+=("$REPO/config/kasan.config")
bash "$REPO/harness/build.sh" "$lane" "$BUILDSRC" "${frags[@]}"
out=$CACHE/out/$lane
# our own files must build warning-free with W=1
rm -f "$out"/kernel/sched/kidled.o "$out"/kernel/sched/kidled_kunit.o
if make -s -C "$BUILDSRC" O="$out" ARCH=x86_64 CC="ccache gcc" W=1 \
	kernel/sched/kidled.o kernel/sched/kidled_kunit.o 2>&1 | grep -E 'warning|error' >&2; then
	die "W=1 warnings in kidled sources"
fi
bash "$REPO/harness/initramfs.sh" "$BUILDSRC" "$out/initramfs.cpio.gz" "$out"
echo "KERNEL=$out/arch/x86/boot/bzImage INITRD=$out/initramfs.cpio.gz"
