#!/usr/bin/env bash
# Installs the Python OAuth client peers of the token service's interop
# test (server/interop), so that `SIGNET_INTEROP=1 go test ./interop/` (in
# server/) can run: Authlib, PyJWT[crypto] and requests with their
# dependencies, pinned with hashes in server/interop/python/requirements.txt,
# into the virtualenv server/interop/python/.venv.
# Safe to run repeatedly: the virtualenv is rebuilt only when it is missing,
# broken, or made from other pins or another interpreter.
#
# Usage: bash server/interop/setup.sh   (from any directory). PYTHON names the
#        interpreter to make the virtualenv with (default python3; CPython
#        >= 3.10, as Authlib needs).
set -euo pipefail

src="${BASH_SOURCE[0]}"
[[ "$src" == */* ]] || src="./$src"
here="$(cd "${src%/*}" && pwd)"

# What must import for the peer to run, and the versions it reports.
probe='import authlib, jwt, requests, cryptography; print("authlib", authlib.__version__, "pyjwt", jwt.__version__, "requests", requests.__version__)'
exec bash "$here/../../scripts/pyvenv.sh" server/interop/setup.sh "$here/python" "$probe"
