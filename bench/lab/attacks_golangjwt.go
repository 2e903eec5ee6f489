package lab

import (
	"time"

	gjwt "github.com/golang-jwt/jwt/v5"
)

// golang-jwt's adapter's optional methods for the security matrix
// (attacks.go).
//
// It has VerifyAt only, no VerifyBytes: golang-jwt parses JWTs, not JWSs.
// Its Parser decodes the payload as JSON claims, and the library has no
// call that verifies a compact JWS and hands back an arbitrary payload.
// Its exported SigningMethod.Verify checks a signature over a signing
// input the caller has split, decoded and checked the header of, which is
// a JWS verifier written by the caller around a primitive, not how the
// library's users verify tokens; a verdict from it would judge that code,
// not golang-jwt. The published vectors that are JWTs with exp (RFC 7515
// A.1 to A.3) still get a verdict through VerifyAt; the others are n/a.

// VerifyAt is Verify with now as the clock (JWTVerifierAt): a Parser with
// the options of New's (the one algorithm, exp required) and
// jwt.WithTimeFunc, the library's option for a fixed time.
func (g *golangJWTOps) VerifyAt(token string, p *Payload, now time.Time) error {
	return g.VerifyFor(token, p, now, "")
}

// VerifyFor is VerifyAt with the library's audience check, the Parser
// option jwt.WithAudience, when audience is not "" (JWTVerifierFor).
func (g *golangJWTOps) VerifyFor(token string, p *Payload, now time.Time, audience string) error {
	opts := []gjwt.ParserOption{gjwt.WithValidMethods([]string{g.method.Alg()}), gjwt.WithExpirationRequired(),
		gjwt.WithTimeFunc(func() time.Time { return now })}
	if audience != "" {
		opts = append(opts, gjwt.WithAudience(audience))
	}
	at := *g
	at.parser = gjwt.NewParser(opts...)
	return at.Verify(token, p)
}
