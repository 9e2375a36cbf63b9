#!/bin/bash
# Move the developer tree onto the installed linux-source-6.12: re-extract
# the pristine tree and apply the series with 3-way merges; resolve any
# conflict in $DEVSRC with git am, then run 'make export'.
. "$(dirname "$0")/common.sh"
ver=$(installed_version)
log "rebasing the series from $BASE_VERSION onto $ver"
rm -rf "$DEVSRC"
bash "$REPO/harness/tree.sh" pristine
git -C "$SRC" worktree prune
git -C "$SRC" worktree add -q -B kidled "$DEVSRC" pristine
while read -r p; do
	case "$p" in ''|'#'*) continue ;; esac
	git -C "$DEVSRC" am -3 -q "$REPO/patches/$p" ||
		die "conflict in $p: fix it in $DEVSRC, 'git am --continue', re-run the rest, then 'make export'"
done < "$REPO/patches/series"
echo "$ver" > "$REPO/config/base-version"
log "series rebased onto $ver; run 'make export' and 'make test'"
