#!/usr/bin/env bash
# Runs every fuzz target of the library module, of the service's module
# (server/) and of the command line's module (cmd/signet/) for $FUZZTIME
# each (default 3s).
#
# A run fails when the fuzzer writes a reproducer under testdata/fuzz/.
# Go 1.26's coordinator can also end a clean run with a bare "context
# deadline exceeded" at the -fuzztime boundary (golang/go#75804, fixed in
# Go 1.27); such a run, with no reproducer written, is retried once and then
# reported, not failed.
set -uo pipefail
cd "$(dirname "$0")/.."
fuzztime=${FUZZTIME:-3s}
log=$(mktemp)
trap 'rm -f "$log"' EXIT

run() { # pkg dir target (run in the package's directory: server/ and cmd/signet/ are modules of their own)
	(cd "$2" && go test -run '^$' -fuzz "^$3\$" -fuzztime "$fuzztime" .) >"$log" 2>&1
}

failed=0
while read -r pkg dir; do
	for target in $(cd "$dir" && go test -list '^Fuzz' . 2>/dev/null | grep '^Fuzz' || true); do
		corpus="$dir/testdata/fuzz/$target"
		before=$(ls "$corpus" 2>/dev/null | sort)
		echo "fuzz ${pkg#github.com/signet-go/signet} $target ($fuzztime)"
		for attempt in 1 2; do
			if run "$pkg" "$dir" "$target"; then
				break
			fi
			after=$(ls "$corpus" 2>/dev/null | sort)
			if [ "$before" != "$after" ]; then
				cat "$log"
				echo "FAIL: $target found a failing input, saved under $corpus"
				failed=1
				break
			fi
			if grep -q 'context deadline exceeded' "$log" && [ "$attempt" = 1 ]; then
				echo "  (Go fuzz coordinator deadline race, golang/go#75804; retrying)"
				continue
			fi
			if grep -q 'context deadline exceeded' "$log"; then
				echo "  (deadline race again, no failing input written: not a failure)"
				break
			fi
			cat "$log"
			echo "FAIL: $target"
			failed=1
			break
		done
	done
done < <(go list -f '{{.ImportPath}} {{.Dir}}' ./... &&
	(cd server && go list -f '{{.ImportPath}} {{.Dir}}' ./...) &&
	(cd cmd/signet && go list -f '{{.ImportPath}} {{.Dir}}' ./...))
exit $failed
