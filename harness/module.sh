#!/bin/bash
# Build the benchmark's idle_inject test module (bench/module) against a
# kernel build: module.sh SRCDIR OBJDIR DEST.ko
. "$(dirname "$0")/common.sh"
src=$1 obj=$2 dest=$3
work=$CACHE/module.$$
trap 'rm -rf "$work"' EXIT
mkdir -p "$work"
cp "$REPO"/bench/module/{Kbuild,*.c} "$work/"
make -s -C "$src" O="$obj" ARCH=x86_64 CC="ccache gcc" W=1 M="$work" modules >"$work/log" 2>&1 ||
	{ cat "$work/log" >&2; die "cannot build the idle_inject test module"; }
if grep -E 'warning|error' "$work/log" >&2; then die "warnings in the test module"; fi
cp "$work/kidled_bench_ii.ko" "$dest"
