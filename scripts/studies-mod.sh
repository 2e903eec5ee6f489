#!/usr/bin/env bash
# studies-mod.sh: tidies bench/go.mod without the studies' libraries and
# writes bench/studies.mod and studies.sum from it: go.mod and go.sum
# plus the studies' two modules (scripts/studies-env.sh), fetched from
# their module proxy (../shared/goproxy, or SIGNET_GOPROXY_DIR). Run it
# after any change to bench/go.mod; TestStudiesModFile (bench) fails
# when the two files have drifted apart.
#
# A plain `go mod tidy` in bench would look for the modules bench/studies
# imports (tidy reads every build tag) and fail, or add them to go.mod:
# this script tidies go.mod with them (and golang-jwt v4, which only the
# studies' adapter imports) kept out.
set -euo pipefail
source "$(dirname "$0")/studies-env.sh"
cd "$root/bench"
if [ -z "$studies_proxy" ]; then
	echo "studies-mod.sh: no module proxy at $studies_missing (set SIGNET_GOPROXY_DIR)" >&2
	exit 1
fi

kept_out=github.com/forcebit,github.com/mateothegreat,github.com/golang-jwt/jwt/v4
echo "== bench/go.mod: go mod tidy, without $kept_out" >&2
env -u GOPROXY GOFLAGS=-mod=mod GOPRIVATE=$kept_out GOVCS=private:off $GO mod tidy -e 2>"${TMPDIR:-/tmp}/studies-mod-tidy.log" || true
if grep -E 'forcebit|mateothegreat|jwt/v4' go.mod go.sum; then
	echo "studies-mod.sh: go.mod took a studies' module" >&2
	exit 1
fi
$GO list -deps ./... >/dev/null # the default build is complete

echo "== bench/studies.mod, studies.sum: go.mod, go.sum and ${studies_modules[*]}" >&2
cp go.mod studies.mod
cp go.sum studies.sum
env "${studies_goenv[@]}" $GO get -modfile=studies.mod "${studies_modules[@]}"
env "${studies_goenv[@]}" $GO mod tidy -modfile=studies.mod
env "${studies_goenv[@]}" $GO build -modfile=studies.mod -tags studies ./...
