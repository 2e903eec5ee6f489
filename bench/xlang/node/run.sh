#!/usr/bin/env bash
# Runs the node program of the cross-language scenario (bench/xlang/README.md):
#   bash bench/xlang/node/run.sh jose bench --emails FILE --n N --threads T
#   bash bench/xlang/node/run.sh jose interop < request.json
# The process becomes node itself (exec), so its CPU time and peak RSS are
# the program's. Build first with bench/xlang/node/build.sh.
set -euo pipefail

src="${BASH_SOURCE[0]}"
[[ "$src" == */* ]] || src="./$src"
here="$(cd "${src%/*}" && pwd)"

if ! command -v node >/dev/null 2>&1; then
	echo "missing toolchain: node (Node.js >= 20)" >&2
	exit 3
fi
if [ ! -f "$here/node_modules/jose/package.json" ]; then
	echo "bench/xlang/node/run.sh: not built ($here/node_modules/jose is missing): run bash bench/xlang/node/build.sh first" >&2
	exit 1
fi
exec node "$here/xlang.mjs" "$@"
