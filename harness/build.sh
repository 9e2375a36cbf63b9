#!/bin/bash
# Configure (tinyconfig + fragments; for the lane "prod" Debian's production
# config instead of tinyconfig) and build bzImage out of tree.
#   build.sh LANE SRCDIR FRAGMENT...   -> $CACHE/out/LANE/arch/x86/boot/bzImage
# Fails if olddefconfig dropped any option the fragments request.
. "$(dirname "$0")/common.sh"
lane=$1 src=$2; shift 2
out=$CACHE/out/$lane
mkdir -p "$out" "$CCACHE_DIR"
# merge the fragments; a later fragment's value of an option wins
cat "$@" | awk -F= '/^CONFIG_/ { v[$1] = $0; if (!($1 in o)) { o[$1] = n++; k[n - 1] = $1 } }
	END { for (i = 0; i < n; i++) print v[k[i]] }' > "$out/fragment.new"
mk() { make -C "$src" O="$out" ARCH=x86_64 CC="ccache gcc" HOSTCC="ccache gcc" -j"$(nproc)" "$@"; }
DEBCONFIG=/usr/src/linux-config-6.12/config.amd64_none_amd64.xz
if ! cmp -s "$out/fragment.new" "$out/fragment" || [ ! -f "$out/.config" ]; then
	if [ "$lane" = prod ]; then
		# Debian's production config, its built-in part: localmodconfig
		# with an lsmod listing no module turns every =m off
		log "configuring $lane (Debian's config, built-in part + $*)"
		xzcat "$DEBCONFIG" > "$out/.config"
		echo "Module                  Size  Used by" > "$out/lsmod.empty"
		mk -s LSMOD="$out/lsmod.empty" localmodconfig >/dev/null 2>&1
		cp "$out/.config" "$out/.config.debian"
	else
		log "configuring $lane (tinyconfig + $*)"
		mk -s tinyconfig >/dev/null
	fi
	"$src/scripts/kconfig/merge_config.sh" -m -O "$out" "$out/.config" "$out/fragment.new" >/dev/null
	mk -s olddefconfig >/dev/null
	bad=0
	while IFS= read -r line; do
		case "$line" in CONFIG_*=*) ;; *) continue ;; esac
		opt=${line%%=*} val=${line#*=}
		if [ "$val" = n ]; then
			grep -q "^$opt=" "$out/.config" && { echo "dropped: $line" >&2; bad=1; }
		else
			grep -qx "$line" "$out/.config" || { echo "dropped: $line (have: $(grep "^$opt=\|$opt is not" "$out/.config"))" >&2; bad=1; }
		fi
	done < "$out/fragment.new"
	# the production lane trims what a guest never reaches (prod.config),
	# never what the scheduler, the tick, accounting, cgroups, idle or
	# tracing depend on: those must still be Debian's own values
	if [ "$lane" = prod ]; then
		keep='^CONFIG_(HZ|NO_HZ|PREEMPT|VIRT_CPU_ACCOUNTING|TICK_CPU_ACCOUNTING|IRQ_TIME_ACCOUNTING|CONTEXT_TRACKING|SCHED_|CGROUP|FAIR_GROUP|CFS_BANDWIDTH|RT_GROUP|UCLAMP|PSI|NUMA|RCU_|CPU_IDLE|CPU_FREQ|INTEL_IDLE|HALTPOLL|HIGH_RES_TIMERS|PARAVIRT|KVM_GUEST|X86_X2APIC|NR_CPUS|HOTPLUG_CPU|SUSPEND|PM_SLEEP|THERMAL|POWERCAP|IDLE_INJECT|FTRACE|FUNCTION_TRACER|KPROBES|BPF_SYSCALL|PERF_EVENTS|MEMCG|CPUSETS)'
		if ! diff <(grep -E "$keep" "$out/.config.debian") <(grep -E "$keep" "$out/.config" |
			grep -v '^CONFIG_CPUSETS_V1=') >&2; then
			bad=1
			echo "prod.config changed Debian's scheduler/timer/accounting options (above)" >&2
		fi
	fi
	[ $bad = 0 ] || { rm -f "$out/.config"; die "olddefconfig dropped requested options (see above)"; }
	mv "$out/fragment.new" "$out/fragment"
fi
# KIDLED_CONFIGURE_ONLY=1: stop here (the build matrix compiles objects only)
[ "${KIDLED_CONFIGURE_ONLY:-0}" = 1 ] && exit 0
log "building $lane kernel in $out (progress: $out/build.log)"
start=$(date +%s)
targets=(bzImage)
# modules: Module.symvers, for the benchmark's idle_inject test module
grep -q '^CONFIG_MODULES=y' "$out/.config" && targets+=(modules)
mk "${targets[@]}" > "$out/build.log" 2>&1 &
pid=$!
while kill -0 $pid 2>/dev/null; do
	sleep 15
	kill -0 $pid 2>/dev/null &&
		log "  ... $(grep -c '^  CC' "$out/build.log") files compiled, $(( $(date +%s) - start ))s"
done
if ! wait $pid; then
	grep -E 'error|Error' "$out/build.log" | head -30 >&2
	die "kernel build failed ($lane), log: $out/build.log"
fi
grep -E '(warning|error):' "$out/build.log" >&2 || true
log "built $lane in $(( $(date +%s) - start ))s"
