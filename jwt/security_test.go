package jwt_test

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/rsa"
	"crypto/x509"
	"errors"
	"net/http"
	"net/http/httptest"
	"runtime"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/signet-go/signet"
	"github.com/signet-go/signet/internal/b64"
	"github.com/signet-go/signet/jwt"
)

var now = time.Unix(1_800_000_000, 0)

// craft signs an arbitrary header and payload with key, bypassing every
// check signet's own signer makes: the attacker's tool.
func craft(t testing.TB, key *signet.Key, header, payload string) string {
	t.Helper()
	in := b64.EncodeToString([]byte(header)) + "." + b64.EncodeToString([]byte(payload))
	sig, err := key.Sign(nil, []byte(in))
	if err != nil {
		t.Fatal(err)
	}
	return in + "." + b64.EncodeToString(sig)
}

// signRaw signs an arbitrary signing input.
func signRaw(t testing.TB, key *signet.Key, in string) string {
	t.Helper()
	sig, err := key.Sign(nil, []byte(in))
	if err != nil {
		t.Fatal(err)
	}
	return in + "." + b64.EncodeToString(sig)
}

// macWith computes HS256 over header.payload with an arbitrary secret, as
// an attacker who knows the public key would.
func macWith(t testing.TB, secret []byte, header, payload string) string {
	t.Helper()
	k, err := signet.NewKey(signet.HS256, secret)
	if err != nil {
		t.Fatal(err)
	}
	return craft(t, k, header, payload)
}

func mustKey(t testing.TB, alg signet.Algorithm) *signet.Key {
	t.Helper()
	k, err := signet.GenerateKey(alg)
	if err != nil {
		t.Fatal(err)
	}
	return k
}

func pub(t testing.TB, k *signet.Key) *signet.Key {
	t.Helper()
	p, err := k.Public()
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func exp(d time.Duration) string { return strconv.FormatInt(now.Add(d).Unix(), 10) }

// TestSecurity is the attack table: each case is a token an attacker (or a
// broken issuer) could send, the keys and policy of the verifier, and the
// exact sentinel error it must be refused with.
func TestSecurity(t *testing.T) {
	hs := mustKey(t, signet.HS256)
	hs512 := mustKey(t, signet.HS512)
	rs := mustKey(t, signet.RS256)
	es := mustKey(t, signet.ES256)
	ed := mustKey(t, signet.EdDSA)
	attacker := mustKey(t, signet.HS256)
	attackerEd := mustKey(t, signet.EdDSA)
	v4pub := mustKey(t, signet.V4Public)
	rsPub, esPub := pub(t, rs), pub(t, es)

	good := `{"sub":"u1","exp":` + exp(time.Hour) + `}`
	hdr := `{"alg":"HS256","typ":"JWT"}`
	valid := craft(t, hs, hdr, good)
	dot := strings.LastIndexByte(valid, '.')
	firstDot := strings.IndexByte(valid, '.')

	spki, err := x509.MarshalPKIXPublicKey(rsPub.PublicMaterial())
	if err != nil {
		t.Fatal(err)
	}
	set, err := signet.NewKeySet(rs.WithKeyID("rsa-1"), hs.WithKeyID("hmac-1"))
	if err != nil {
		t.Fatal(err)
	}
	edHTTP := mustKey(t, signet.Ed25519)
	edSet, err := signet.NewKeySet(pub(t, ed).WithKeyID("ed-1"), hs.WithKeyID("hmac-1"))
	if err != nil {
		t.Fatal(err)
	}

	// ECDSA signatures: r = s = 0, r = n, and a valid signature in DER.
	esInput := b64.EncodeToString([]byte(`{"alg":"ES256"}`)) + "." + b64.EncodeToString([]byte(good))
	zeroSig := esInput + "." + b64.EncodeToString(make([]byte, 64))
	order := elliptic.P256().Params().N.FillBytes(make([]byte, 32))
	rIsN := esInput + "." + b64.EncodeToString(append(append([]byte{}, order...), order...))
	digest := sha256Of(esInput)
	der, err := ecdsa.SignASN1(rand.Reader, es.Material().(*ecdsa.PrivateKey), digest[:])
	if err != nil {
		t.Fatal(err)
	}
	derSig := esInput + "." + b64.EncodeToString(der)

	type tc struct {
		name  string
		keys  signet.Keys
		token string
		p     jwt.Policy
		want  error
	}
	cases := []tc{
		{"valid control", hs, valid, jwt.Policy{}, nil},

		// alg none and case variants.
		{"alg none, empty signature", hs, b64.EncodeToString([]byte(`{"alg":"none"}`)) + "." + b64.EncodeToString([]byte(good)) + ".", jwt.Policy{}, signet.ErrMalformed},
		{"alg none with a signature", hs, craft(t, hs, `{"alg":"none"}`, good), jwt.Policy{}, signet.ErrAlgorithmMismatch},
		{"alg NoNe", hs, craft(t, hs, `{"alg":"NoNe"}`, good), jwt.Policy{}, signet.ErrAlgorithmMismatch},
		{"alg none against a key set", set, craft(t, hs, `{"alg":"none","kid":"hmac-1"}`, good), jwt.Policy{}, signet.ErrAlgorithmMismatch},

		// Key confusion and algorithm substitution.
		{"RS256 public key used as HS256 secret", rsPub, macWith(t, spki, hdr, good), jwt.Policy{}, signet.ErrAlgorithmMismatch},
		{"HS256 with RSA key's kid in a set", set, macWith(t, spki, `{"alg":"HS256","kid":"rsa-1"}`, good), jwt.Policy{}, signet.ErrAlgorithmMismatch},
		{"RS256 key, header says RS384", rsPub, craft(t, rs, `{"alg":"RS384"}`, good), jwt.Policy{}, signet.ErrAlgorithmMismatch},
		{"RS256 key, header says PS256", rsPub, craft(t, rs, `{"alg":"PS256"}`, good), jwt.Policy{}, signet.ErrAlgorithmMismatch},
		{"HS512 key, header says HS256", hs512, craft(t, hs512, hdr, good), jwt.Policy{}, signet.ErrAlgorithmMismatch},
		{"ES256 key, header says ES384", esPub, craft(t, es, `{"alg":"ES384"}`, good), jwt.Policy{}, signet.ErrAlgorithmMismatch},
		{"unknown alg", hs, craft(t, hs, `{"alg":"HS257"}`, good), jwt.Policy{}, signet.ErrAlgorithmMismatch},
		{"PASETO key named by a JWS header", pub(t, v4pub), craft(t, v4pub, `{"alg":"v4.public"}`, good), jwt.Policy{}, signet.ErrAlgorithmMismatch},

		// "Ed25519" (RFC 9864) is EdDSA's fully-specified name: an EdDSA
		// key accepts it, and only an EdDSA key does.
		{"EdDSA key, header says Ed25519", pub(t, ed), craft(t, ed, `{"alg":"Ed25519"}`, good), jwt.Policy{}, nil},
		{"EdDSA key in a set, header says Ed25519", edSet, craft(t, ed, `{"alg":"Ed25519","kid":"ed-1"}`, good), jwt.Policy{}, nil},
		{"Ed25519 header signed by another Ed25519 key", pub(t, ed), craft(t, attackerEd, `{"alg":"Ed25519"}`, good), jwt.Policy{}, signet.ErrSignatureInvalid},
		{"ES256 key, header says Ed25519", esPub, craft(t, ed, `{"alg":"Ed25519"}`, good), jwt.Policy{}, signet.ErrAlgorithmMismatch},
		{"HS256 key, header says Ed25519", hs, craft(t, hs, `{"alg":"Ed25519"}`, good), jwt.Policy{}, signet.ErrAlgorithmMismatch},
		{"Ed25519 header with an HMAC key's kid in a set", edSet, craft(t, hs, `{"alg":"Ed25519","kid":"hmac-1"}`, good), jwt.Policy{}, signet.ErrAlgorithmMismatch},
		{"RFC 9421 ed25519 key, header says Ed25519", pub(t, edHTTP), craft(t, edHTTP, `{"alg":"Ed25519"}`, good), jwt.Policy{}, signet.ErrAlgorithmMismatch},
		{"PASETO v4.public key, header says Ed25519", pub(t, v4pub), craft(t, v4pub, `{"alg":"Ed25519"}`, good), jwt.Policy{}, signet.ErrAlgorithmMismatch},
		{"EdDSA key, header says Ed448", pub(t, ed), craft(t, ed, `{"alg":"Ed448"}`, good), jwt.Policy{}, signet.ErrAlgorithmMismatch},
		{"EdDSA key, header says ed25519 (RFC 9421's name)", pub(t, ed), craft(t, ed, `{"alg":"ed25519"}`, good), jwt.Policy{}, signet.ErrAlgorithmMismatch},
		{"EdDSA key, header says ED25519", pub(t, ed), craft(t, ed, `{"alg":"ED25519"}`, good), jwt.Policy{}, signet.ErrAlgorithmMismatch},
		{"EdDSA key, header says Ed25519 with an escape", pub(t, ed), craft(t, ed, `{"alg":"Ed2551\u0039"}`, good), jwt.Policy{}, nil},

		// Tampering.
		{"signed by another key", hs, craft(t, attacker, hdr, good), jwt.Policy{}, signet.ErrSignatureInvalid},
		{"tampered header", hs, b64.EncodeToString([]byte(`{"alg":"HS256","typ":"JWT","kid":"x"}`)) + valid[firstDot:], jwt.Policy{}, signet.ErrSignatureInvalid},
		{"tampered payload", hs, valid[:firstDot+1] + b64.EncodeToString([]byte(`{"sub":"admin","exp":`+exp(time.Hour)+`}`)) + valid[dot:], jwt.Policy{}, signet.ErrSignatureInvalid},
		{"tampered signature", hs, valid[:dot+1] + flip(valid[dot+1:]), jwt.Policy{}, signet.ErrSignatureInvalid},
		{"signature of another token", hs, valid[:dot] + craft(t, hs, hdr, `{"exp":1}`)[strings.LastIndexByte(craft(t, hs, hdr, `{"exp":1}`), '.'):], jwt.Policy{}, signet.ErrSignatureInvalid},
		{"truncated signature", hs, valid[:len(valid)-3], jwt.Policy{}, signet.ErrSignatureInvalid},
		{"signature cut to invalid length", hs, valid[:len(valid)-2], jwt.Policy{}, signet.ErrMalformed},
		{"padded signature", hs, valid + "=", jwt.Policy{}, signet.ErrMalformed},
		{"padding added after signing", hs, valid[:dot] + "=" + valid[dot:], jwt.Policy{}, signet.ErrSignatureInvalid},
		{"padded payload, signed with the padding", hs, signRaw(t, hs, valid[:dot]+"=="), jwt.Policy{}, signet.ErrMalformed},
		{"padded header, signed with the padding", hs, signRaw(t, hs, b64.EncodeToString([]byte(hdr))+"="+valid[firstDot:dot]), jwt.Policy{}, signet.ErrMalformed},
		{"standard base64 alphabet", hs, valid[:dot+1] + strings.NewReplacer("-", "+", "_", "/").Replace(valid[dot+1:]) + "+", jwt.Policy{}, signet.ErrMalformed},
		{"line break in signature", hs, valid[:dot+5] + "\n" + valid[dot+5:], jwt.Policy{}, signet.ErrMalformed},
		{"non-canonical trailing bits", hs, valid[:len(valid)-1] + nonCanonical(valid[len(valid)-1]), jwt.Policy{}, signet.ErrMalformed},
		{"space around token", hs, " " + valid, jwt.Policy{}, signet.ErrMalformed},

		// Structure.
		{"empty", hs, "", jwt.Policy{}, signet.ErrMalformed},
		{"one segment", hs, valid[:firstDot], jwt.Policy{}, signet.ErrMalformed},
		{"two segments", hs, valid[:dot], jwt.Policy{}, signet.ErrMalformed},
		{"four segments", hs, valid + ".AAAA", jwt.Policy{}, signet.ErrMalformed},
		{"JWE (five segments)", hs, "eyJhbGciOiJkaXIiLCJlbmMiOiJBMTI4R0NNIn0..AAAA.AAAA.AAAA", jwt.Policy{}, signet.ErrMalformed},
		{"empty header", hs, valid[firstDot:], jwt.Policy{}, signet.ErrMalformed},
		{"header not JSON", hs, craft(t, hs, `alg=HS256`, good), jwt.Policy{}, signet.ErrMalformed},
		{"header without alg", hs, craft(t, hs, `{"typ":"JWT"}`, good), jwt.Policy{}, signet.ErrMalformed},
		{"alg not a string", hs, craft(t, hs, `{"alg":["HS256"]}`, good), jwt.Policy{}, signet.ErrMalformed},
		{"payload not an object", hs, craft(t, hs, hdr, `["exp"]`), jwt.Policy{}, signet.ErrMalformed},
		{"payload trailing data", hs, craft(t, hs, hdr, good+`{}`), jwt.Policy{}, signet.ErrMalformed},

		// Huge input.
		{"8 MiB token", hs, strings.Repeat("a", 8<<20), jwt.Policy{}, signet.ErrTooLarge},
		{"100k dots", hs, strings.Repeat(".", 100_000), jwt.Policy{}, signet.ErrTooLarge},
		{"100k dots under a 1 MiB limit", hs, strings.Repeat(".", 100_000), jwt.Policy{MaxSize: 1 << 20}, signet.ErrMalformed},
		{"token one byte over a set limit", hs, valid, jwt.Policy{MaxSize: len(valid) - 1}, signet.ErrTooLarge},

		// ECDSA.
		{"ES256 r = s = 0", esPub, zeroSig, jwt.Policy{}, signet.ErrSignatureInvalid},
		{"ES256 r = s = n", esPub, rIsN, jwt.Policy{}, signet.ErrSignatureInvalid},
		{"ES256 DER signature", esPub, derSig, jwt.Policy{}, signet.ErrSignatureInvalid},
		{"ES256 empty-ish signature", esPub, esInput + ".AA", jwt.Policy{}, signet.ErrSignatureInvalid},
		{"EdDSA signature of other length", pub(t, ed), craft(t, ed, `{"alg":"EdDSA"}`, good) + "AA", jwt.Policy{}, signet.ErrSignatureInvalid},

		// Duplicates and injection.
		{"duplicate alg", hs, craft(t, hs, `{"alg":"none","alg":"HS256"}`, good), jwt.Policy{}, signet.ErrMalformed},
		{"duplicate alg, escaped name", hs, craft(t, hs, `{"alg":"HS256","al\u0067":"none"}`, good), jwt.Policy{}, signet.ErrMalformed},
		{"duplicate exp", hs, craft(t, hs, hdr, `{"exp":1,"exp":`+exp(time.Hour)+`}`), jwt.Policy{}, signet.ErrMalformed},
		{"duplicate nested member", hs, craft(t, hs, hdr, `{"exp":`+exp(time.Hour)+`,"x":{"a":1,"a":2}}`), jwt.Policy{}, signet.ErrMalformed},
		{"case variant beside exp", hs, craft(t, hs, hdr, `{"exp":`+exp(-time.Hour)+`,"EXP":`+exp(time.Hour)+`}`), jwt.Policy{}, signet.ErrMalformed},

		// Wrongly typed claims.
		{"exp as string", hs, craft(t, hs, hdr, `{"exp":"`+exp(time.Hour)+`"}`), jwt.Policy{}, signet.ErrMalformed},
		{"exp as bool", hs, craft(t, hs, hdr, `{"exp":true}`), jwt.Policy{}, signet.ErrMalformed},
		{"exp beyond 2^53", hs, craft(t, hs, hdr, `{"exp":1e300}`), jwt.Policy{}, signet.ErrMalformed},
		{"nbf as null", hs, craft(t, hs, hdr, `{"exp":`+exp(time.Hour)+`,"nbf":null}`), jwt.Policy{}, signet.ErrMalformed},
		{"iss as number", hs, craft(t, hs, hdr, `{"exp":`+exp(time.Hour)+`,"iss":1}`), jwt.Policy{}, signet.ErrMalformed},
		{"aud as object", hs, craft(t, hs, hdr, `{"exp":`+exp(time.Hour)+`,"aud":{"api":1}}`), jwt.Policy{Audience: []string{"api"}}, signet.ErrMalformed},
		{"aud array with a number", hs, craft(t, hs, hdr, `{"exp":`+exp(time.Hour)+`,"aud":["api",1]}`), jwt.Policy{Audience: []string{"api"}}, signet.ErrMalformed},
		{"invalid UTF-8 in a claim", hs, craft(t, hs, hdr, `{"exp":`+exp(time.Hour)+`,"sub":"a`+"\xff"+`"}`), jwt.Policy{}, signet.ErrMalformed},
		{"lone surrogate escape", hs, craft(t, hs, hdr, `{"exp":`+exp(time.Hour)+`,"sub":"\ud800"}`), jwt.Policy{}, signet.ErrMalformed},
		{"nesting 100 deep", hs, craft(t, hs, hdr, `{"exp":`+exp(time.Hour)+`,"x":`+strings.Repeat("[", 100)+strings.Repeat("]", 100)+`}`), jwt.Policy{}, signet.ErrMalformed},

		// Header extensions signet does not understand.
		{"unknown crit", hs, craft(t, hs, `{"alg":"HS256","crit":["x-unknown"],"x-unknown":1}`, good), jwt.Policy{}, signet.ErrUnsupported},
		{"empty crit", hs, craft(t, hs, `{"alg":"HS256","crit":[]}`, good), jwt.Policy{}, signet.ErrMalformed},
		{"b64 false (RFC 7797)", hs, craft(t, hs, `{"alg":"HS256","b64":false,"crit":["b64"]}`, good), jwt.Policy{}, signet.ErrUnsupported},
		{"zip in a JWS", hs, craft(t, hs, `{"alg":"HS256","zip":"DEF"}`, good), jwt.Policy{}, signet.ErrUnsupported},
		{"enc in a JWS (a JWE header)", hs, craft(t, hs, `{"alg":"HS256","enc":"A128GCM"}`, good), jwt.Policy{}, signet.ErrUnsupported},
		{"crit not an array", hs, craft(t, hs, `{"alg":"HS256","crit":"exp"}`, good), jwt.Policy{}, signet.ErrMalformed},
		{"nested JWT (cty)", hs, craft(t, hs, `{"alg":"HS256","cty":"JWT"}`, good), jwt.Policy{}, signet.ErrUnsupported},
		{"typ other than JWT", hs, craft(t, hs, `{"alg":"HS256","typ":"at+jwt"}`, good), jwt.Policy{}, signet.ErrType},
		{"typ required but absent", hs, craft(t, hs, `{"alg":"HS256"}`, good), jwt.Policy{Type: "at+jwt"}, signet.ErrType},
		{"typ required and present", hs, craft(t, hs, `{"alg":"HS256","typ":"application/AT+JWT"}`, good), jwt.Policy{Type: "at+jwt"}, nil},

		// Keys named by the token are never trusted.
		{"embedded jwk header with the attacker's key", pub(t, ed), craft(t, attackerEd, `{"alg":"EdDSA","jwk":`+mustJWK(t, attackerEd)+`}`, good), jwt.Policy{}, signet.ErrSignatureInvalid},
		{"kid not in the set", set, craft(t, hs, `{"alg":"HS256","kid":"nope"}`, good), jwt.Policy{}, signet.ErrKeyNotFound},
		{"no kid, no key for alg in set", set, craft(t, es, `{"alg":"ES256"}`, good), jwt.Policy{}, signet.ErrKeyNotFound},
		{"no kid, keys with IDs: ambiguous, nothing tried", manyKeySet(t), craft(t, attacker, hdr, good), jwt.Policy{}, signet.ErrKeyNotFound},
		{"kid of a single key differs", hs.WithKeyID("k1"), craft(t, hs, `{"alg":"HS256","kid":"k2"}`, good), jwt.Policy{}, signet.ErrKeyNotFound},

		// Time and identity claims.
		{"expired", hs, craft(t, hs, hdr, `{"exp":`+exp(-time.Second)+`}`), jwt.Policy{}, signet.ErrExpired},
		{"expires exactly now", hs, craft(t, hs, hdr, `{"exp":`+exp(0)+`}`), jwt.Policy{}, signet.ErrExpired},
		{"expired within leeway", hs, craft(t, hs, hdr, `{"exp":`+exp(-30*time.Second)+`}`), jwt.Policy{Leeway: time.Minute}, nil},
		{"missing exp", hs, craft(t, hs, hdr, `{"sub":"u1"}`), jwt.Policy{}, signet.ErrMissingClaim},
		{"missing exp, opted out", hs, craft(t, hs, hdr, `{"sub":"u1"}`), jwt.Policy{NoExpiry: true}, nil},
		{"expired, opted out of exp still checks it", hs, craft(t, hs, hdr, `{"exp":`+exp(-time.Hour)+`}`), jwt.Policy{NoExpiry: true}, signet.ErrExpired},
		{"not yet valid", hs, craft(t, hs, hdr, `{"exp":`+exp(time.Hour)+`,"nbf":`+exp(time.Minute)+`}`), jwt.Policy{}, signet.ErrNotYetValid},
		{"issued in the future", hs, craft(t, hs, hdr, `{"exp":`+exp(time.Hour)+`,"iat":`+exp(time.Minute)+`}`), jwt.Policy{}, signet.ErrIssuedInFuture},
		{"wrong audience", hs, craft(t, hs, hdr, `{"exp":`+exp(time.Hour)+`,"aud":["web","app"]}`), jwt.Policy{Audience: []string{"api"}}, signet.ErrAudience},
		{"empty audience array", hs, craft(t, hs, hdr, `{"exp":`+exp(time.Hour)+`,"aud":[]}`), jwt.Policy{Audience: []string{"api"}}, signet.ErrAudience},
		{"no audience", hs, good2(t, hs), jwt.Policy{Audience: []string{"api"}}, signet.ErrAudience},
		{"audience in array", hs, craft(t, hs, hdr, `{"exp":`+exp(time.Hour)+`,"aud":["web","api"]}`), jwt.Policy{Audience: []string{"api"}}, nil},
		// Audience (RFC 7519 §4.1.3): a token with aud is for the verifiers
		// it names; one that names none refuses it unless it opts out.
		{"aud present, verifier names none", hs, craft(t, hs, hdr, `{"exp":`+exp(time.Hour)+`,"aud":"api"}`), jwt.Policy{}, signet.ErrAudience},
		{"aud array present, verifier names none", hs, craft(t, hs, hdr, `{"exp":`+exp(time.Hour)+`,"aud":["api"]}`), jwt.Policy{}, signet.ErrAudience},
		{"empty aud array present, verifier names none", hs, craft(t, hs, hdr, `{"exp":`+exp(time.Hour)+`,"aud":[]}`), jwt.Policy{}, signet.ErrAudience},
		{"aud mismatch", hs, craft(t, hs, hdr, `{"exp":`+exp(time.Hour)+`,"aud":"web"}`), jwt.Policy{Audience: []string{"api"}}, signet.ErrAudience},
		{"aud one of several", hs, craft(t, hs, hdr, `{"exp":`+exp(time.Hour)+`,"aud":"api"}`), jwt.Policy{Audience: []string{"web", "api"}}, nil},
		{"aud array meets one of several", hs, craft(t, hs, hdr, `{"exp":`+exp(time.Hour)+`,"aud":["x","web"]}`), jwt.Policy{Audience: []string{"api", "web"}}, nil},
		{"aud none of several", hs, craft(t, hs, hdr, `{"exp":`+exp(time.Hour)+`,"aud":["x","y"]}`), jwt.Policy{Audience: []string{"api", "web"}}, signet.ErrAudience},
		{"aud present, IgnoreAudience", hs, craft(t, hs, hdr, `{"exp":`+exp(time.Hour)+`,"aud":"web"}`), jwt.Policy{IgnoreAudience: true}, nil},
		{"no aud, verifier names none", hs, good2(t, hs), jwt.Policy{}, nil},
		{"Audience and IgnoreAudience both set", hs, craft(t, hs, hdr, `{"exp":`+exp(time.Hour)+`,"aud":"api"}`), jwt.Policy{Audience: []string{"api"}, IgnoreAudience: true}, signet.ErrUnsupported},
		{"an empty Audience value", hs, craft(t, hs, hdr, `{"exp":`+exp(time.Hour)+`,"aud":""}`), jwt.Policy{Audience: []string{""}}, signet.ErrUnsupported},
		// The exp boundary second (RFC 7519 §4.1.4), as in paseto.
		{"exp one second ahead", hs, craft(t, hs, hdr, `{"exp":`+exp(time.Second)+`}`), jwt.Policy{}, nil},
		{"exp at now, zero leeway", hs, craft(t, hs, hdr, `{"exp":`+exp(0)+`}`), jwt.Policy{Leeway: 0}, signet.ErrExpired},
		{"exp a leeway ago", hs, craft(t, hs, hdr, `{"exp":`+exp(-time.Minute)+`}`), jwt.Policy{Leeway: time.Minute}, signet.ErrExpired},
		{"exp a leeway less a second ago", hs, craft(t, hs, hdr, `{"exp":`+exp(-59*time.Second)+`}`), jwt.Policy{Leeway: time.Minute}, nil},
		{"nbf at now", hs, craft(t, hs, hdr, `{"exp":`+exp(time.Hour)+`,"nbf":`+exp(0)+`}`), jwt.Policy{}, nil},
		{"nbf a second ahead, zero leeway", hs, craft(t, hs, hdr, `{"exp":`+exp(time.Hour)+`,"nbf":`+exp(time.Second)+`}`), jwt.Policy{}, signet.ErrNotYetValid},
		{"iat a second ahead, zero leeway", hs, craft(t, hs, hdr, `{"exp":`+exp(time.Hour)+`,"iat":`+exp(time.Second)+`}`), jwt.Policy{}, signet.ErrIssuedInFuture},
		{"negative exp", hs, craft(t, hs, hdr, `{"exp":-1}`), jwt.Policy{}, signet.ErrMalformed},
		{"exp of 2^53 + 1", hs, craft(t, hs, hdr, `{"exp":9007199254740993}`), jwt.Policy{}, signet.ErrMalformed},
		{"wrong issuer", hs, craft(t, hs, hdr, `{"exp":`+exp(time.Hour)+`,"iss":"evil"}`), jwt.Policy{Issuer: "good"}, signet.ErrIssuer},
		{"wrong subject", hs, craft(t, hs, hdr, `{"exp":`+exp(time.Hour)+`,"sub":"u2"}`), jwt.Policy{Subject: "u1"}, signet.ErrSubject},
		{"wrong jti", hs, craft(t, hs, hdr, `{"exp":`+exp(time.Hour)+`,"jti":"a"}`), jwt.Policy{ID: "b"}, signet.ErrTokenID},

		// Fractional dates (RFC 7519 §2) are checked with their fraction,
		// as paseto's are: never valid earlier, or longer, than they say.
		{"nbf a tenth of a second ahead", hs, craft(t, hs, hdr, `{"exp":`+exp(time.Hour)+`,"nbf":`+exp(0)+`.1}`), jwt.Policy{}, signet.ErrNotYetValid},
		{"nbf 0.9 s ahead", hs, craft(t, hs, hdr, `{"exp":`+exp(time.Hour)+`,"nbf":`+exp(0)+`.9}`), jwt.Policy{}, signet.ErrNotYetValid},
		{"nbf a tenth of a second ahead, as an exponent", hs, craft(t, hs, hdr, `{"exp":`+exp(time.Hour)+`,"nbf":1.8000000001e9}`), jwt.Policy{}, signet.ErrNotYetValid},
		{"nbf a nanosecond ahead", hs, craft(t, hs, hdr, `{"exp":`+exp(time.Hour)+`,"nbf":`+exp(0)+`.000000001}`), jwt.Policy{}, signet.ErrNotYetValid},
		{"nbf 0.1 s ago", hs, craft(t, hs, hdr, `{"exp":`+exp(time.Hour)+`,"nbf":`+exp(-time.Second)+`.9}`), jwt.Policy{}, nil},
		{"nbf past the leeway by 0.5 s", hs, craft(t, hs, hdr, `{"exp":`+exp(time.Hour)+`,"nbf":`+exp(time.Minute)+`.5}`), jwt.Policy{Leeway: time.Minute}, signet.ErrNotYetValid},
		{"nbf within the leeway by 0.5 s", hs, craft(t, hs, hdr, `{"exp":`+exp(time.Hour)+`,"nbf":`+exp(59*time.Second)+`.5}`), jwt.Policy{Leeway: time.Minute}, nil},
		{"iat a tenth of a second ahead", hs, craft(t, hs, hdr, `{"exp":`+exp(time.Hour)+`,"iat":`+exp(0)+`.1}`), jwt.Policy{}, signet.ErrIssuedInFuture},
		{"exp half a second ahead", hs, craft(t, hs, hdr, `{"exp":`+exp(0)+`.5}`), jwt.Policy{}, nil},
		{"exp half a second ago", hs, craft(t, hs, hdr, `{"exp":`+exp(-time.Second)+`.5}`), jwt.Policy{}, signet.ErrExpired},
		{"exp at now, written with a zero fraction", hs, craft(t, hs, hdr, `{"exp":`+exp(0)+`.000}`), jwt.Policy{}, signet.ErrExpired},
		{"exp of -0.5", hs, craft(t, hs, hdr, `{"exp":-0.5}`), jwt.Policy{}, signet.ErrMalformed},
		{"exp just past 2^53", hs, craft(t, hs, hdr, `{"exp":9007199254740992.5}`), jwt.Policy{}, signet.ErrMalformed},
		// An exponent is read whole, however long the mantissa: 1.9 ×
		// 10^-10485758414 is long past, never 1.9e9 (an exponent cut short
		// at 2^20 met a mantissa of over 2^20 digits, under a MaxSize that
		// lets such a token in).
		{"exp of a megabyte mantissa and a long negative exponent", hs, craft(t, hs, hdr, `{"exp":19`+strings.Repeat("0", 1<<20+8)+`e-10485760000}`), jwt.Policy{MaxSize: 4 << 20}, signet.ErrExpired},
	}
	// A registered claim's name in other case ("AUD", "Exp", "ſub"): never
	// read as the claim, while encoding/json would fill the caller's field
	// for it, so refused whatever the verifier decodes into (see
	// TestRegisteredNameVariants for the other forms).
	for _, v := range registeredVariants() {
		payload := `{"exp":` + exp(time.Hour) + `,"` + v.Name + `":` + v.Value + `}`
		p := jwt.Policy{}
		if v.Claim == "exp" {
			payload, p = `{"`+v.Name+`":`+exp(time.Hour)+`}`, jwt.Policy{NoExpiry: true}
		}
		cases = append(cases,
			tc{"variant " + v.Name + " of " + v.Claim, hs, craft(t, hs, hdr, payload), p, signet.ErrMalformed},
			tc{"variant " + v.Name + " of " + v.Claim + ", spaced", hs, craft(t, hs, hdr, "{ "+payload[1:]), p, signet.ErrMalformed})
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			p := c.p
			p.Now = fixed(now)
			claims, err := jwt.Verify[jwt.Claims](c.keys, c.token, p)
			if c.want == nil {
				if err != nil {
					t.Fatalf("want accepted, got %v", err)
				}
				return
			}
			if !errors.Is(err, c.want) {
				t.Fatalf("got %v, want %v", err, c.want)
			}
			if claims.Subject != "" || claims.ExpiresAt != 0 {
				t.Fatalf("claims returned with an error: %+v", claims)
			}
			// The same verdict through the map form, which reads the same
			// registered claims.
			if _, err := jwt.Verify[jwt.Map](c.keys, c.token, p); !errors.Is(err, c.want) {
				t.Fatalf("Map: got %v, want %v", err, c.want)
			}
			// And VerifyBytes, which reads no claims, for the failures
			// that come before them.
			if !isClaimsOnly(c.want) {
				if _, _, err := jwt.VerifyBytes(c.keys, c.token, p); !errors.Is(err, c.want) && c.want != signet.ErrMalformed {
					t.Fatalf("VerifyBytes: got %v, want %v", err, c.want)
				}
			}
		})
	}
}

// isClaimsOnly: errors that only reading the claims can give.
func isClaimsOnly(err error) bool {
	for _, e := range []error{signet.ErrExpired, signet.ErrNotYetValid, signet.ErrIssuedInFuture, signet.ErrMissingClaim, signet.ErrAudience, signet.ErrIssuer, signet.ErrSubject, signet.ErrTokenID} {
		if err == e {
			return true
		}
	}
	return false
}

func good2(t *testing.T, k *signet.Key) string {
	return craft(t, k, `{"alg":"HS256"}`, `{"exp":`+exp(time.Hour)+`}`)
}

// TestJKUNeverFetched: a token naming key URLs verifies or fails on the
// caller's keys alone, and nothing is fetched.
func TestJKUNeverFetched(t *testing.T) {
	var hits atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hits.Add(1)
		w.WriteHeader(http.StatusNotFound)
	}))
	defer srv.Close()
	hs, attacker := mustKey(t, signet.HS256), mustKey(t, signet.HS256)
	payload := `{"exp":` + exp(time.Hour) + `}`
	for _, member := range []string{"jku", "x5u"} {
		h := `{"alg":"HS256","` + member + `":"` + srv.URL + `/keys"}`
		if _, err := jwt.Verify[jwt.Claims](hs, craft(t, attacker, h, payload), jwt.Policy{Now: fixed(now)}); !errors.Is(err, signet.ErrSignatureInvalid) {
			t.Fatalf("%s with attacker's key: %v", member, err)
		}
		if _, err := jwt.Verify[jwt.Claims](hs, craft(t, hs, h, payload), jwt.Policy{Now: fixed(now)}); err != nil {
			t.Fatalf("%s with the right key: %v", member, err)
		}
	}
	if n := hits.Load(); n != 0 {
		t.Fatalf("%d requests made to the URL in the token", n)
	}
}

// TestHugeInputConstantMemory: hostile sizes are refused in constant
// memory: the bytes allocated do not grow with the input.
func TestHugeInputConstantMemory(t *testing.T) {
	hs := mustKey(t, signet.HS256)
	inputs := map[string]string{
		"8 MiB":            strings.Repeat("a", 8<<20),
		"100k dots":        strings.Repeat(".", 100_000),
		"1 MiB of a.b.c.d": strings.Repeat("ab.", 1<<18),
	}
	for name, in := range inputs {
		for _, max := range []int{0, 16 << 20} {
			perCall := bytesPerCall(func() {
				if _, err := jwt.Verify[jwt.Claims](hs, in, jwt.Policy{MaxSize: max}); err == nil {
					t.Fatal("accepted")
				}
			})
			// An error message allocates a little; nothing may scale with
			// the megabytes of input.
			if perCall > 2048 {
				t.Errorf("%s (max %d): %d bytes allocated per call", name, max, perCall)
			}
		}
	}
}

func bytesPerCall(f func()) uint64 {
	const n = 20
	f()
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	for range n {
		f()
	}
	runtime.ReadMemStats(&after)
	return (after.TotalAlloc - before.TotalAlloc) / n
}

// TestWeakKeys: keys below the minimum strength are refused when made.
func TestWeakKeys(t *testing.T) {
	small, err := rsa.GenerateKey(rand.Reader, 1024)
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name     string
		alg      signet.Algorithm
		material any
	}{
		{"HS256 31 bytes", signet.HS256, make([]byte, 31)},
		{"HS384 32 bytes", signet.HS384, make([]byte, 32)},
		{"HS512 48 bytes", signet.HS512, make([]byte, 48)},
		{"HS256 empty", signet.HS256, []byte{}},
		{"RS256 1024 bits", signet.RS256, small},
		{"PS256 1024-bit public key", signet.PS256, &small.PublicKey},
		{"EC point off the curve", signet.ES256, offCurve(t)},
	}
	for _, c := range cases {
		if _, err := signet.NewKey(c.alg, c.material); !errors.Is(err, signet.ErrWeakKey) {
			t.Errorf("%s: got %v, want ErrWeakKey", c.name, err)
		}
	}
	if _, err := signet.NewKey(signet.HS256, make([]byte, 32)); err != nil {
		t.Errorf("32-byte HS256 secret refused: %v", err)
	}
}

func offCurve(t *testing.T) *ecdsa.PublicKey {
	k, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	p := k.PublicKey
	//lint:ignore SA1019 the test builds an invalid point on purpose.
	p.Y = new(bigInt).Add(p.Y, one)
	return &p
}

func flip(sig string) string {
	b, _ := b64.DecodeString(sig)
	b[0] ^= 0x80
	return b64.EncodeToString(b)
}

// nonCanonical returns a last character that decodes to the same bytes
// with non-zero unused bits (HS256's 43-character signature leaves 2).
func nonCanonical(c byte) string {
	const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"
	i := strings.IndexByte(alphabet, c)
	return string(alphabet[i|1])
}
