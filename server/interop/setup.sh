#!/usr/bin/env bash
# Installs the OAuth client peers of the token service's interop test
# (server/interop), so that `SIGNET_INTEROP=1 go test ./interop/` (in
# server/) can run:
#   node    npm openid-client (with oauth4webapi) and jose, pinned with
#           integrity hashes in server/interop/node/package-lock.json, into
#           server/interop/node/node_modules (npm ci);
#   python  Authlib, PyJWT[crypto] and requests with their dependencies,
#           pinned with hashes in server/interop/python/requirements.txt,
#           into the virtualenv server/interop/python/.venv.
# Safe to run repeatedly: each peer is reinstalled only when it is missing,
# broken, or older than its pins (the virtualenv also when made by another
# interpreter).
#
# Usage: bash server/interop/setup.sh [node] [python]   (from any directory;
#        no argument installs both). PYTHON names the interpreter to make the
#        virtualenv with (default python3; CPython >= 3.10, as Authlib
#        needs).
set -euo pipefail

src="${BASH_SOURCE[0]}"
[[ "$src" == */* ]] || src="./$src"
here="$(cd "${src%/*}" && pwd)"
name=server/interop/setup.sh

die() {
	echo "$name: $*" >&2
	exit 1
}

# The npm packages the peer imports, whose versions are reported.
node_pkgs=(openid-client oauth4webapi jose)

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
	[[ "$node_major" =~ ^[0-9]+$ ]] || die "cannot read node's version (got '$node_major')"
	[ "$node_major" -ge 20 ] ||
		die "node $(node --version) is too old: openid-client 6 and jose 6 need Node.js >= 20"

	# npm writes node_modules/.package-lock.json on every install: the
	# freshest mark of when node_modules was last made.
	local stamp="$modules/.package-lock.json" pkg complete=1
	for pkg in "${node_pkgs[@]}"; do
		[ -f "$modules/$pkg/package.json" ] || complete=0
	done
	if [ "$complete" = 1 ] && [ -f "$stamp" ] && [ ! "$lock" -nt "$stamp" ]; then
		echo "$name: $modules is up to date with package-lock.json (node $(node --version)); nothing to do"
		return 0
	fi

	if [ -d "$modules" ]; then
		echo "$name: $modules is older than package-lock.json or incomplete; reinstalling"
	else
		echo "$name: $modules is missing; installing"
	fi
	# npm ci installs exactly the lock (integrity hashes checked) and
	# fails if package.json and the lock disagree; --prefer-offline uses
	# npm's cache first, so a rerun needs no network.
	echo "+ npm ci --prefix $node_dir --no-audit --no-fund --prefer-offline"
	npm ci --prefix "$node_dir" --no-audit --no-fund --prefer-offline ||
		die "npm ci failed (is the npm registry reachable?)"
	local version
	for pkg in "${node_pkgs[@]}"; do
		version="$(node -p 'require(process.argv[1]).version' "$modules/$pkg/package.json")" ||
			die "$pkg is not in $modules after npm ci"
		echo "$name: installed $pkg $version with node $(node --version)"
	done
}

setup_python() {
	# What must import for the peer to run, and the versions it reports.
	local probe='import authlib, jwt, requests, cryptography; print("authlib", authlib.__version__, "pyjwt", jwt.__version__, "requests", requests.__version__)'
	bash "$here/../../scripts/pyvenv.sh" "$name" "$here/python" "$probe"
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
