#!/usr/bin/env bash
# run.sh <lib> bench|interop [flags]: runs the binary built for <lib> (see libs.txt).
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
lib="${1:-}"
case "$lib" in
jsonwebtoken-rust_crypto) backend=rust_crypto ;;
jsonwebtoken-aws_lc_rs) backend=aws_lc_rs ;;
*)
	echo "run.sh: unknown lib '${lib}'; want one of: $(tr '\n' ' ' <"$here/libs.txt")" >&2
	exit 2
	;;
esac
shift

bin="$here/target/$backend/release/jwt-xlang"
if [[ ! -x "$bin" ]]; then
	echo "run.sh: $lib is not built ($bin is missing); run: bash bench/xlang/rust/build.sh" >&2
	exit 1
fi
exec "$bin" "$@"
