package paseto_test

import (
	"crypto/elliptic"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/signet-go/signet"
	"github.com/signet-go/signet/internal/b64"
	"github.com/signet-go/signet/paseto"
)

var now = time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC)

type appClaims struct {
	paseto.Claims
	Role string `json:"role"`
}

func key(t testing.TB, alg signet.Algorithm) *signet.Key {
	t.Helper()
	k, err := signet.GenerateKeyWithID(alg, "kid-"+string(alg))
	if err != nil {
		t.Fatal(err)
	}
	return k
}

func public(t testing.TB, k *signet.Key) *signet.Key {
	t.Helper()
	if k.Symmetric() {
		return k
	}
	p, err := k.Public()
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// issue makes a token of the key's kind.
func issue[T any](t testing.TB, k *signet.Key, c T, o paseto.Options) string {
	t.Helper()
	var tok string
	var err error
	if k.Symmetric() {
		tok, err = paseto.Encrypt(k, c, o)
	} else {
		tok, err = paseto.Sign(k, c, o)
	}
	if err != nil {
		t.Fatal(err)
	}
	return tok
}

func check[T any](k *signet.Key, tok string, p paseto.Policy) (T, error) {
	if k.Symmetric() {
		return paseto.Decrypt[T](k, tok, p)
	}
	return paseto.Verify[T](k, tok, p)
}

var algs = []signet.Algorithm{signet.V4Local, signet.V4Public, signet.V3Local, signet.V3Public}

func TestRoundTrip(t *testing.T) {
	for _, alg := range algs {
		t.Run(string(alg), func(t *testing.T) {
			k := key(t, alg)
			v := public(t, k)
			c := appClaims{Claims: paseto.Claims{Issuer: "iss", Subject: "u1", Audience: "api", ID: "j"}, Role: "admin"}
			o := paseto.Options{Footer: []byte(`{"kid":"` + k.KeyID() + `"}`), Implicit: []byte("tenant-7"), Now: fixed(now)}
			tok := issue(t, k, c, o)
			if !strings.HasPrefix(tok, string(alg)+".") {
				t.Fatalf("token %s", tok)
			}
			p := paseto.Policy{Issuer: "iss", Subject: "u1", Audience: []string{"api"}, ID: "j", Footer: o.Footer, Implicit: o.Implicit, Now: fixed(now)}
			got, err := check[appClaims](v, tok, p)
			if err != nil {
				t.Fatal(err)
			}
			if got.Role != "admin" || got.Subject != "u1" || !got.IssuedAt.Equal(now) || !got.ExpiresAt.Equal(now.Add(paseto.DefaultLifetime)) {
				t.Fatalf("%+v", got)
			}
			if m, err := check[paseto.Map](v, tok, p); err != nil || m["role"] != "admin" {
				t.Fatalf("%v %v", m, err)
			}
			if f, err := paseto.Footer(tok); err != nil || string(f) != string(o.Footer) {
				t.Fatalf("footer %q %v", f, err)
			}
			// Without the implicit assertion it fails.
			p2 := p
			p2.Implicit = nil
			if _, err := check[paseto.Claims](v, tok, p2); !errors.Is(err, signet.ErrSignatureInvalid) {
				t.Fatalf("no implicit assertion: %v", err)
			}
			// Another footer expected: ErrFooter.
			p3 := p
			p3.Footer = []byte(`{"kid":"other"}`)
			if _, err := check[paseto.Claims](v, tok, p3); !errors.Is(err, signet.ErrFooter) {
				t.Fatalf("other footer: %v", err)
			}
		})
	}
}

func TestDefaultsAndExpiry(t *testing.T) {
	k := key(t, signet.V4Local)
	tok := issue(t, k, paseto.Claims{}, paseto.Options{Now: fixed(now), Lifetime: time.Minute})
	if _, err := paseto.Decrypt[paseto.Claims](k, tok, paseto.Policy{Now: fixed(now.Add(59 * time.Second))}); err != nil {
		t.Fatal(err)
	}
	if _, err := paseto.Decrypt[paseto.Claims](k, tok, paseto.Policy{Now: fixed(now.Add(61 * time.Second))}); !errors.Is(err, signet.ErrExpired) {
		t.Fatalf("after lifetime: %v", err)
	}
	if _, err := paseto.Decrypt[paseto.Claims](k, tok, paseto.Policy{Now: fixed(now.Add(61 * time.Second)), Leeway: 2 * time.Second}); err != nil {
		t.Fatalf("within leeway: %v", err)
	}
	// Each default is filled in on its own: iat alone gets exp = now +
	// lifetime, exp alone gets iat = now, iat with NoExpiry no exp.
	iat, exp := now.Add(-time.Hour), now.Add(time.Hour)
	for _, c := range []struct {
		in       paseto.Claims
		o        paseto.Options
		iat, exp time.Time
	}{
		{paseto.Claims{IssuedAt: iat}, paseto.Options{Now: fixed(now)}, iat, now.Add(paseto.DefaultLifetime)},
		{paseto.Claims{ExpiresAt: exp}, paseto.Options{Now: fixed(now)}, now, exp},
		{paseto.Claims{IssuedAt: iat, ExpiresAt: exp}, paseto.Options{Now: fixed(now)}, iat, exp},
		{paseto.Claims{IssuedAt: iat}, paseto.Options{Now: fixed(now), NoExpiry: true}, iat, time.Time{}},
	} {
		got, err := paseto.Decrypt[paseto.Claims](k, issue(t, k, c.in, c.o), paseto.Policy{Now: fixed(now), NoExpiry: true})
		if err != nil || !got.IssuedAt.Equal(c.iat) || !got.ExpiresAt.Equal(c.exp) {
			t.Errorf("%+v with %+v: iat %v exp %v (%v), want %v %v", c.in, c.o, got.IssuedAt, got.ExpiresAt, err, c.iat, c.exp)
		}
	}
	never := issue(t, k, paseto.Claims{}, paseto.Options{Now: fixed(now), NoExpiry: true})
	if _, err := paseto.Decrypt[paseto.Claims](k, never, paseto.Policy{Now: fixed(now)}); !errors.Is(err, signet.ErrMissingClaim) {
		t.Fatalf("no exp: %v", err)
	}
	if _, err := paseto.Decrypt[paseto.Claims](k, never, paseto.Policy{Now: fixed(now), NoExpiry: true}); err != nil {
		t.Fatalf("no exp, opted out: %v", err)
	}
	// A pointer to claims, or an embedded *Claims, gets the defaults in the
	// token, never in the caller's value.
	shared := &appClaims{}
	pt := issue(t, k, shared, paseto.Options{Now: fixed(now)})
	if !shared.ExpiresAt.IsZero() || !shared.IssuedAt.IsZero() {
		t.Fatalf("caller's claims changed: %+v", shared)
	}
	if c, err := paseto.Decrypt[paseto.Claims](k, pt, paseto.Policy{Now: fixed(now)}); err != nil || !c.ExpiresAt.Equal(now.Add(paseto.DefaultLifetime)) {
		t.Fatalf("%+v %v", c, err)
	}
	type withPtr struct {
		*paseto.Claims
		Role string `json:"role"`
	}
	tmpl := withPtr{Claims: &paseto.Claims{Subject: "alice"}, Role: "r"}
	issue(t, k, tmpl, paseto.Options{Now: fixed(now)})
	if !tmpl.ExpiresAt.IsZero() || !tmpl.IssuedAt.IsZero() {
		t.Fatalf("embedded *Claims changed: %+v", tmpl.Claims)
	}
	// A map gets the defaults too.
	mt := issue(t, k, paseto.Map{"sub": "m"}, paseto.Options{Now: fixed(now)})
	if c, err := paseto.Decrypt[paseto.Claims](k, mt, paseto.Policy{Now: fixed(now)}); err != nil || c.Subject != "m" || c.ExpiresAt.IsZero() {
		t.Fatalf("%+v %v", c, err)
	}
}

// craftPublic signs payload as it is into a public token.
func craftPublic(t *testing.T, k *signet.Key, payload string) string {
	t.Helper()
	tok, err := paseto.SignBytes(k, []byte(payload), paseto.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return tok
}

func craftLocal(t *testing.T, k *signet.Key, payload string) string {
	t.Helper()
	tok, err := paseto.EncryptBytes(k, []byte(payload), paseto.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return tok
}

// TestSecurity: the attack cases of the JWT suite that apply to PASETO,
// each with its exact sentinel.
func TestSecurity(t *testing.T) {
	v4l, v4l2, v3l := key(t, signet.V4Local), key(t, signet.V4Local), key(t, signet.V3Local)
	v4s, v3s := key(t, signet.V4Public), key(t, signet.V3Public)
	ed, _ := signet.GenerateKey(signet.EdDSA)
	exp := now.Add(time.Hour).Format(time.RFC3339)
	good := `{"sub":"u1","exp":"` + exp + `"}`
	local := craftLocal(t, v4l, good)
	pub, _ := paseto.SignBytes(v4s, []byte(good), paseto.Options{})
	dot := strings.LastIndexByte(local, '.')
	raw, _ := b64.DecodeString(local[dot+1:])
	flip := func(i int) string {
		r := append([]byte(nil), raw...)
		r[i] ^= 1
		return local[:dot+1] + b64.EncodeToString(r)
	}
	ssKey := ed
	// v3.public signatures (ECDSA P-384, r ‖ s) with r and s out of
	// [1, n-1]: r = s = 0 (the "psychic signature", CVE-2022-21449) and
	// r = s = n, each in place of a valid token's signature.
	v3tok, _ := paseto.SignBytes(v3s, []byte(good), paseto.Options{})
	v3raw, _ := b64.DecodeString(v3tok[len("v3.public."):])
	withSig := func(sig []byte) string {
		r := append(append([]byte(nil), v3raw[:len(v3raw)-96]...), sig...)
		return "v3.public." + b64.EncodeToString(r)
	}
	order := elliptic.P384().Params().N.FillBytes(make([]byte, 48))
	pub4 := public(t, v4s)
	rfc := func(t time.Time) string { return t.UTC().Format(time.RFC3339) }
	type tc struct {
		name string
		keys signet.Keys
		tok  string
		p    paseto.Policy
		want error
	}
	cases := []tc{
		{"control", v4l, local, paseto.Policy{}, nil},
		{"tampered nonce", v4l, flip(0), paseto.Policy{}, signet.ErrSignatureInvalid},
		{"tampered ciphertext", v4l, flip(40), paseto.Policy{}, signet.ErrSignatureInvalid},
		{"tampered tag", v4l, flip(len(raw) - 1), paseto.Policy{}, signet.ErrSignatureInvalid},
		{"truncated", v4l, local[:len(local)-4], paseto.Policy{}, signet.ErrSignatureInvalid},
		{"truncated to a non-base64url length", v4l, local[:len(local)-3], paseto.Policy{}, signet.ErrMalformed},
		{"too short for a tag", v4l, "v4.local.AAAA", paseto.Policy{}, signet.ErrMalformed},
		{"other key of the same kind", v4l2, local, paseto.Policy{}, signet.ErrSignatureInvalid},
		{"v3 key for a v4 token", v3l, local, paseto.Policy{}, signet.ErrAlgorithmMismatch},
		{"no kid, 1000 keys: ambiguous, nothing tried", manyKeySet(t), local, paseto.Policy{}, signet.ErrKeyNotFound},
		{"local token through Verify", v4s, local, paseto.Policy{}, signet.ErrAlgorithmMismatch},
		{"public key for a local token", public(t, v4s), local, paseto.Policy{}, signet.ErrAlgorithmMismatch},
		{"EdDSA JWS key for v4.public", ssKey, pub, paseto.Policy{}, signet.ErrAlgorithmMismatch},
		{"v3.public key for v4.public", public(t, v3s), pub, paseto.Policy{}, signet.ErrAlgorithmMismatch},
		{"v3.public control", public(t, v3s), v3tok, paseto.Policy{}, nil},
		{"v3.public r = s = 0", public(t, v3s), withSig(make([]byte, 96)), paseto.Policy{}, signet.ErrSignatureInvalid},
		{"v3.public r = s = n", public(t, v3s), withSig(append(append([]byte(nil), order...), order...)), paseto.Policy{}, signet.ErrSignatureInvalid},
		{"v3.public r = 0, s valid", public(t, v3s), withSig(append(make([]byte, 48), v3raw[len(v3raw)-48:]...)), paseto.Policy{}, signet.ErrSignatureInvalid},
		{"padding", v4l, local + "=", paseto.Policy{}, signet.ErrMalformed},
		{"empty footer", v4l, local + ".", paseto.Policy{}, signet.ErrMalformed},
		{"extra segment", v4l, local + ".YQ.YQ", paseto.Policy{}, signet.ErrMalformed},
		{"v2 token", v4l, "v2.local.AAAA", paseto.Policy{}, signet.ErrUnsupported},
		{"no header", v4l, "hello", paseto.Policy{}, signet.ErrUnsupported},
		{"oversized", v4l, "v4.local." + strings.Repeat("A", 1<<20), paseto.Policy{}, signet.ErrTooLarge},
		// Read-side structure and size checks, each before any key work.
		{"footer over MaxFooterSize, token within MaxSize", v4l, local + "." + strings.Repeat("A", b64.EncodedLen(paseto.MaxFooterSize)+1), paseto.Policy{}, signet.ErrTooLarge},
		{"footer not strict base64url", v4l, local + ".Zm9v=", paseto.Policy{}, signet.ErrMalformed},
		{"footer with non-canonical trailing bits", v4l, local + ".Zh", paseto.Policy{}, signet.ErrMalformed},
		{"empty payload", v4l, "v4.local.", paseto.Policy{}, signet.ErrMalformed},
		{"empty payload with a footer", v4l, "v4.local..Zm9v", paseto.Policy{}, signet.ErrMalformed},
		{"v3.local too short for nonce and tag", v3l, "v3.local.AAAA", paseto.Policy{}, signet.ErrMalformed},
		{"v4.public too short for a signature", pub4, "v4.public.AAAA", paseto.Policy{}, signet.ErrMalformed},
		{"v3.public too short for a signature", public(t, v3s), "v3.public.AAAA", paseto.Policy{}, signet.ErrMalformed},
		{"expired", v4l, craftLocal(t, v4l, `{"exp":"2020-01-01T00:00:00Z"}`), paseto.Policy{}, signet.ErrExpired},
		{"not yet valid", v4l, craftLocal(t, v4l, `{"exp":"`+exp+`","nbf":"`+exp+`"}`), paseto.Policy{}, signet.ErrNotYetValid},
		{"issued in the future", v4l, craftLocal(t, v4l, `{"exp":"`+exp+`","iat":"`+exp+`"}`), paseto.Policy{}, signet.ErrIssuedInFuture},
		{"wrong audience", v4l, craftLocal(t, v4l, `{"exp":"`+exp+`","aud":"web"}`), paseto.Policy{Audience: []string{"api"}}, signet.ErrAudience},
		{"aud as array", v4l, craftLocal(t, v4l, `{"exp":"`+exp+`","aud":["api"]}`), paseto.Policy{Audience: []string{"api"}}, signet.ErrMalformed},
		{"wrong issuer", v4l, craftLocal(t, v4l, `{"exp":"`+exp+`","iss":"x"}`), paseto.Policy{Issuer: "y"}, signet.ErrIssuer},
		// Audience (RFC 7519 §4.1.3), as in jwt: a token with aud is for
		// the verifiers it names; one that names none refuses it unless it
		// opts out.
		{"aud present, verifier names none", v4l, craftLocal(t, v4l, `{"exp":"`+exp+`","aud":"api"}`), paseto.Policy{}, signet.ErrAudience},
		{"empty aud present, verifier names none", v4l, craftLocal(t, v4l, `{"exp":"`+exp+`","aud":""}`), paseto.Policy{}, signet.ErrAudience},
		{"aud present, verifier names none (public)", pub4, craftPublic(t, v4s, `{"exp":"`+exp+`","aud":"api"}`), paseto.Policy{}, signet.ErrAudience},
		{"aud one of several", v4l, craftLocal(t, v4l, `{"exp":"`+exp+`","aud":"api"}`), paseto.Policy{Audience: []string{"web", "api"}}, nil},
		{"aud none of several", v4l, craftLocal(t, v4l, `{"exp":"`+exp+`","aud":"x"}`), paseto.Policy{Audience: []string{"web", "api"}}, signet.ErrAudience},
		{"no aud, verifier names one", v4l, craftLocal(t, v4l, `{"exp":"`+exp+`"}`), paseto.Policy{Audience: []string{"api"}}, signet.ErrAudience},
		{"no aud, verifier names none", v4l, craftLocal(t, v4l, `{"exp":"`+exp+`"}`), paseto.Policy{}, nil},
		{"aud present, IgnoreAudience", v4l, craftLocal(t, v4l, `{"exp":"`+exp+`","aud":"web"}`), paseto.Policy{IgnoreAudience: true}, nil},
		{"Audience and IgnoreAudience both set", v4l, craftLocal(t, v4l, `{"exp":"`+exp+`","aud":"api"}`), paseto.Policy{Audience: []string{"api"}, IgnoreAudience: true}, signet.ErrUnsupported},
		// The exp boundary second (RFC 7519 §4.1.4), as in jwt: expired at exp.
		{"exp at now, zero leeway", v4l, craftLocal(t, v4l, `{"exp":"`+rfc(now)+`"}`), paseto.Policy{Leeway: 0}, signet.ErrExpired},
		{"exp one second ahead", v4l, craftLocal(t, v4l, `{"exp":"`+rfc(now.Add(time.Second))+`"}`), paseto.Policy{}, nil},
		{"exp a nanosecond ahead", v4l, craftLocal(t, v4l, `{"exp":"`+now.Add(time.Nanosecond).Format(time.RFC3339Nano)+`"}`), paseto.Policy{}, nil},
		{"exp at now in another offset", v4l, craftLocal(t, v4l, `{"exp":"`+now.In(time.FixedZone("", 3600)).Format(time.RFC3339)+`"}`), paseto.Policy{}, signet.ErrExpired},
		{"exp a leeway ago", v4l, craftLocal(t, v4l, `{"exp":"`+rfc(now.Add(-time.Minute))+`"}`), paseto.Policy{Leeway: time.Minute}, signet.ErrExpired},
		{"exp a leeway less a second ago", v4l, craftLocal(t, v4l, `{"exp":"`+rfc(now.Add(-59*time.Second))+`"}`), paseto.Policy{Leeway: time.Minute}, nil},
		{"nbf at now", v4l, craftLocal(t, v4l, `{"exp":"`+exp+`","nbf":"`+rfc(now)+`"}`), paseto.Policy{}, nil},
		{"nbf a second ahead, zero leeway", v4l, craftLocal(t, v4l, `{"exp":"`+exp+`","nbf":"`+rfc(now.Add(time.Second))+`"}`), paseto.Policy{}, signet.ErrNotYetValid},
		{"iat a second ahead, zero leeway", v4l, craftLocal(t, v4l, `{"exp":"`+exp+`","iat":"`+rfc(now.Add(time.Second))+`"}`), paseto.Policy{}, signet.ErrIssuedInFuture},
		{"exp as a number", v4l, craftLocal(t, v4l, `{"exp":1893456000}`), paseto.Policy{}, signet.ErrMalformed},
		{"exp with lowercase t", v4l, craftLocal(t, v4l, `{"exp":"2099-01-01t00:00:00Z"}`), paseto.Policy{}, signet.ErrMalformed},
		{"missing exp", v4l, craftLocal(t, v4l, `{"sub":"x"}`), paseto.Policy{}, signet.ErrMissingClaim},
		{"expected footer absent", v4l, local, paseto.Policy{Footer: []byte("kid")}, signet.ErrFooter},
		// Fractions of a second, as jwt reads NumericDate fractions.
		{"nbf 0.9 s ahead, at .5", v4l, craftLocal(t, v4l, `{"exp":"`+exp+`","nbf":"`+now.Add(900*time.Millisecond).Format(time.RFC3339Nano)+`"}`), paseto.Policy{Now: fixed(now.Add(500 * time.Millisecond))}, signet.ErrNotYetValid},
		{"nbf 0.9 s ahead, at 1", v4l, craftLocal(t, v4l, `{"exp":"`+exp+`","nbf":"`+now.Add(900*time.Millisecond).Format(time.RFC3339Nano)+`"}`), paseto.Policy{Now: fixed(now.Add(time.Second))}, nil},
		{"exp .5, at .4", v4l, craftLocal(t, v4l, `{"exp":"`+now.Add(500*time.Millisecond).Format(time.RFC3339Nano)+`"}`), paseto.Policy{Now: fixed(now.Add(400 * time.Millisecond))}, nil},
		{"exp .5, at .5", v4l, craftLocal(t, v4l, `{"exp":"`+now.Add(500*time.Millisecond).Format(time.RFC3339Nano)+`"}`), paseto.Policy{Now: fixed(now.Add(500 * time.Millisecond))}, signet.ErrExpired},
	}
	// A registered claim's name in other case ("AUD", "Exp", "ſub"): never
	// read as the claim, while encoding/json would fill the caller's field
	// for it, so refused whatever the verifier decodes into (see
	// TestRegisteredNameVariants for the other forms).
	for _, v := range registeredVariants(exp) {
		payload := `{"exp":"` + exp + `","` + v.Name + `":` + v.Value + `}`
		p := paseto.Policy{}
		if v.Claim == "exp" {
			payload, p = `{"`+v.Name+`":"`+exp+`"}`, paseto.Policy{NoExpiry: true}
		}
		cases = append(cases,
			tc{"variant " + v.Name + " of " + v.Claim, v4l, craftLocal(t, v4l, payload), p, signet.ErrMalformed},
			tc{"variant " + v.Name + " of " + v.Claim + ", spaced", v4l, craftLocal(t, v4l, "{ "+payload[1:]), p, signet.ErrMalformed},
			tc{"variant " + v.Name + " of " + v.Claim + ", public", pub4, craftPublic(t, v4s, payload), p, signet.ErrMalformed})
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			p := c.p
			if p.Now == nil {
				p.Now = fixed(now)
			}
			var err error
			if strings.HasPrefix(c.tok, "v4.public") || strings.HasPrefix(c.tok, "v3.public") {
				_, err = paseto.Verify[paseto.Claims](c.keys, c.tok, p)
			} else {
				_, err = paseto.Decrypt[paseto.Claims](c.keys, c.tok, p)
			}
			if c.want == nil {
				if err != nil {
					t.Fatalf("refused: %v", err)
				}
				return
			}
			if !errors.Is(err, c.want) {
				t.Fatalf("got %v, want %v", err, c.want)
			}
		})
	}
	// Payloads PASETO forbids are refused when issuing and when reading.
	for _, bad := range []string{`[]`, ``, `{"a":1,"a":2}`, `"x"`, `{"a":1} x`} {
		if _, err := paseto.EncryptBytes(v4l, []byte(bad), paseto.Options{}); !errors.Is(err, signet.ErrMalformed) {
			t.Errorf("EncryptBytes(%q): %v", bad, err)
		}
	}
}

// TestFooterGuards: a JSON footer is read for its kid only within limits,
// and is issued only within them.
func TestFooterGuards(t *testing.T) {
	k := key(t, signet.V4Local)
	set, _ := signet.NewKeySet(k)
	exp := now.Add(time.Hour)
	for footer, want := range map[string]error{
		`{"kid":"kid-v4.local"}`:        nil,
		`{"kid":"other"}`:               signet.ErrKeyNotFound,
		`{"kid":1}`:                     signet.ErrMalformed,
		`{"a":{"b":{"c":1}},"kid":"x"}`: signet.ErrFooter,
		`{"kid":"a","a":1,"b":2,"c":3,"d":4,"e":5,"f":6,"g":7,"h":8,"i":9,"j":10,"k":11,"l":12,"m":13,"n":14,"o":15,"p":16}`: signet.ErrFooter,
		`not json, no kid`: nil,
	} {
		// A footer readers refuse is refused at issue, with their sentinel
		// (TestFooterIssuedIsReadable reads such tokens made past the check).
		tok, err := paseto.Encrypt(k, paseto.Claims{ExpiresAt: exp}, paseto.Options{Now: fixed(now), Footer: []byte(footer)})
		if err == nil {
			_, err = paseto.Decrypt[paseto.Claims](set, tok, paseto.Policy{Now: fixed(now)})
		}
		if want == nil && err != nil || want != nil && !errors.Is(err, want) {
			t.Errorf("footer %s: got %v, want %v", footer, err, want)
		}
	}
	if _, err := paseto.Encrypt(k, paseto.Claims{}, paseto.Options{Footer: make([]byte, paseto.MaxFooterSize+1)}); !errors.Is(err, signet.ErrTooLarge) {
		t.Errorf("oversized footer: %v", err)
	}
}

func TestParseTimeAgreesWithEncodingJSON(t *testing.T) {
	k := key(t, signet.V4Local)
	tm := time.Date(2030, 5, 6, 7, 8, 9, 0, time.FixedZone("", -5*3600))
	tok := issue(t, k, appClaims{Claims: paseto.Claims{ExpiresAt: tm}}, paseto.Options{Now: fixed(now)})
	payload, err := paseto.DecryptBytes(k, tok, paseto.Policy{})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(payload), `"exp":"2030-05-06T12:08:09Z"`) {
		t.Fatalf("payload %s", payload)
	}
}
