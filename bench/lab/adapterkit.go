package lab

import "time"

// What an adapter outside this package (bench/studies) needs to sign and
// verify as the lab's own adapters do.

// HTTPSigLabel is the label of the reference request's signature.
const HTTPSigLabel = httpsigLabel

// HTTPSigMaxAge is how old a signature's created may be for Verify and
// VerifyAt (with a minute of skew ahead).
const HTTPSigMaxAge = httpsigMaxAge

// HTTPSigSkew is how far ahead of the verifier's clock created may be.
const HTTPSigSkew = time.Minute

// HTTPSigComponents returns the components HTTPSig.Sign covers on the
// reference request, in order: @method, @authority, @path and
// content-type.
func HTTPSigComponents() []string { return append([]string(nil), httpsigComponents...) }

// LoadPEM returns k with Private and Public read from k.PEM (PKCS #8) by
// the standard library's loader, for a library without a PEM loader of
// its own (the KeyInit cases); k unchanged when it has no PEM.
func LoadPEM(k KeySpec) (KeySpec, error) { return fromPEM(k, pkcs8) }
