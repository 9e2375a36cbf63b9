#!/bin/bash
# Build matrix: the series builds, and the objects it touches compile
# without a single W=1 warning, in configurations the test lanes do not
# boot (the lanes' own configs get W=1 on kidled's files in kernel.sh):
#   off     tinyconfig + config/kidled.config with CONFIG_IDLE_CYCLE_INJECTOR=n:
#           every object the series touches compiles without it (the stubs
#           in the headers); compile-only, to fit CI's time
#   nogroups  the test config without CGROUP_SCHED (so without
#           FAIR_GROUP_SCHED: KIDLED_GROUPS off, the injector alone)
#   up      the test config with SMP=n: the generic forced-idle changes
#           (cpuhp_ap_work_pending() has a stub there) and the injector
#   debian  Debian's production config (linux-config-6.12, amd64 none:
#           NO_HZ_FULL, PREEMPT_DYNAMIC, HZ=250) with the injector on, as an
#           operator would build it: the touched objects
# Prints "ok"/"FAILED" per configuration and "N passed, N failed".
#   matrix.sh [CONFIG...]     default: off nogroups up
. "$(dirname "$0")/common.sh"
configs=("$@")
# (Debian's config is built and booted by the prod lane of make test)
[ ${#configs[@]} -gt 0 ] || configs=(off nogroups up)
DEBCONFIG=/usr/src/linux-config-6.12/config.amd64_none_amd64.xz
# everything the series compiles into, or changes under, kernel/
OBJS=(kernel/sched/core.o kernel/sched/fair.o kernel/sched/build_policy.o
	kernel/sched/build_utility.o kernel/softirq.o kernel/cpu.o)
KIDLED_OBJS=(kernel/sched/kidled.o kernel/sched/kidled_sysctl.o kernel/sched/kidled_lb.o)
KIDLED_GROUP_OBJS=(kernel/sched/kidled_group.o kernel/sched/kidled_charge.o)
bash "$REPO/harness/deps.sh"
bash "$REPO/harness/tree.sh" build
pass=0 fail=0
mk() { make -C "$BUILDSRC" O="$out" ARCH=x86_64 CC="ccache gcc" HOSTCC="ccache gcc" \
	-j"$(nproc)" "$@"; }

# compile the touched objects (and kidled's, when configured) again with W=1;
# any warning or error fails
w1() {
	local o objs=("$@")
	grep -q '^CONFIG_IDLE_CYCLE_INJECTOR=y' "$out/.config" && objs+=("${KIDLED_OBJS[@]}")
	grep -q '^CONFIG_KIDLED_GROUPS=y' "$out/.config" && objs+=("${KIDLED_GROUP_OBJS[@]}")
	grep -q '^CONFIG_KIDLED_KUNIT_TEST=[ym]' "$out/.config" && objs+=(kernel/sched/kidled_kunit.o)
	for o in "${objs[@]}"; do rm -f "$out/$o"; done
	mk -s W=1 "${objs[@]}" > "$out/w1.log" 2>&1 || true
	# compiler diagnostics (host tools built on the way, e.g. genksyms's
	# bison grammar, do not count)
	if grep -E '\.[ch]:[0-9]+(:[0-9]+)?: (warning|error):|^make.*Error' "$out/w1.log" >&2; then
		return 1
	fi
	for o in "${objs[@]}"; do
		[ -f "$out/$o" ] || { echo "not built: $o" >&2; return 1; }
	done
	log "W=1 clean: ${objs[*]}"
}

for cfg in "${configs[@]}"; do
	start=$(date +%s)
	out=$CACHE/out/matrix-$cfg
	ok=1
	case $cfg in
	off)
		printf 'CONFIG_IDLE_CYCLE_INJECTOR=n\nCONFIG_KIDLED_KUNIT_TEST=n\n' > "$CACHE/off.config"
		KIDLED_CONFIGURE_ONLY=1 bash "$REPO/harness/build.sh" "matrix-$cfg" "$BUILDSRC" \
			"$REPO/config/kidled.config" "$CACHE/off.config" || ok=0
		if grep -q '^CONFIG_IDLE_CYCLE_INJECTOR=y' "$out/.config"; then
			echo "the injector is still on" >&2
			ok=0
		fi
		log "preparing $cfg (progress: $out/build.log)"
		[ $ok = 0 ] || mk prepare > "$out/build.log" 2>&1 || { tail -20 "$out/build.log" >&2; ok=0; }
		[ $ok = 0 ] || w1 "${OBJS[@]}" || ok=0
		;;
	nogroups|up)
		if [ $cfg = nogroups ]; then
			printf 'CONFIG_%s=n\n' CGROUP_SCHED FAIR_GROUP_SCHED CFS_BANDWIDTH \
				SCHED_AUTOGROUP > "$CACHE/$cfg.config"
			cp "$REPO/config/kidled.config" "$CACHE/$cfg.base"
		else
			# what needs SMP goes
			grep -vE '^CONFIG_(SMP|NR_CPUS|HOTPLUG_CPU|CPUSETS|CPUSETS_V1)=' \
				"$REPO/config/kidled.config" > "$CACHE/$cfg.base"
			printf 'CONFIG_SMP=n\n' > "$CACHE/$cfg.config"
		fi
		KIDLED_CONFIGURE_ONLY=1 bash "$REPO/harness/build.sh" "matrix-$cfg" "$BUILDSRC" \
			"$CACHE/$cfg.base" "$CACHE/$cfg.config" || ok=0
		if [ $cfg = nogroups ] && { ! grep -q '^CONFIG_IDLE_CYCLE_INJECTOR=y' "$out/.config" ||
			grep -q '^CONFIG_KIDLED_GROUPS=y' "$out/.config"; }; then
			echo "nogroups: want the injector without its group features" >&2
			ok=0
		fi
		log "preparing $cfg (progress: $out/build.log)"
		[ $ok = 0 ] || mk prepare > "$out/build.log" 2>&1 || { tail -20 "$out/build.log" >&2; ok=0; }
		[ $ok = 0 ] || w1 "${OBJS[@]}" || ok=0
		;;
	debian)
		mkdir -p "$out"
		if [ ! -f "$out/.config" ] || [ "$DEBCONFIG" -nt "$out/.config" ]; then
			log "configuring $cfg ($DEBCONFIG + the injector)"
			xzcat "$DEBCONFIG" > "$out/.config"
			"$BUILDSRC/scripts/config" --file "$out/.config" -e IDLE_CYCLE_INJECTOR \
				--set-str SYSTEM_TRUSTED_KEYS "" --set-str SYSTEM_REVOCATION_KEYS ""
			mk -s olddefconfig >/dev/null
		fi
		for opt in IDLE_CYCLE_INJECTOR NO_HZ_FULL PREEMPT_DYNAMIC HZ_250; do
			grep -q "^CONFIG_$opt=y" "$out/.config" ||
				{ echo "CONFIG_$opt is not set" >&2; ok=0; }
		done
		log "preparing $cfg (progress: $out/build.log)"
		mk prepare > "$out/build.log" 2>&1 || { tail -20 "$out/build.log" >&2; ok=0; }
		[ $ok = 0 ] || w1 "${OBJS[@]}" || ok=0
		;;
	*) die "unknown configuration $cfg" ;;
	esac
	if [ $ok = 1 ]; then
		echo "ok $cfg: W=1 clean on the touched objects"
		pass=$((pass + 1))
	else
		echo "FAILED $cfg (logs in $out)"
		fail=$((fail + 1))
	fi
	log "matrix $cfg took $(( $(date +%s) - start ))s"
done
echo "$pass passed, $fail failed"
[ "$fail" = 0 ]
