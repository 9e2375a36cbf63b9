#!/bin/bash
# Install the Debian packages the harness needs, only when some are missing.
. "$(dirname "$0")/common.sh"
PKGS="linux-source-6.12 linux-config-6.12 qemu-system-x86 busybox-static flex bison bc
cpio libelf-dev libssl-dev ccache dwarves rsync python3 gcc make git xz-utils perl
kmod gnuplot-nox"
missing=()
for p in $PKGS; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'ok installed' || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0
log "installing: ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
