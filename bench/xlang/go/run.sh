#!/usr/bin/env bash
# Runs the Go side for one library: run.sh <signet|golang-jwt> <bench|interop> [flags].
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
bin="$here/target/xlang-go"
[ -x "$bin" ] || { echo "bench/xlang/go: not built; run bench/xlang/go/build.sh" >&2; exit 1; }
exec "$bin" "$@"
