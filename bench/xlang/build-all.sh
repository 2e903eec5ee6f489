#!/usr/bin/env bash
# Builds every language of bench/xlang (each build.sh installs its pinned
# dependencies from the registries), or of the directory given as the
# first argument. A missing toolchain (exit 3) is reported and skipped,
# unless SIGNET_INTEROP is set: the interop test then needs every
# language, and a missing toolchain fails the script. Any other failure
# fails the script.
set -uo pipefail
here="${1:-$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)}"
status=0
for dir in "$here"/*/; do
	lang="$(basename "$dir")"
	[ -f "$dir/build.sh" ] || continue
	start=$SECONDS
	bash "$dir/build.sh"
	rc=$?
	case $rc in
	0) echo "bench/xlang: built $lang in $((SECONDS - start)) s" ;;
	3)
		if [ -n "${SIGNET_INTEROP:-}" ]; then
			echo "bench/xlang: $lang: missing toolchain (see above), and SIGNET_INTEROP is set: the interop test needs it" >&2
			status=1
		else
			echo "bench/xlang: $lang SKIPPED (missing toolchain, see above)"
		fi
		;;
	*) echo "bench/xlang: $lang build FAILED (exit $rc)" >&2; status=1 ;;
	esac
done
exit $status
