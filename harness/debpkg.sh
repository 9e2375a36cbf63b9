#!/bin/bash
# Installable Debian kernel packages with kidled (README "Debian packages"):
# Debian's production config (linux-config-6.12, amd64 none) with the
# injector on, built with `make bindeb-pkg` from the patched tree. Then the
# packaged kernel is unpacked and booted in QEMU with the test initramfs,
# which shows kidled holding its targets (the `make run` job).
#   debpkg.sh          Debian's full config: hours on 2 cores
#   debpkg.sh --trim   the same without modules this machine has not loaded
#                      (localmodconfig) and without debug info: what the
#                      harness tries; the built-in kernel is Debian's
# Not part of make test. Packages land in $CACHE/out/debpkg-pkgs/.
. "$(dirname "$0")/common.sh"
trim=0
[ "${1:-}" = --trim ] && trim=1
DEBCONFIG=/usr/src/linux-config-6.12/config.amd64_none_amd64.xz
bash "$REPO/harness/deps.sh"
for p in debhelper dpkg-dev; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'ok installed' ||
		DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "$p" >/dev/null
done
bash "$REPO/harness/tree.sh" build
out=$CACHE/out/debpkg/obj
pkgs=$CACHE/out/debpkg-pkgs
rm -rf "$out" "$pkgs"
mkdir -p "$out" "$pkgs"
mk() { make -C "$BUILDSRC" O="$out" ARCH=x86_64 -j"$(nproc)" "$@"; }
xzcat "$DEBCONFIG" > "$out/.config"
# Debian signs with its own keys; a local build uses none (or the operator's)
"$BUILDSRC/scripts/config" --file "$out/.config" -e IDLE_CYCLE_INJECTOR \
	--set-str SYSTEM_TRUSTED_KEYS "" --set-str SYSTEM_REVOCATION_KEYS "" \
	--set-str LOCALVERSION "-kidled"
if [ $trim = 1 ]; then
	lsmod=$(mktemp)
	lsmod > "$lsmod" 2>/dev/null || true
	mk -s LSMOD="$lsmod" localmodconfig >/dev/null 2>&1
	rm -f "$lsmod"
	"$BUILDSRC/scripts/config" --file "$out/.config" -d DEBUG_INFO_DWARF5 \
		-d DEBUG_INFO_DWARF_TOOLCHAIN_DEFAULT -d DEBUG_INFO_BTF -e DEBUG_INFO_NONE
fi
mk -s olddefconfig >/dev/null
grep -q '^CONFIG_IDLE_CYCLE_INJECTOR=y' "$out/.config" || die "the injector is not on"
log "building Debian packages in $out (log: $out/../build.log)"
start=$(date +%s)
# the packages go to the parent of the object tree
mk bindeb-pkg > "$out/../build.log" 2>&1 || { tail -30 "$out/../build.log" >&2; die "bindeb-pkg failed"; }
mv "$out"/../*.deb "$out"/../*.buildinfo "$out"/../*.changes "$pkgs"/ 2>/dev/null || true
log "built in $(( $(date +%s) - start ))s: $(cd "$pkgs" && ls -- *.deb | paste -sd' ')"
image=$(ls "$pkgs"/linux-image-*.deb | grep -v -- -dbg_ | head -1)
rm -rf "$out/../unpacked"
dpkg-deb -x "$image" "$out/../unpacked"
kernel=$(ls "$out"/../unpacked/boot/vmlinuz-* | head -1)
config=$(ls "$out"/../unpacked/boot/config-* | head -1)
grep -q '^CONFIG_IDLE_CYCLE_INJECTOR=y' "$config" || die "packaged config lacks the injector"
log "booting the packaged kernel $(basename "$kernel")"
test_out=$CACHE/out/test
bash "$REPO/harness/kernel.sh" test >/dev/null
python3 "$REPO/harness/qemu.py" --kernel "$kernel" --initrd "$test_out/initramfs.cpio.gz" \
	--append "kidled_mode=run" --log "$out/../run.log" --timeout 1200 \
	--echo --echo-filter '^[^\[]'
