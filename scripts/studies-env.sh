# studies-env.sh: sourced by scripts/lab.sh and scripts/studies-mod.sh.
# The studies' own libraries (bench/studies) come from a file-system Go
# module proxy beside the clone, ../shared/goproxy (its README.md), or
# SIGNET_GOPROXY_DIR; they are not in bench/go.mod but in
# bench/studies.mod (go.mod plus them), built with -tags studies.
#
# Sets: root (the repository), studies_proxy (the proxy's directory,
# absolute, or "" when absent) and studies_goenv (the GOPROXY and
# GONOSUMDB settings that put it first, for env).

GO=${GO:-go}
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
studies_proxy=${SIGNET_GOPROXY_DIR:-$root/../shared/goproxy}
if [ -d "$studies_proxy" ]; then
	studies_proxy=$(cd "$studies_proxy" && pwd)
	studies_goenv=(GOPROXY="file://$studies_proxy,$($GO env GOPROXY)" GONOSUMDB=github.com/forcebit,github.com/mateothegreat)
else
	studies_goenv=()
	studies_missing=$studies_proxy
	studies_proxy=""
fi

# The studies' modules and the versions the studies measured.
studies_modules=(
	github.com/forcebit/http-message-signatures-rfc9421-go@v0.0.10-0.20251225122444-62590ff9a650
	github.com/mateothegreat/go-jwt-paseto@v0.0.0-20260503175317-6d4f4aa2507d
)
