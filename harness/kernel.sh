#!/bin/bash
# Prepare everything a guest run needs, for LANE (default "test"; "debug"
# adds config/debug.config: lockdep, atomic-sleep, list and object checks,
# UBSAN; "kasan" adds config/kasan.config; "prod" is Debian's production
# config with config/prod.config):
# packages, pristine tree, series applied, kernel, initramfs.
# Prints the paths as KERNEL=... INITRD=... on stdout.
. "$(dirname "$0")/common.sh"
lane=${1:-test}
bash "$REPO/harness/deps.sh"
bash "$REPO/harness/tree.sh" build
frags=("$REPO/config/kidled.config")
[ "$lane" = debug ] && frags+=("$REPO/config/debug.config")
[ "$lane" = kasan ] && frags+=("$REPO/config/kasan.config")
[ "$lane" = prod ] && frags=("$REPO/config/prod.config")
bash "$REPO/harness/build.sh" "$lane" "$BUILDSRC" "${frags[@]}"
out=$CACHE/out/$lane
# our own files must build warning-free with W=1; on the production config
# also every object the series touches (it has what tinyconfig leaves out)
objs=(kernel/sched/kidled.o kernel/sched/kidled_sysctl.o kernel/sched/kidled_lb.o)
grep -q '^CONFIG_KIDLED_GROUPS=y' "$out/.config" &&
	objs+=(kernel/sched/kidled_group.o kernel/sched/kidled_charge.o)
grep -q '^CONFIG_KIDLED_KUNIT_TEST=y' "$out/.config" && objs+=(kernel/sched/kidled_kunit.o)
[ "$lane" = prod ] && objs+=(kernel/sched/core.o kernel/sched/fair.o kernel/sched/build_policy.o
	kernel/sched/build_utility.o kernel/softirq.o kernel/cpu.o)
for o in "${objs[@]}"; do rm -f "$out/$o"; done
if make -s -C "$BUILDSRC" O="$out" ARCH=x86_64 CC="ccache gcc" W=1 \
	"${objs[@]}" 2>&1 | grep -E '\.[ch]:[0-9]+(:[0-9]+)?: (warning|error):|Error' >&2; then
	die "W=1 warnings in kidled sources"
fi
bash "$REPO/harness/initramfs.sh" "$BUILDSRC" "$out/initramfs.cpio.gz" "$out"
echo "KERNEL=$out/arch/x86/boot/bzImage INITRD=$out/initramfs.cpio.gz"
