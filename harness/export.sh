#!/bin/bash
# Regenerate patches/ and patches/series from the developer tree
# ($DEVSRC, branch kidled, on top of branch pristine).
. "$(dirname "$0")/common.sh"
[ -d "$DEVSRC" ] || die "no developer tree: run 'make edit' first"
rm -f "$REPO"/patches/*.patch
git -C "$DEVSRC" format-patch -q --no-signature --zero-commit -o "$REPO/patches" pristine..kidled
(cd "$REPO/patches" && ls *.patch) > "$REPO/patches/series"
log "exported $(wc -l < "$REPO/patches/series") patches to patches/"
