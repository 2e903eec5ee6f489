#!/usr/bin/env bash
# install-wrk.sh: make Debian's wrk (the HTTP load generator of the HTTP lab,
# `make load`) available. Idempotent: when wrk is already on PATH it says so
# and does nothing.
set -euo pipefail

if command -v wrk >/dev/null 2>&1; then
	echo "install-wrk: $(command -v wrk) present ($(wrk --version 2>&1 | head -n1)); nothing to do"
	exit 0
fi

sudo=""
if [ "$(id -u)" -ne 0 ]; then
	if ! command -v sudo >/dev/null 2>&1; then
		echo "install-wrk: wrk missing, not root and no sudo: install Debian's wrk package" >&2
		exit 1
	fi
	sudo="sudo"
fi

echo "install-wrk: installing Debian's wrk (apt-get install -y --no-install-recommends wrk)"
$sudo apt-get install -y --no-install-recommends wrk || {
	echo "install-wrk: apt-get install failed; refreshing the package lists and retrying"
	$sudo apt-get update
	$sudo apt-get install -y --no-install-recommends wrk
}
echo "install-wrk: installed $(command -v wrk) ($(wrk --version 2>&1 | head -n1))"
