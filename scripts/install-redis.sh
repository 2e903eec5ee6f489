#!/usr/bin/env bash
# install-redis.sh: make Debian's redis-server available for the token
# service's Redis tests (server/storage/redisstore). Idempotent: when
# redis-server is already on PATH it says so and does nothing.
set -euo pipefail

if command -v redis-server >/dev/null 2>&1; then
	echo "install-redis: $(command -v redis-server) present ($(redis-server --version | head -n1)); nothing to do"
	exit 0
fi

sudo=""
if [ "$(id -u)" -ne 0 ]; then
	if ! command -v sudo >/dev/null 2>&1; then
		echo "install-redis: redis-server missing, not root and no sudo: install Debian's redis-server package" >&2
		exit 1
	fi
	sudo="sudo"
fi

echo "install-redis: installing Debian's redis-server (apt-get install -y --no-install-recommends redis-server)"
$sudo apt-get install -y --no-install-recommends redis-server || {
	echo "install-redis: apt-get install failed; refreshing the package lists and retrying"
	$sudo apt-get update
	$sudo apt-get install -y --no-install-recommends redis-server
}
# The package starts a system service on port 6379 where systemd runs; the
# tests never use it (they start their own redis-server on a free loopback
# port), so it is left as the package installs it.
echo "install-redis: installed $(command -v redis-server) ($(redis-server --version | head -n1))"
