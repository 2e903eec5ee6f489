#!/usr/bin/env bash
# Installs the interop peer (npm jose, pinned in interop/node/package-lock.json)
# into interop/node/node_modules, so that `SIGNET_INTEROP=1 go test ./interop/`
# can run. Safe to run repeatedly: it reinstalls only when node_modules is
# missing or older than package-lock.json.
#
# Usage: bash interop/setup.sh   (from any directory)
set -euo pipefail

src="${BASH_SOURCE[0]}"
[[ "$src" == */* ]] || src="./$src"
here="$(cd "${src%/*}" && pwd)"
node_dir="$here/node"
lock="$node_dir/package-lock.json"
modules="$node_dir/node_modules"

die() {
	echo "interop/setup.sh: $*" >&2
	exit 1
}

command -v node >/dev/null 2>&1 ||
	die "node is not installed (need Node.js >= 20; e.g. apt-get install nodejs npm)"
command -v npm >/dev/null 2>&1 ||
	die "npm is not installed (need npm to install the pinned jose; e.g. apt-get install npm)"
[ -f "$lock" ] || die "missing $lock"

node_major="$(node -p 'process.versions.node.split(".")[0]')"
[ "$node_major" -ge 20 ] ||
	die "node $(node --version) is too old: jose 6 needs Node.js >= 20"

# node_modules/.package-lock.json is written by npm on every install; it is
# the freshest mark of when node_modules was last made.
stamp="$modules/.package-lock.json"
if [ -d "$modules" ] && [ -f "$stamp" ] && [ ! "$lock" -nt "$stamp" ]; then
	echo "interop/setup.sh: $modules is up to date with package-lock.json (node $(node --version)); nothing to do"
	exit 0
fi

if [ -d "$modules" ]; then
	echo "interop/setup.sh: $modules is older than package-lock.json or incomplete; reinstalling"
else
	echo "interop/setup.sh: $modules is missing; installing"
fi
echo "+ npm ci --prefix $node_dir --no-audit --no-fund"
npm ci --prefix "$node_dir" --no-audit --no-fund ||
	die "npm ci failed (is the npm registry reachable?)"
version="$(node -p 'require(process.argv[1]).version' "$modules/jose/package.json")"
echo "interop/setup.sh: installed jose $version with node $(node --version)"
