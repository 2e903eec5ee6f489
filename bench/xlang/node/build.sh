#!/usr/bin/env bash
# Installs npm jose, pinned exactly in package-lock.json, into
# bench/xlang/node/node_modules (see bench/xlang/README.md for the contract).
# Safe to run repeatedly: `npm ci` runs only when node_modules is missing or
# older than the lock.
#
# Exit status: 0 built, 3 toolchain missing or too old (node >= 20 and npm
# are needed; "missing toolchain: ..." on stderr), 1 any other failure.
set -euo pipefail

src="${BASH_SOURCE[0]}"
[[ "$src" == */* ]] || src="./$src"
here="$(cd "${src%/*}" && pwd)"

missing() {
	echo "missing toolchain: $*" >&2
	exit 3
}

die() {
	echo "bench/xlang/node/build.sh: $*" >&2
	exit 1
}

command -v node >/dev/null 2>&1 || missing "node (Node.js >= 20; e.g. apt-get install nodejs npm)"
command -v npm >/dev/null 2>&1 || missing "npm (to install the pinned jose; e.g. apt-get install npm)"
node_major="$(node -p 'process.versions.node.split(".")[0]' 2>/dev/null)" ||
	missing "a working node (node -p failed)"
[[ "$node_major" =~ ^[0-9]+$ ]] || missing "a node whose version can be read (got '$node_major')"
[ "$node_major" -ge 20 ] || missing "node >= 20 (jose 6 needs it; found $(node --version))"

lock="$here/package-lock.json"
modules="$here/node_modules"
[ -f "$lock" ] || die "missing $lock"

# npm writes node_modules/.package-lock.json on every install: the freshest
# mark of when node_modules was last made.
stamp="$modules/.package-lock.json"
if [ -d "$modules" ] && [ -f "$stamp" ] && [ -f "$modules/jose/package.json" ] && [ ! "$lock" -nt "$stamp" ]; then
	exit 0
fi

echo "+ npm ci --prefix $here --no-audit --no-fund" >&2
npm ci --prefix "$here" --no-audit --no-fund >&2 ||
	die "npm ci failed (is the npm registry reachable?)"
version="$(node -p 'require(process.argv[1]).version' "$modules/jose/package.json")" ||
	die "jose is not in $modules after npm ci"
echo "bench/xlang/node/build.sh: installed jose $version with node $(node --version)" >&2
