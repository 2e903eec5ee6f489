#!/usr/bin/env bash
# Runs every fuzz target of the module for $FUZZTIME each (default 3s).
set -euo pipefail
cd "$(dirname "$0")/.."
fuzztime=${FUZZTIME:-3s}
for pkg in $(go list ./...); do
	for target in $(go test -list '^Fuzz' "$pkg" 2>/dev/null | grep '^Fuzz' || true); do
		echo "fuzz $pkg $target ($fuzztime)"
		go test -run '^$' -fuzz "^${target}\$" -fuzztime "$fuzztime" "$pkg" >/tmp/signet-fuzz.log 2>&1 || {
			cat /tmp/signet-fuzz.log
			echo "fuzz target $target in $pkg failed; a crasher, if any, is under testdata/fuzz/$target"
			exit 1
		}
	done
done
