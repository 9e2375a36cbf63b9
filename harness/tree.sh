#!/bin/bash
# Extract Debian's linux-source-6.12 once into a git tree (branch "pristine")
# in the cache, then lay the series from patches/ onto a worktree for builds.
#   tree.sh pristine   - only make sure the pristine git tree exists
#   tree.sh build      - (re)apply the series in $BUILDSRC (default)
#   tree.sh dev        - create $DEVSRC on branch "kidled" with the series
. "$(dirname "$0")/common.sh"
mode=${1:-build}
ver=$(installed_version)
[ -n "$ver" ] || die "linux-source-6.12 is not installed (run harness/deps.sh)"

if [ ! -f "$SRC/.kidled-pristine" ] || [ "$(cat "$SRC/.kidled-pristine")" != "$ver" ]; then
	log "extracting linux-source-6.12 $ver into $SRC (once)"
	rm -rf "$SRC" "$BUILDSRC" "$DEVSRC"
	mkdir -p "$CACHE"
	tmp=$CACHE/extract.$$
	mkdir -p "$tmp"
	tar -C "$tmp" -xf /usr/src/linux-source-6.12.tar.xz
	mv "$tmp"/linux-source-6.12 "$SRC"
	rmdir "$tmp"
	cd "$SRC"
	git init -q -b pristine
	git config user.name "kidled harness"
	git config user.email "kidled@localhost"
	git config core.autocrlf false
	# Debian's tarball has a top-level .gitignore of "/*": force-add everything.
	git add -f -A .
	git commit -q -m "Debian linux-source-6.12 $ver"
	git tag -f "debian-$(echo "$ver" | tr '~:' '__')" >/dev/null
	echo "$ver" > .kidled-pristine
	git worktree prune
fi
[ "$mode" = pristine ] && exit 0

apply_series() { # $1 = worktree
	local wt=$1 p
	while read -r p; do
		case "$p" in ''|'#'*) continue ;; esac
		if ! git -C "$wt" am -q --keep-cr "$REPO/patches/$p" >/dev/null 2>&1; then
			git -C "$wt" am --abort >/dev/null 2>&1 || true
			echo "$p"
			return 1
		fi
	done < "$REPO/patches/series"
}

if [ "$mode" = dev ]; then
	if [ ! -d "$DEVSRC" ]; then
		git -C "$SRC" worktree add -q -B kidled "$DEVSRC" pristine
		failed=$(apply_series "$DEVSRC") || die "patch $failed does not apply"
		log "developer tree ready: $DEVSRC (branch kidled); 'make export' writes patches/"
	else
		log "developer tree exists: $DEVSRC"
	fi
	exit 0
fi

# build worktree: reset to pristine and apply the series (only if it changed)
stamp=$( (echo "$ver"; cat "$REPO/patches/series"; cd "$REPO/patches" && cat $(grep -v '^#' series)) | sha1sum | cut -c1-16)
if [ -d "$BUILDSRC" ] && [ "$(cat "$BUILDSRC/.kidled-series" 2>/dev/null)" = "$stamp" ]; then
	exit 0
fi
[ -d "$BUILDSRC" ] || git -C "$SRC" worktree add -q --detach "$BUILDSRC" pristine
git -C "$BUILDSRC" am --abort >/dev/null 2>&1 || true
git -C "$BUILDSRC" checkout -q -f --detach pristine
git -C "$BUILDSRC" clean -q -fdx -e .kidled-series
if ! failed=$(apply_series "$BUILDSRC"); then
	if [ "$ver" != "$BASE_VERSION" ]; then
		die "patch $failed no longer applies: the series was last tested on
linux-source-6.12 $BASE_VERSION (config/base-version) but $ver is installed.
Rebase it with:  make rebase   (then fix conflicts in $DEVSRC and run 'make export')"
	fi
	die "patch $failed does not apply to linux-source-6.12 $ver"
fi
[ "$ver" = "$BASE_VERSION" ] || log "WARNING: series tested on $BASE_VERSION, applied cleanly to $ver"
echo "$stamp" > "$BUILDSRC/.kidled-series"
log "series applied in $BUILDSRC"
