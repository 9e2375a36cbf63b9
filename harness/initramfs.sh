#!/bin/bash
# Build the guest initramfs: static busybox, /init, guest tools and the
# kidled kselftests built from the source tree SRC; with OBJ (a kernel
# build with modules), also the benchmark's idle_inject test module and
# the selftests' test modules.
#   initramfs.sh SRC OUT.cpio.gz [OBJ]
. "$(dirname "$0")/common.sh"
src=$1 out=$2 obj=${3:-}
work=$CACHE/initramfs.$$
trap 'rm -rf "$work"' EXIT
mkdir -p "$work"/{bin,sbin,proc,sys,dev,tmp,guest,selftests/kidled,usr/bin,bench}
cp /bin/busybox "$work/bin/busybox"
file -L "$work/bin/busybox" 2>/dev/null | grep -q 'statically linked' || [ ! -x /usr/bin/file ] ||
	die "/bin/busybox is not static (install busybox-static)"
for p in guest-exit kidled-top hog ptyrun pingpong hackbench bench timerlat; do
	gcc -static -O2 -Wall -o "$work/bin/$p" "$REPO/guest/$p.c"
done
# the 2010 cover letter's test program, unchanged, when the seeds are here
seed=${KIDLED_SEEDS:-$REPO/../shared/seeds}/001-cover-idle-cycle-injector-for-power-capping.txt
if [ -f "$seed" ]; then
	awk 'on && /^---$/ { exit } on { print; next }
		prev == "/*" && /A set of tests for the idle cycle injector/ { on = 1; print prev; print }
		{ prev = $0 }' "$seed" > "$work/seed_test.c"
	gcc -static -O2 -w -o "$work/bin/kidled_seed_test" "$work/seed_test.c" ||
		die "cannot build the seed's test program from $seed"
	rm "$work/seed_test.c"
else
	log "seed test program not found ($seed): seed tests will skip"
fi
if [ -n "$obj" ] && [ -f "$obj/Module.symvers" ]; then
	bash "$REPO/harness/module.sh" "$src" "$obj" "$work/bench/kidled_bench_ii.ko"
fi
cp "$REPO/guest/init" "$work/init"
cp "$REPO"/guest/*.sh "$work/guest/"
st=$src/tools/testing/selftests/kidled
if [ -d "$st" ]; then
	# the selftests' test modules (TEST_GEN_MODS_DIR) need a kernel
	# build with modules; without one, lib.mk skips them
	kdir=/nonexistent
	[ -n "$obj" ] && [ -f "$obj/Module.symvers" ] && kdir=$obj
	make -s -C "$st" OUTPUT="$work/selftests/kidled" KDIR="$kdir" W=1 \
		LDFLAGS=-static >/dev/null
	find "$work/selftests/kidled" -name '*.o' -delete
	if [ "$kdir" != /nonexistent ] && [ -d "$st/test_modules" ]; then
		mkdir -p "$work/selftests/kidled/test_modules"
		cp "$st"/test_modules/*.ko "$work/selftests/kidled/test_modules/" ||
			die "the kidled selftests' test modules did not build"
	fi
fi
(cd "$work" && find . | cpio -o -H newc --quiet | gzip -1) > "$out"
