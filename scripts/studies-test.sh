#!/usr/bin/env bash
# studies-test.sh: the lab's checks with the studies' own libraries
# (bench/studies: go vet, and go test of the adapters, the lab and
# cmd/lab built with bench/studies.mod and -tags studies), when their
# module proxy is there (../shared/goproxy, or SIGNET_GOPROXY_DIR; CI
# has it beside the clone). Without it, says so and succeeds: the build
# without them is tested by make lab-test already. make lab-test runs it.
set -euo pipefail
source "$(dirname "$0")/studies-env.sh"
cd "$root/bench"
if [ -z "$studies_proxy" ]; then
	echo "== the studies' peers: skipped, no module proxy at $studies_missing"
	exit 0
fi
echo "== the studies' peers (bench/studies, -modfile=studies.mod -tags studies) from $studies_proxy"
env "${studies_goenv[@]}" $GO vet -modfile=studies.mod -tags studies ./...
env "${studies_goenv[@]}" $GO test -modfile=studies.mod -tags studies -count=1 -race ./studies/
env "${studies_goenv[@]}" $GO test -modfile=studies.mod -tags studies -count=1 -timeout 20m ./lab/ ./cmd/lab/
