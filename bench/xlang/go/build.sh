#!/usr/bin/env bash
# Builds the Go side of the cross-language scenario (signet and golang-jwt,
# pinned in bench/go.mod) into bench/xlang/go/target/xlang-go.
# Contract: bench/xlang/README.md (exit 3: missing toolchain).
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
command -v go >/dev/null 2>&1 || { echo "missing toolchain: go" >&2; exit 3; }
# bench/go.mod needs Go 1.26.
v="$(go env GOVERSION)"
v="${v#go}"
major="${v%%.*}" rest="${v#*.}"
minor="${rest%%.*}"
if [ "$major" -lt 1 ] || { [ "$major" -eq 1 ] && [ "${minor%%[!0-9]*}" -lt 26 ]; }; then
	echo "missing toolchain: go >= 1.26 (found go$v)" >&2
	exit 3
fi
cd "$here/../.."
go build -trimpath -o "$here/target/xlang-go" ./xlang/go
