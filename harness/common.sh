# shellcheck shell=bash
# Common settings for the kidled harness; sourced by the other scripts.
set -euo pipefail
REPO=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
CACHE=${KIDLED_CACHE:-/var/cache/kidled}
SRC=$CACHE/linux            # git tree of the pristine Debian source (branch pristine)
BUILDSRC=$CACHE/build-src   # worktree with the series applied (managed by the harness)
DEVSRC=$CACHE/dev-src       # worktree for developers (branch kidled)
BASE_VERSION=$(cat "$REPO/config/base-version")
export CCACHE_DIR=$CACHE/ccache
log() { printf '[%s] %s\n' "$(date +%H:%M:%S)" "$*" >&2; }
die() { printf 'ERROR: %s\n' "$*" >&2; exit 1; }
installed_version() { dpkg-query -W -f='${Version}' linux-source-6.12 2>/dev/null || true; }
# (Re)create a detached worktree of the pristine tree at $1.
fresh_worktree() {
	git -C "$SRC" worktree remove -f "$1" >/dev/null 2>&1 || rm -rf "$1"
	git -C "$SRC" worktree prune
	git -C "$SRC" worktree add -q --detach "$1" pristine
}
