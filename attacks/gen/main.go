// Command gen writes signet's attack corpus (attacks/*.json): run it from
// the repository root,
//
//	go run ./attacks/gen          # rewrite attacks/jwt.json, paseto.json, httpsig.json, jwe.json
//	go run ./attacks/gen -check   # exit 1 if the committed files differ
//
// It is the attacker's tool: it builds tokens and messages by hand with the
// standard library (and x/crypto for PASETO's primitives), never through
// signet's signing paths, which refuse most of what an attacker sends.
// signet is used only to encode the verifier's keys (JWK, PEM, PASERK) and
// to cross-check the signature bases of the well-formed HTTP messages.
//
// The output is deterministic: the keys are the published RFC test keys or
// derived from fixed labels, every signature is deterministic (ECDSA per
// RFC 6979) and every timestamp is fixed, so regenerating changes nothing
// unless this program changes.
package main

import (
	"bytes"
	"crypto"
	"crypto/ecdsa"
	"crypto/ed25519"
	"crypto/elliptic"
	"crypto/hmac"
	"crypto/rsa"
	"crypto/sha256"
	"crypto/sha512"
	"crypto/x509"
	"encoding/asn1"
	"encoding/base64"
	"encoding/json"
	"encoding/pem"
	"flag"
	"fmt"
	"hash"
	"math/big"
	"os"
	"path/filepath"

	"github.com/signet-go/signet"
	"github.com/signet-go/signet/attacks"
	"github.com/signet-go/signet/jwk"
	"github.com/signet-go/signet/paserk"
)

// Fixed times of the corpus (Unix seconds).
const (
	issued  = 1767225600 // 2026-01-01T00:00:00Z: iat, created
	now     = 1767225660 // 2026-01-01T00:01:00Z: every verifier's clock
	exp     = 4102444800 // 2100-01-01T00:00:00Z: exp of valid tokens
	expired = 1735689600 // 2025-01-01T00:00:00Z: exp of expired tokens
	future  = 4070908800 // 2099-01-01T00:00:00Z: nbf and iat in the future

	expRFC3339     = "2100-01-01T00:00:00Z"
	expiredRFC3339 = "2025-01-01T00:00:00Z"
	futureRFC3339  = "2099-01-01T00:00:00Z"
	issuedRFC3339  = "2026-01-01T00:00:00Z"
	nowRFC3339     = "2026-01-01T00:01:00Z"

	// audience is the aud of the corpus's tokens and the audience their
	// verifiers name.
	audience = "https://api.example.com"
	// namesNone, as a case's Audience in this program, is a verifier that
	// names no audience: the case is written without one.
	namesNone = "(names none)"
)

func main() {
	dir := flag.String("dir", "attacks", "directory of the corpus files")
	testdata := flag.String("testdata", "testdata", "signet's testdata (the RFC test keys and the PASETO vectors)")
	check := flag.Bool("check", false, "compare with the files in -dir instead of writing them")
	flag.Parse()

	g, err := newGen(*testdata)
	if err != nil {
		fail(err)
	}
	files := []attacks.File{
		{Format: attacks.JWT, Description: "JWS compact tokens (RFC 7515/7519) presented to a verifier holding one key bound to one algorithm, with the default jwt.Policy given the case's clock and audience (none when the case has no audience): exp required, a token expired at exp, no leeway, an aud refused unless it names the verifier's audience, typ absent or JWT, tokens up to 64 KiB.", Cases: g.jwt()},
		{Format: attacks.PASETO, Description: "PASETO v4/v3 tokens presented to a verifier holding one key bound to one version and purpose, with the default paseto.Policy given the case's clock, audience (none when the case has no audience) and implicit assertion: exp required, a token expired at exp, an aud refused unless it names the verifier's audience.", Cases: g.paseto()},
		{Format: attacks.JWE, Description: "JWE compact tokens (RFC 7516) carrying JWT claims, presented to a verifier holding one key bound to one key-management algorithm (alg) and one content encryption (enc), decrypted with the default jwe.Policy (jwt.Policy) given the case's clock and audience: exp required, zip and unknown crit refused, p2c within [1000, 600000], an epk on the key's own curve, tokens up to 64 KiB.", Cases: g.jwe()},
		{Format: attacks.HTTPSig, Description: "HTTP/1.1 requests signed per RFC 9421, presented to a verifier holding one key (by keyid) with the default httpsig.Policy given the case's clock: created required, within the last five minutes and not in the future (no clock skew), expires not reached (a signature is expired at expires), nonces remembered, a body covered by a matching Content-Digest, @method, @authority and @path covered. Every signature but those of the coverage cases covers at least those three.", Cases: g.httpsig()},
	}
	differ := false
	for _, f := range files {
		for i := range f.Cases {
			f.Cases[i].Format = f.Format
			if f.Format != attacks.HTTPSig {
				// Every token verifier names the audience its tokens are
				// issued for, as an application does (RFC 7519 §4.1.3),
				// unless the case is about one that names none, or
				// another.
				switch f.Cases[i].Audience {
				case "":
					f.Cases[i].Audience = audience
				case namesNone:
					f.Cases[i].Audience = ""
				}
			}
		}
		var buf bytes.Buffer
		enc := json.NewEncoder(&buf)
		enc.SetEscapeHTML(false)
		enc.SetIndent("", "  ")
		if err := enc.Encode(f); err != nil {
			fail(err)
		}
		path := filepath.Join(*dir, attacks.Files[f.Format])
		if *check {
			old, err := os.ReadFile(path)
			if err != nil || !bytes.Equal(old, buf.Bytes()) {
				fmt.Fprintf(os.Stderr, "%s: differs from the generator's output\n", path)
				differ = true
			}
			continue
		}
		if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
			fail(err)
		}
		fmt.Printf("%s: %d cases\n", path, len(f.Cases))
	}
	// The output must load back.
	if !*check {
		if _, err := attacks.Load(*dir); err != nil {
			fail(err)
		}
	}
	if differ {
		os.Exit(1)
	}
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, "gen:", err)
	os.Exit(1)
}

// must panics on err: the generator's inputs are fixed, so an error is a
// bug in this program.
func must[T any](v T, err error) T {
	if err != nil {
		panic(err)
	}
	return v
}

// gen holds the keys of the corpus.
type gen struct {
	testdata string

	hs256, hs512 []byte            // JWT HMAC secrets
	rsa          *rsa.PrivateKey   // RFC 9421 test-key-rsa: the JWT RS256 verifier's
	rsaAttacker  *rsa.PrivateKey   // RFC 7520 §3.4 key: the attacker's
	p256         *ecdsa.PrivateKey // RFC 9421 test-key-ecc-p256
	ed           ed25519.PrivateKey
	edAttacker   ed25519.PrivateKey
	httpSecret   []byte // RFC 9421 test-shared-secret

	local      []byte             // PASETO v4.local (and v3.local) key
	pasetoEd   ed25519.PrivateKey // PASETO v4.public key
	pasetoP384 *ecdsa.PrivateKey  // PASETO v3.public key
}

// derive returns n bytes derived from label: fixed key material that is
// nobody's published test key.
func derive(label string, n int) []byte {
	sum := sha512.Sum512([]byte("signet attack corpus: " + label))
	return append([]byte(nil), sum[:n]...)
}

func newGen(testdata string) (*gen, error) {
	g := &gen{testdata: testdata}
	g.hs256 = derive("HS256 verifier key", 32)
	g.hs512 = derive("HS512 verifier key", 64)
	g.local = derive("PASETO local key", 32)
	g.edAttacker = ed25519.NewKeyFromSeed(derive("attacker Ed25519 key", 32))
	g.pasetoEd = ed25519.NewKeyFromSeed(derive("PASETO v4.public key", 32))
	var err error
	if g.pasetoP384, err = ecdsa.ParseRawPrivateKey(elliptic.P384(), derive("PASETO v3.public key", 48)); err != nil {
		return nil, err
	}

	read := func(name string, alg signet.Algorithm) (any, error) {
		data, err := os.ReadFile(filepath.Join(testdata, "rfc9421/keys", name))
		if err != nil {
			return nil, err
		}
		k, err := signet.ParsePEM(data, alg)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", name, err)
		}
		return k.Material(), nil
	}
	m, err := read("test-key-rsa.key.pem", signet.RS256)
	if err != nil {
		return nil, err
	}
	g.rsa = m.(*rsa.PrivateKey)
	if m, err = read("test-key-ecc-p256.key.pem", signet.ES256); err != nil {
		return nil, err
	}
	g.p256 = m.(*ecdsa.PrivateKey)
	if m, err = read("test-key-ed25519.key.pem", signet.EdDSA); err != nil {
		return nil, err
	}
	g.ed = m.(ed25519.PrivateKey)
	secret, err := os.ReadFile(filepath.Join(testdata, "rfc9421/keys/test-shared-secret"))
	if err != nil {
		return nil, err
	}
	if g.httpSecret, err = base64.StdEncoding.DecodeString(string(bytes.TrimSpace(secret))); err != nil {
		return nil, err
	}

	var v struct {
		Key json.RawMessage `json:"key"`
	}
	data, err := os.ReadFile(filepath.Join(testdata, "jose/rfc7520-4.1-rs256.json"))
	if err != nil {
		return nil, err
	}
	if err := json.Unmarshal(data, &v); err != nil {
		return nil, err
	}
	k, err := jwk.ParseKeyFor(v.Key, signet.RS256)
	if err != nil {
		return nil, err
	}
	g.rsaAttacker = k.Material().(*rsa.PrivateKey)

	if err := g.selfCheckPASETO(); err != nil {
		return nil, err
	}
	return g, nil
}

// Encodings.

func b64u(b []byte) string             { return base64.RawURLEncoding.EncodeToString(b) }
func seg(s string) string              { return b64u([]byte(s)) }
func b64std(b []byte) string           { return base64.StdEncoding.EncodeToString(b) }
func cat(b ...[]byte) []byte           { return bytes.Join(b, nil) }
func dot(in string, sig []byte) string { return in + "." + b64u(sig) }

func pemOf(typ string, der []byte) string {
	return string(pem.EncodeToMemory(&pem.Block{Type: typ, Bytes: der}))
}

func spkiPEM(pub any) string {
	return pemOf("PUBLIC KEY", must(x509.MarshalPKIXPublicKey(pub)))
}

func signetKey(alg signet.Algorithm, material any, kid string) *signet.Key {
	return must(signet.NewKey(alg, material)).WithKeyID(kid)
}

// jwkOf is the JWK of a verifier's key: the public half, or the secret.
func jwkOf(alg signet.Algorithm, material any, kid string) json.RawMessage {
	k := signetKey(alg, material, kid)
	if k.Symmetric() {
		return must(jwk.Marshal(k))
	}
	return must(jwk.MarshalPublic(k))
}

func paserkOf(alg signet.Algorithm, material any) string {
	return must(paserk.Encode(signetKey(alg, material, "")))
}

// Signatures, computed as an attacker (or a careless issuer) would.

func macWith(secret []byte, h func() hash.Hash, msg string) []byte {
	m := hmac.New(h, secret)
	m.Write([]byte(msg))
	return m.Sum(nil)
}

func digest(h crypto.Hash, msg string) []byte {
	d := h.New()
	d.Write([]byte(msg))
	return d.Sum(nil)
}

func rsaSig(k *rsa.PrivateKey, h crypto.Hash, msg string) []byte {
	return must(rsa.SignPKCS1v15(nil, k, h, digest(h, msg)))
}

// ecDER is a deterministic (RFC 6979) ECDSA signature in ASN.1 DER.
func ecDER(k *ecdsa.PrivateKey, h crypto.Hash, msg string) []byte {
	return must(k.Sign(nil, digest(h, msg), h))
}

// ecRaw is ecDER as JOSE and RFC 9421 want it: r || s, each padded to the
// curve's size.
func ecRaw(k *ecdsa.PrivateKey, h crypto.Hash, msg string) []byte {
	var sig struct{ R, S *big.Int }
	der := ecDER(k, h, msg)
	if _, err := asn1.Unmarshal(der, &sig); err != nil {
		panic(err)
	}
	size := (k.Curve.Params().BitSize + 7) / 8
	return append(sig.R.FillBytes(make([]byte, size)), sig.S.FillBytes(make([]byte, size))...)
}

// edSPlusL returns sig with S replaced by S + L (the group order): the
// same signature to a verifier that reduces S instead of refusing it
// (RFC 8032 §5.1.7 requires S < L).
func edSPlusL(sig []byte) []byte {
	l, _ := new(big.Int).SetString("7237005577332262213973186563042994240857116359379907606001950938285454250989", 10)
	le := func(b []byte) []byte {
		r := append([]byte(nil), b...)
		for i, j := 0, len(r)-1; i < j; i, j = i+1, j-1 {
			r[i], r[j] = r[j], r[i]
		}
		return r
	}
	s := new(big.Int).SetBytes(le(sig[32:]))
	s.Add(s, l)
	out := append([]byte(nil), sig[:32]...)
	return append(out, le(s.FillBytes(make([]byte, 32)))...)
}

func ed25519Sign(k ed25519.PrivateKey, msg string) []byte { return ed25519.Sign(k, []byte(msg)) }

func b64Decode(s string) ([]byte, error) { return base64.RawURLEncoding.Strict().DecodeString(s) }

// sshString is an SSH wire-format string (RFC 4251 §5).
func sshString(b []byte) []byte {
	n := len(b)
	return append([]byte{byte(n >> 24), byte(n >> 16), byte(n >> 8), byte(n)}, b...)
}

var sha256New = sha256.New

// smallOrder is an Ed25519 public key of small order: the encoding of the
// identity point of edwards25519 (y = 1, order 1). signet refuses to make
// such a key (signet.ErrWeakKey); a verifier that takes it checks
// [S]B = R + [k]A with [k]A the identity for every k, so the one signature
// identityForgery (R the identity, S = 0) verifies every message.
func smallOrder() ed25519.PublicKey { return append(ed25519.PublicKey{1}, make([]byte, 31)...) }

// identityForgery is the signature R = identity, S = 0 that verifies any
// message under smallOrder; it checks that crypto/ed25519 accepts it for
// msg, so the corpus states what the raw primitive does.
func identityForgery(msg []byte) []byte {
	sig := append([]byte(smallOrder()), make([]byte, 32)...)
	if !ed25519.Verify(smallOrder(), msg, sig) {
		panic("crypto/ed25519 refuses the identity forgery: the small-order cases no longer say what they claim")
	}
	return sig
}

// smallOrderJWK is the verifier's JWK of smallOrder, written by hand
// (signet refuses to make the key, so it cannot encode it).
func smallOrderJWK() json.RawMessage {
	return json.RawMessage(`{"kty":"OKP","crv":"Ed25519","x":"` + b64u(smallOrder()) + `"}`)
}

// smallOrderPASERK is the k4.public PASERK of smallOrder, by hand.
func smallOrderPASERK() string { return "k4.public." + b64u(smallOrder()) }
