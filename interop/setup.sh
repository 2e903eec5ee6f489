#!/usr/bin/env bash
# Installs the interop peers, so that `SIGNET_INTEROP=1 go test ./interop/`
# can run:
#   node    npm jose and http-message-signatures (with structured-headers),
#           pinned in interop/node/package-lock.json, into
#           interop/node/node_modules;
#   python  pyseto and its dependencies, pinned with hashes in
#           interop/python/requirements.txt, into the virtualenv
#           interop/python/.venv.
# Safe to run repeatedly: each peer is reinstalled only when it is missing or
# older than its pins.
#
# Usage: bash interop/setup.sh [node] [python]   (from any directory; no
#        argument installs both). PYTHON names the interpreter to make the
#        virtualenv with (default python3; CPython >= 3.10).
set -euo pipefail

src="${BASH_SOURCE[0]}"
[[ "$src" == */* ]] || src="./$src"
here="$(cd "${src%/*}" && pwd)"

die() {
	echo "interop/setup.sh: $*" >&2
	exit 1
}

setup_node() {
	local node_dir="$here/node"
	local lock="$node_dir/package-lock.json"
	local modules="$node_dir/node_modules"

	command -v node >/dev/null 2>&1 ||
		die "node is not installed (need Node.js >= 20; e.g. apt-get install nodejs npm)"
	command -v npm >/dev/null 2>&1 ||
		die "npm is not installed (need npm to install the pinned node peers; e.g. apt-get install npm)"
	[ -f "$lock" ] || die "missing $lock"

	local node_major
	node_major="$(node -p 'process.versions.node.split(".")[0]')"
	[ "$node_major" -ge 20 ] ||
		die "node $(node --version) is too old: jose 6 needs Node.js >= 20"

	# node_modules/.package-lock.json is written by npm on every install; it is
	# the freshest mark of when node_modules was last made.
	local stamp="$modules/.package-lock.json"
	if [ -d "$modules" ] && [ -f "$stamp" ] && [ ! "$lock" -nt "$stamp" ]; then
		echo "interop/setup.sh: $modules is up to date with package-lock.json (node $(node --version)); nothing to do"
		return 0
	fi

	if [ -d "$modules" ]; then
		echo "interop/setup.sh: $modules is older than package-lock.json or incomplete; reinstalling"
	else
		echo "interop/setup.sh: $modules is missing; installing"
	fi
	echo "+ npm ci --prefix $node_dir --no-audit --no-fund"
	npm ci --prefix "$node_dir" --no-audit --no-fund ||
		die "npm ci failed (is the npm registry reachable?)"
	local pkg version
	for pkg in jose http-message-signatures; do
		version="$(node -p 'require(process.argv[1]).version' "$modules/$pkg/package.json")"
		echo "interop/setup.sh: installed $pkg $version with node $(node --version)"
	done
}

setup_python() {
	bash "$here/../scripts/pyvenv.sh" interop/setup.sh "$here/python" \
		'import pyseto; print("pyseto", pyseto.__version__)'
}

peers=("$@")
[ "${#peers[@]}" -gt 0 ] || peers=(node python)
for peer in "${peers[@]}"; do
	case "$peer" in
	node) setup_node ;;
	python) setup_python ;;
	*) die "unknown peer $peer (want node or python)" ;;
	esac
done
