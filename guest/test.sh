#!/bin/sh
# Run every kselftest in /selftests/kidled; KTAP goes to the console.
# kidled_only=NAME[,NAME...] on the kernel command line runs only those
# kidled_NAME tests (the KASAN and production lanes, and developers).
# kidled_skip=NAME[,NAME...] leaves those out, and kidled_busy=I:P[,I:P...]
# gives kidled_busy its cases (the debug lane, to fit CI's time).
only=$(sed -n 's/.*kidled_only=\([a-z_,]*\).*/\1/p' /proc/cmdline)
skip=$(sed -n 's/.*kidled_skip=\([a-z_,]*\).*/\1/p' /proc/cmdline)
busy=$(sed -n 's/.*kidled_busy=\([0-9:,]*\).*/\1/p' /proc/cmdline | tr , ' ')
# kidled_verbose: tests that can tell more (who else ran) tell it always
grep -qw kidled_verbose /proc/cmdline && export KIDLED_VERBOSE=1
# Boot work still running (the crypto self-tests of Debian's config take
# a few seconds of every CPU) would count against the first test's tasks.
i=0
while [ $i -lt 30 ] && grep -qs '^cryptomgr' /proc/[0-9]*/comm; do
	sleep 1
	i=$((i + 1))
done
rc=0
n=0
for t in /selftests/kidled/*; do
	[ -f "$t" ] && [ -x "$t" ] || continue
	name=$(basename "$t" | sed 's/^kidled_//')
	case ",$only," in
	,,|*",$name,"*) ;;
	*) continue ;;
	esac
	case ",$skip," in
	*",$name,"*) continue ;;
	esac
	n=$((n + 1))
	echo "# selftest: kidled:$(basename "$t")"
	if [ "$name" = busy ]; then
		# shellcheck disable=SC2086
		"$t" $busy || rc=1
	else
		"$t" || rc=1
	fi
done
# a short run of every make bench workload, so that they cannot rot
case ",$only," in
,,|*,bench,*)
	n=$((n + 1))
	echo "# selftest: bench:smoke"
	/guest/bench.sh smoke || rc=1 ;;
esac
[ $n -gt 0 ] || rc=1
exit $rc
