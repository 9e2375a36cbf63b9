#!/bin/sh
# Run every kselftest in /selftests/kidled; KTAP goes to the console.
# kidled_only=NAME[,NAME...] on the kernel command line runs only those
# kidled_NAME tests (the KASAN and production lanes, and developers).
only=$(sed -n 's/.*kidled_only=\([a-z_,]*\).*/\1/p' /proc/cmdline)
rc=0
n=0
for t in /selftests/kidled/*; do
	[ -x "$t" ] || continue
	case ",$only," in
	,,|*",$(basename "$t" | sed 's/^kidled_//'),"*) ;;
	*) continue ;;
	esac
	n=$((n + 1))
	echo "# selftest: kidled:$(basename "$t")"
	"$t" || rc=1
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
