#!/usr/bin/env bash
# Makes (or confirms) a pinned Python virtualenv for a test's peers: DIR/.venv
# from DIR/requirements.txt (pinned with hashes: pip install --require-hashes
# --no-deps, then pip check). The virtualenv is rebuilt only when it is
# missing, broken, or made from other pins or another interpreter (recorded
# in DIR/.venv/.signet-stamp, written last).
#
# Usage: bash scripts/pyvenv.sh NAME DIR PROBE
#   NAME   what to call the caller in messages (e.g. interop/setup.sh)
#   DIR    the folder holding requirements.txt
#   PROBE  Python code that imports the peers and prints their versions
# PYTHON names the interpreter (default python3; CPython >= 3.10).
set -euo pipefail

[ "$#" -eq 3 ] || { echo "usage: scripts/pyvenv.sh NAME DIR PROBE" >&2; exit 2; }
name="$1" py_dir="$2" probe="$3"
reqs="$py_dir/requirements.txt"
venv="$py_dir/.venv"
vpy="$venv/bin/python"
python="${PYTHON:-python3}"

die() {
	echo "$name: $*" >&2
	exit 1
}

command -v "$python" >/dev/null 2>&1 ||
	die "$python is not installed (need CPython >= 3.10 with venv; e.g. apt-get install python3 python3-venv)"
[ -f "$reqs" ] || die "missing $reqs"
"$python" -c 'import sys; sys.exit(sys.version_info < (3, 10))' ||
	die "$("$python" --version 2>&1) is too old: the peers need Python >= 3.10"

stamp="$venv/.signet-stamp"
want="$(sha256sum "$reqs" | cut -d' ' -f1) $("$python" -c 'import sys; print(sys.implementation.name, sys.version.split()[0], sys.executable)')"
if [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$want" ] && versions="$("$vpy" -c "$probe" 2>/dev/null)"; then
	echo "$name: $venv is up to date with requirements.txt ($versions, $("$vpy" --version)); nothing to do"
	exit 0
fi

if [ -d "$venv" ]; then
	echo "$name: $venv is older than requirements.txt, made by another python, or incomplete; recreating"
else
	echo "$name: $venv is missing; creating"
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
echo "$name: installed $versions with $("$vpy" --version) into $venv"
