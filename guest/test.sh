#!/bin/sh
# Run every kselftest in /selftests/kidled; KTAP goes to the console.
rc=0
n=0
for t in /selftests/kidled/*; do
	[ -x "$t" ] || continue
	n=$((n + 1))
	echo "# selftest: kidled:$(basename "$t")"
	"$t" || rc=1
done
[ $n -gt 0 ] || rc=1
exit $rc
