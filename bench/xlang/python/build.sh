#!/usr/bin/env bash
# Installs PyJWT and cryptography, pinned with hashes in requirements.txt,
# into the virtualenv bench/xlang/python/.venv (see bench/xlang/README.md for
# the contract). Safe to run repeatedly: the virtualenv is remade only when
# the pins or the interpreter changed (recorded in .venv/.signet-stamp) or it
# no longer works.
#
# PYTHON names the interpreter to make the virtualenv with (default python3;
# CPython >= 3.10 with venv and ensurepip).
#
# Exit status: 0 built, 3 toolchain missing or too old ("missing toolchain:
# ..." on stderr), 1 any other failure.
set -euo pipefail

src="${BASH_SOURCE[0]}"
[[ "$src" == */* ]] || src="./$src"
here="$(cd "${src%/*}" && pwd)"

missing() {
	echo "missing toolchain: $*" >&2
	exit 3
}

die() {
	echo "bench/xlang/python/build.sh: $*" >&2
	exit 1
}

python="${PYTHON:-python3}"
command -v "$python" >/dev/null 2>&1 ||
	missing "$python (CPython >= 3.10 with venv; e.g. apt-get install python3 python3-venv)"
"$python" -c 'import sys; sys.exit(sys.version_info < (3, 10))' 2>/dev/null ||
	missing "python >= 3.10 ($python is $("$python" --version 2>&1))"
"$python" -c 'import venv, ensurepip' 2>/dev/null ||
	missing "the venv module with ensurepip for $python (on Debian: apt-get install python3-venv)"

reqs="$here/requirements.txt"
venv="$here/.venv"
vpy="$venv/bin/python"
[ -f "$reqs" ] || die "missing $reqs"

# The stamp, written last, records what the virtualenv was made from: the
# pins and the interpreter. Any difference, or a virtualenv whose python no
# longer runs or imports jwt, means a rebuild.
stamp="$venv/.signet-stamp"
want="$(sha256sum "$reqs" | cut -d' ' -f1) $("$python" -c 'import sys; print(sys.implementation.name, sys.version.split()[0], sys.executable)')"
if [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$want" ] &&
	"$vpy" -I -c 'import jwt, cryptography' >/dev/null 2>&1; then
	exit 0
fi

echo "+ $python -m venv --clear $venv" >&2
"$python" -m venv --clear "$venv" || die "$python -m venv failed"
echo "+ $vpy -m pip install --require-hashes --no-deps -r $reqs" >&2
"$vpy" -m pip install --disable-pip-version-check --no-input --quiet \
	--require-hashes --no-deps -r "$reqs" >&2 ||
	die "pip install failed (is PyPI reachable?)"
"$vpy" -m pip check --disable-pip-version-check >/dev/null ||
	die "the pinned Python packages are inconsistent: $("$vpy" -m pip check 2>&1)"
version="$("$vpy" -I -c 'import jwt, cryptography; print(jwt.__version__)')" ||
	die "jwt (PyJWT) does not import from $venv"
echo "$want" >"$stamp"
echo "bench/xlang/python/build.sh: installed PyJWT $version with $("$vpy" --version) into $venv" >&2
