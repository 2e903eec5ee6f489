#!/usr/bin/env bash
# lab.sh ARGS…: runs the lab's report generator (bench/cmd/lab) with ARGS,
# the studies' own libraries included when their module proxy is there
# (../shared/goproxy, or SIGNET_GOPROXY_DIR): it builds cmd/lab with
# bench/studies.mod and -tags studies and runs that. Where the proxy is
# absent or that build fails, it runs the plain lab with --skipped, so
# that REPORT.md, results.json and the progress say which peers were
# skipped and why. make report and make report-full call it.
set -euo pipefail
source "$(dirname "$0")/studies-env.sh"
cd "$root/bench"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
reason=""
if [ -z "$studies_proxy" ]; then
	reason="no module proxy at $studies_missing"
elif ! env "${studies_goenv[@]}" $GO build -modfile=studies.mod -tags studies -o "$tmp/lab" ./cmd/lab 2>"$tmp/build.log"; then
	cat "$tmp/build.log" >&2
	reason="the build with their modules failed: $( (grep -v '^go: downloading' "$tmp/build.log" || true) | head -n 1 | cut -c 1-200)"
fi

if [ -z "$reason" ]; then
	echo "lab.sh: with the studies' libraries (forcebit, mateothegreat) from $studies_proxy" >&2
	"$tmp/lab" "$@"
else
	echo "lab.sh: without the studies' libraries (forcebit, mateothegreat): $reason" >&2
	$GO run ./cmd/lab --skipped "forcebit, mateothegreat: $reason" "$@"
fi
