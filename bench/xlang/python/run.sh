#!/usr/bin/env bash
# Runs the python program of the cross-language scenario (bench/xlang/README.md):
#   bash bench/xlang/python/run.sh pyjwt bench --emails FILE --n N --threads T
#   bash bench/xlang/python/run.sh pyjwt interop < request.json
# The process becomes the virtualenv's python itself (exec; -I: no PYTHON*
# variables, no user site-packages), so its CPU time and peak RSS are the
# program's (the worker processes it forks are its children). Build first
# with bench/xlang/python/build.sh.
set -euo pipefail

src="${BASH_SOURCE[0]}"
[[ "$src" == */* ]] || src="./$src"
here="$(cd "${src%/*}" && pwd)"

vpy="$here/.venv/bin/python"
if [ ! -x "$vpy" ] || [ ! -f "$here/.venv/.signet-stamp" ]; then
	echo "bench/xlang/python/run.sh: not built ($here/.venv is missing or incomplete): run bash bench/xlang/python/build.sh first" >&2
	exit 1
fi
exec "$vpy" -I "$here/xlang.py" "$@"
