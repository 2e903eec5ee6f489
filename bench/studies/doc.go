//go:build studies

// Package studies holds the lab's adapters for the studies' own
// libraries, the ones the published comparisons measured and the Go
// module proxy here does not serve:
//
//   - forcebit: github.com/forcebit/http-message-signatures-rfc9421-go,
//     the RFC 9421 study's headline library (an lab.HTTPSigLib);
//   - mateothegreat: github.com/mateothegreat/go-jwt-paseto, the
//     JWT-vs-PASETO study's own package, which wraps golang-jwt v4 (an
//     lab.JWTLib, ES256) and go-paseto (a lab.PASETOLib, v4.public).
//
// Their modules come from a file-system module proxy beside the clone
// (../shared/goproxy) and are not in bench/go.mod, so nothing else in the
// lab depends on them: the package builds only with the studies build tag
// and bench/studies.mod, which is go.mod plus the two modules
// (scripts/studies-mod.sh writes it):
//
//	cd bench
//	export GOPROXY="file://$(cd ../../shared/goproxy && pwd),$(go env GOPROXY)"
//	export GONOSUMDB=github.com/forcebit,github.com/mateothegreat
//	go test -modfile=studies.mod -tags studies ./studies/
//
// Peers returns the adapters; cmd/lab built so (scripts/lab.sh) adds them
// to lab.DefaultPeers and runs them through the speed matrix, the attack
// corpus and the published vectors like every other peer:
//
//	peers := lab.DefaultPeers().Add(studies.Peers())
//	cases, err := lab.Cases(keys, lab.Options{Quick: true, Peers: &peers})
//
// Each adapter uses its library as the library's README shows and says,
// as the lab's own adapters do, what the library cannot do.
package studies

import "github.com/signet-go/signet/bench/lab"

// Peers returns the studies' libraries as lab peers: mateothegreat for
// JWT and PASETO, forcebit for RFC 9421.
func Peers() lab.Peers {
	return lab.Peers{JWT: []lab.JWTLib{MateothegreatJWT{}}, PASETO: []lab.PASETOLib{MateothegreatPASETO{}}, HTTPSig: []lab.HTTPSigLib{Forcebit{}}}
}
