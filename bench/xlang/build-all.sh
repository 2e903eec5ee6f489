#!/usr/bin/env bash
# Builds every language of bench/xlang (each build.sh installs its pinned
# dependencies from the registries). A missing toolchain (exit 3) is
# reported and skipped; any other failure fails the script.
set -uo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
status=0
for dir in "$here"/*/; do
	lang="$(basename "$dir")"
	[ -f "$dir/build.sh" ] || continue
	start=$SECONDS
	bash "$dir/build.sh"
	rc=$?
	case $rc in
	0) echo "bench/xlang: built $lang in $((SECONDS - start)) s" ;;
	3) echo "bench/xlang: $lang SKIPPED (missing toolchain, see above)" ;;
	*) echo "bench/xlang: $lang build FAILED (exit $rc)" >&2; status=1 ;;
	esac
done
exit $status
