#!/bin/bash
# Check that every prefix of the series builds (W=1 clean on kidled files
# where they exist) and boots: "git am" one patch at a time in a separate
# worktree, build the test config, boot with the boot check.
# Not part of make test (about 1-2 minutes per patch with a warm ccache).
# BISECT_FROM=N only applies patches before the Nth (checked earlier);
# BISECT_TO=M stops after the Mth.
. "$(dirname "$0")/common.sh"
bash "$REPO/harness/tree.sh" pristine
wt=$CACHE/bisect-src
fresh_worktree "$wt"
out=$CACHE/out/bisect
pass=0 fail=0 n=0
while read -r p; do
	case "$p" in ''|'#'*) continue ;; esac
	n=$((n + 1))
	[ "$n" -le "${BISECT_TO:-100000}" ] || break
	git -C "$wt" am -q "$REPO/patches/$p" || die "$p does not apply"
	[ "$n" -ge "${BISECT_FROM:-1}" ] || continue
	if ! bash "$REPO/harness/build.sh" bisect "$wt" "$REPO/config/kidled.config" >/dev/null 2>"$CACHE/bisect.err"; then
		# options that only exist later in the series are expected to be missing
		if grep -q 'dropped: CONFIG_\(IDLE_CYCLE_INJECTOR\|KIDLED_KUNIT_TEST\)' "$CACHE/bisect.err" &&
		   ! grep -v 'IDLE_CYCLE_INJECTOR\|KIDLED_KUNIT_TEST' "$CACHE/bisect.err" | grep -q '^dropped:'; then
			grep -v 'IDLE_CYCLE_INJECTOR\|KIDLED_KUNIT_TEST' "$REPO/config/kidled.config" > "$CACHE/bisect.config"
			bash "$REPO/harness/build.sh" bisect "$wt" "$CACHE/bisect.config" >/dev/null 2>&1 ||
				{ echo "not ok $n - build: $p"; fail=$((fail + 1)); continue; }
		else
			echo "not ok $n - build: $p"; cat "$CACHE/bisect.err"; fail=$((fail + 1)); continue
		fi
	fi
	bash "$REPO/harness/initramfs.sh" "$wt" "$out/initramfs.cpio.gz"
	if python3 "$REPO/harness/qemu.py" --kernel "$out/arch/x86/boot/bzImage" \
		--initrd "$out/initramfs.cpio.gz" --append kidled_mode=boot \
		--log "$out/boot-$n.log" --timeout 600 >/dev/null; then
		echo "ok $n - builds and boots: $p"; pass=$((pass + 1))
	else
		echo "not ok $n - boot: $p ($out/boot-$n.log)"; fail=$((fail + 1))
	fi
done < "$REPO/patches/series"
git -C "$SRC" worktree remove -f "$wt" >/dev/null 2>&1 || true
echo "$pass passed, $fail failed"
[ "$fail" = 0 ]
