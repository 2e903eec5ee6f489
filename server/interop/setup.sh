#!/usr/bin/env bash
# Installs the Python OAuth client peers of the token service's interop
# test (server/interop), so that `SIGNET_INTEROP=1 go test ./interop/` (in
# server/) can run: Authlib, PyJWT[crypto] and requests with their
# dependencies, pinned with hashes in server/interop/python/requirements.txt,
# into the virtualenv server/interop/python/.venv.
# Safe to run repeatedly: the virtualenv is rebuilt only when it is missing,
# broken, or made from other pins or another interpreter.
#
# Usage: bash server/interop/setup.sh   (from any directory). PYTHON names the
#        interpreter to make the virtualenv with (default python3; CPython
#        >= 3.10, as Authlib needs).
set -euo pipefail

src="${BASH_SOURCE[0]}"
[[ "$src" == */* ]] || src="./$src"
here="$(cd "${src%/*}" && pwd)"

die() {
	echo "server/interop/setup.sh: $*" >&2
	exit 1
}

py_dir="$here/python"
reqs="$py_dir/requirements.txt"
venv="$py_dir/.venv"
vpy="$venv/bin/python"
python="${PYTHON:-python3}"
# What must import for the peer to run, and the versions it reports.
probe='import authlib, jwt, requests, cryptography; print("authlib", authlib.__version__, "pyjwt", jwt.__version__, "requests", requests.__version__)'

command -v "$python" >/dev/null 2>&1 ||
	die "$python is not installed (need CPython >= 3.10 with venv; e.g. apt-get install python3 python3-venv)"
[ -f "$reqs" ] || die "missing $reqs"
"$python" -c 'import sys; sys.exit(sys.version_info < (3, 10))' ||
	die "$("$python" --version 2>&1) is too old: Authlib needs Python >= 3.10"

# The stamp, written last, records what the virtualenv was made from: the
# pins and the interpreter. Any difference, or a virtualenv whose python no
# longer runs or imports the peers, means a rebuild.
stamp="$venv/.signet-stamp"
want="$(sha256sum "$reqs" | cut -d' ' -f1) $("$python" -c 'import sys; print(sys.implementation.name, sys.version.split()[0], sys.executable)')"
if [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$want" ] && versions="$("$vpy" -c "$probe" 2>/dev/null)"; then
	echo "server/interop/setup.sh: $venv is up to date with requirements.txt ($versions, $("$vpy" --version)); nothing to do"
	exit 0
fi

if [ -d "$venv" ]; then
	echo "server/interop/setup.sh: $venv is older than requirements.txt, made by another python, or incomplete; recreating"
else
	echo "server/interop/setup.sh: $venv is missing; creating"
fi
echo "+ $python -m venv --clear $venv"
"$python" -m venv --clear "$venv" ||
	die "$python -m venv failed (on Debian: apt-get install python3-venv)"
echo "+ $vpy -m pip install --require-hashes --no-deps -r $reqs"
"$vpy" -m pip install --disable-pip-version-check --no-input --quiet \
	--require-hashes --no-deps -r "$reqs" ||
	die "pip install failed (is PyPI reachable?)"
"$vpy" -m pip check --disable-pip-version-check >/dev/null ||
	die "the pinned Python packages are inconsistent: $("$vpy" -m pip check 2>&1)"
versions="$("$vpy" -c "$probe")" ||
	die "the peers do not import from $venv"
echo "$want" >"$stamp"
echo "server/interop/setup.sh: installed $versions with $("$vpy" --version) into $venv"
