package lab

import "net/http"

// JWTLib is one JWT library under test.
type JWTLib interface {
	// Name is the library's short name (docs/design.md): "signet",
	// "golang-jwt", "jwx", "go-jose", "cristalhq", "kataras"; the
	// studies' "mateothegreat" (bench/studies).
	Name() string
	// Algs lists the JWS algorithms it signs and verifies.
	Algs() []string
	// New binds the library to k.Alg and k's key. With k.Private nil (a
	// public key only, or a secret), the result need only verify.
	New(k KeySpec) (JWT, error)
}

// JWT signs and verifies tokens with one key and algorithm, as an
// application using the library would: Verify checks the signature, the
// algorithm (the key's, never the token's choice where the library lets
// the caller say so) and the expiry, and decodes the claims into p.
type JWT interface {
	Sign(p *Payload) (string, error)
	Verify(token string, p *Payload) error
}

// PASETOLib is one PASETO library under test.
type PASETOLib interface {
	// Name: "signet", "go-paseto", "o1egl"; "mateothegreat".
	Name() string
	// Purposes lists the versions and purposes it implements:
	// "v4.local", "v4.public", "v3.local", "v3.public", "v2.local", ….
	Purposes() []string
	// New binds the library to k.Alg (a purpose) and k's key.
	New(k KeySpec) (PASETO, error)
}

// PASETO seals (encrypts or signs) and opens (decrypts or verifies)
// tokens; Open checks the expiry and decodes the claims into p.
type PASETO interface {
	Seal(p *Payload) (string, error)
	Open(token string, p *Payload) error
}

// JWELib is one JWE (RFC 7516, compact serialization) library under test.
type JWELib interface {
	// Name: "signet", "jwx", "go-jose".
	Name() string
	// Algs lists the lab's JWE rows it implements, as JWEAlgs names them
	// ("dir+A256GCM": alg and enc joined by "+").
	Algs() []string
	// New binds the library to k.Alg (alg+enc) and k's key: the secret or
	// password, or the recipient's key pair (Encrypt uses the public half).
	New(k KeySpec) (JWE, error)
}

// JWE encrypts claims to the bound key and decrypts them, as an
// application using the library for encrypted JWTs would: Decrypt
// authenticates and decrypts with the key's alg and enc (the key's, never
// the token's choice where the library lets the caller say so), checks
// the expiry and decodes the claims into p.
type JWE interface {
	Encrypt(p *Payload) (string, error)
	Decrypt(token string, p *Payload) error
}

// HTTPSigLib is one RFC 9421 library under test.
type HTTPSigLib interface {
	// Name: "signet", "yaronf", "remitly", "common-fate"; "forcebit".
	Name() string
	// Algs lists the RFC 9421 algorithms it implements.
	Algs() []string
	// New binds the library to k.Alg and k's key (keyid k.KeyID).
	New(k KeySpec) (HTTPSig, error)
}

// HTTPSig signs and verifies requests. Sign covers the reference request's shape:
// @method, @authority, @path and content-type, with created and keyid
// (libraries that cannot cover @path use what they can, noted in the
// report). Verify accepts a signature made no more than five minutes ago
// with the bound key.
type HTTPSig interface {
	Sign(r *http.Request) error
	Verify(r *http.Request) error
}

// JWTLibs returns the JWT libraries of DefaultPeers, signet first.
func JWTLibs() []JWTLib { return DefaultPeers().JWT }

// PASETOLibs returns the PASETO libraries of DefaultPeers, signet first.
func PASETOLibs() []PASETOLib { return DefaultPeers().PASETO }

// JWELibs returns the JWE libraries of DefaultPeers, signet first.
func JWELibs() []JWELib { return DefaultPeers().JWE }

// HTTPSigLibs returns the RFC 9421 libraries of DefaultPeers, signet first.
func HTTPSigLibs() []HTTPSigLib { return DefaultPeers().HTTPSig }
