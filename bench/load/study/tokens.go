package study

import (
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/signet-go/signet"
)

// JWTAlgs are the JWS algorithms of the study's shape, PASETOAlgs the
// PASETO purposes.
var (
	JWTAlgs    = []string{"HS256", "RS256", "PS256", "ES256", "EdDSA"}
	PASETOAlgs = []string{"v4.public", "v4.local"}
)

// Library names: golang-jwt and go-paseto are the peers, signet does both
// formats.
const (
	LibSignet    = "signet"
	LibGolangJWT = "golang-jwt"
	LibGoPASETO  = "go-paseto"
)

// Libs returns the libraries that do alg, signet last.
func Libs(alg string) []string {
	if slices.Contains(PASETOAlgs, alg) {
		return []string{LibGoPASETO, LibSignet}
	}
	if slices.Contains(JWTAlgs, alg) {
		return []string{LibGolangJWT, LibSignet}
	}
	return nil
}

// Tokens is one library issuing and checking one algorithm's tokens with
// the claims of one payload class. Implementations are safe for concurrent
// use.
type Tokens interface {
	// Issue returns a token of the study's claims, issued at now: exp =
	// now + 24 h, iat = now, user_id = userID.
	Issue(now time.Time, userID uint) (string, error)
	// Check verifies token (signature or tag, exp) and returns its
	// identity claims.
	Check(token string) (Identity, error)
	// Lib and Alg name the library and the algorithm.
	Lib() string
	Alg() string
}

// Lifetime is the exp of every token: the study's 24 hours.
const Lifetime = 24 * time.Hour

// ErrRefused wraps every refusal of Check, with the library's own error
// (signet's wrap its sentinels; the peers' do not). Configuration errors
// (an unknown library, algorithm or payload class) wrap
// signet.ErrUnsupported.
var ErrRefused = errors.New("study: token refused")

// New returns lib's Tokens for alg and the payload class size, with the
// keys of k. lib may also be LibFloor (FloorAlgs): the raw primitive, no
// library (floortokens.go).
func New(lib, alg, size string, k *Keys) (Tokens, error) {
	if lib == LibFloor {
		return newFloor(alg, size, k)
	}
	if !slices.Contains(Libs(alg), lib) {
		return nil, fmt.Errorf("%w: study: %s does not do %q in this study (algorithms: %v %v)", signet.ErrUnsupported, lib, alg, JWTAlgs, PASETOAlgs)
	}
	perms, err := Perms(size)
	if err != nil {
		return nil, err
	}
	switch lib {
	case LibGolangJWT:
		return newGolangJWT(alg, perms, k)
	case LibGoPASETO:
		return newGoPASETO(alg, perms, k)
	}
	if slices.Contains(PASETOAlgs, alg) {
		return newSignetPASETO(alg, perms, k)
	}
	return newSignetJWT(alg, perms, k)
}

// refused wraps a library's error in ErrRefused.
func refused(lib string, err error) error {
	return fmt.Errorf("%w by %s: %w", ErrRefused, lib, err)
}
