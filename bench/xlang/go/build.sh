#!/usr/bin/env bash
# Builds the Go side of the cross-language scenario (signet and golang-jwt,
# pinned in bench/go.mod) into bench/xlang/go/target/xlang-go.
# Contract: bench/xlang/README.md (exit 3: missing toolchain).
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
command -v go >/dev/null 2>&1 || { echo "missing toolchain: go" >&2; exit 3; }
cd "$here/../.."
go build -trimpath -o "$here/target/xlang-go" ./xlang/go
