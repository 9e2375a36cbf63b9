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
