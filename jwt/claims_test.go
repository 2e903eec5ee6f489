package jwt_test

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/signet-go/signet"
	"github.com/signet-go/signet/internal/b64"
	"github.com/signet-go/signet/jwt"
)

type appClaims struct {
	jwt.Claims
	Role   string   `json:"role"`
	Scopes []string `json:"scopes,omitempty"`
}

func payloadOf(t *testing.T, tok string) string {
	t.Helper()
	parts := strings.Split(tok, ".")
	if len(parts) != 3 {
		t.Fatalf("token %q", tok)
	}
	p, err := b64.DecodeString(parts[1])
	if err != nil {
		t.Fatal(err)
	}
	return string(p)
}

// TestEveryAlgorithmRoundTrip signs and verifies typed, embedded and map
// claims with every algorithm.
func TestEveryAlgorithmRoundTrip(t *testing.T) {
	for _, alg := range signet.JWSAlgorithms() {
		t.Run(string(alg), func(t *testing.T) {
			k, err := signet.GenerateKeyWithID(alg, "k-"+string(alg))
			if err != nil {
				t.Fatal(err)
			}
			verifier := k
			if !k.Symmetric() {
				verifier = pub(t, k)
			}
			c := appClaims{
				Claims: jwt.Claims{Issuer: "iss", Subject: "sub", Audience: jwt.Audience{"a", "b"},
					ExpiresAt: jwt.At(now.Add(time.Hour)), NotBefore: jwt.At(now), IssuedAt: jwt.At(now), ID: "j1"},
				Role: "admin", Scopes: []string{"read", "write"},
			}
			tok, err := jwt.Sign(k, c)
			if err != nil {
				t.Fatal(err)
			}
			p := jwt.Policy{Now: fixed(now), Issuer: "iss", Audience: []string{"b"}, Subject: "sub", ID: "j1"}
			got, err := jwt.Verify[appClaims](verifier, tok, p)
			if err != nil {
				t.Fatal(err)
			}
			if got.Role != "admin" || got.Subject != "sub" || len(got.Scopes) != 2 || got.ExpiresAt != c.ExpiresAt || len(got.Audience) != 2 {
				t.Fatalf("got %+v", got)
			}
			reg, err := jwt.Verify[jwt.Claims](verifier, tok, p)
			if err != nil || reg.ID != "j1" {
				t.Fatalf("%+v %v", reg, err)
			}
			m, err := jwt.Verify[jwt.Map](verifier, tok, p)
			if err != nil || m["role"] != "admin" {
				t.Fatalf("%v %v", m, err)
			}
			if n, ok := m["exp"].(json.Number); !ok || n.String() != json.Number(strings.TrimSpace(jsonInt(int64(c.ExpiresAt)))).String() {
				t.Fatalf("exp in map: %#v", m["exp"])
			}
			payload, h, err := jwt.VerifyBytes(verifier, tok, jwt.Policy{})
			if err != nil || h.KeyID != "k-"+string(alg) || h.Type != "JWT" || h.Algorithm != alg || !strings.Contains(string(payload), `"role":"admin"`) {
				t.Fatalf("%s %+v %v", payload, h, err)
			}
			// A public key cannot sign.
			if !k.Symmetric() {
				if _, err := jwt.Sign(verifier, c); !errors.Is(err, signet.ErrKeyUsage) {
					t.Fatalf("signing with a public key: %v", err)
				}
			}
		})
	}
}

func jsonInt(v int64) string { b, _ := json.Marshal(v); return string(b) }

// TestClaimsEncodingMatchesEncodingJSON: the reflection-free writer of
// Claims produces exactly what encoding/json would.
func TestClaimsEncodingMatchesEncodingJSON(t *testing.T) {
	k := mustKey(t, signet.HS256)
	for _, c := range []jwt.Claims{
		{},
		{Subject: "u1"},
		{Issuer: "https://issuer.example", Subject: "user@example.com", Audience: jwt.Audience{"api"}, ExpiresAt: 1, NotBefore: 2, IssuedAt: 3, ID: "x"},
		{Audience: jwt.Audience{"a", "b"}, ExpiresAt: 5, IssuedAt: 1},
		{Subject: "quote \" backslash \\ newline \n tab \t ctl \x01 <html> & \u2028 é 日本 \xff"},
	} {
		// Sign adds iat and exp where they lack: so does the expectation.
		tok, err := jwt.Sign(k, c, jwt.Options{Now: fixed(now)})
		if err != nil {
			t.Fatal(err)
		}
		if c.IssuedAt == 0 {
			c.IssuedAt = jwt.At(now)
		}
		if c.ExpiresAt == 0 {
			c.ExpiresAt = jwt.At(now.Add(jwt.DefaultLifetime))
		}
		want, err := json.Marshal(c)
		if err != nil {
			t.Fatal(err)
		}
		got := payloadOf(t, tok)
		var a, b any
		if json.Unmarshal([]byte(got), &a) != nil || json.Unmarshal(want, &b) != nil {
			t.Fatalf("invalid JSON: %s", got)
		}
		ga, _ := json.Marshal(a)
		gb, _ := json.Marshal(b)
		if string(ga) != string(gb) {
			t.Fatalf("claims %+v:\n signet %s\n  json  %s", c, got, want)
		}
		if !strings.HasPrefix(got, "{") {
			t.Fatal(got)
		}
		// And it reads back to the same claims.
		back, err := jwt.Verify[jwt.Claims](k, tok, jwt.Policy{IgnoreAudience: true, Now: fixed(c.IssuedAt.Time()), Leeway: jwt.MaxLeeway})
		if err != nil {
			t.Fatalf("%s: %v", got, err)
		}
		if c.Subject != "" && back.Subject != strings.ToValidUTF8(c.Subject, "\uFFFD") {
			t.Fatalf("subject %q", back.Subject)
		}
	}
}

func TestAudienceJSON(t *testing.T) {
	for in, want := range map[string]jwt.Audience{`"a"`: {"a"}, `["a","b"]`: {"a", "b"}, `[]`: {}} {
		var a jwt.Audience
		if err := json.Unmarshal([]byte(in), &a); err != nil || len(a) != len(want) {
			t.Fatalf("%s: %v %v", in, a, err)
		}
	}
	for _, in := range []string{`1`, `[1]`, `{"a":1}`, `null`, `["a",null]`} {
		var a jwt.Audience
		if err := json.Unmarshal([]byte(in), &a); err == nil {
			t.Errorf("%s accepted", in)
		}
	}
	if b, _ := json.Marshal(jwt.Audience{"x"}); string(b) != `"x"` {
		t.Errorf("single audience written as %s", b)
	}
	if b, _ := json.Marshal(jwt.Audience{"x", "y"}); string(b) != `["x","y"]` {
		t.Errorf("audiences written as %s", b)
	}
}

func TestNumericDate(t *testing.T) {
	k := mustKey(t, signet.HS256)
	tok := craft(t, k, `{"alg":"HS256"}`, `{"exp":1800003600.75,"iat":1.8e9}`)
	c, err := jwt.Verify[appClaims](k, tok, jwt.Policy{Now: fixed(now)})
	if err != nil {
		t.Fatal(err)
	}
	if c.ExpiresAt != 1800003600 || c.IssuedAt != 1800000000 {
		t.Fatalf("%+v", c.Claims)
	}
	if got := jwt.At(time.Unix(42, 999)).Time(); !got.Equal(time.Unix(42, 0)) {
		t.Fatal(got)
	}
	if !jwt.NumericDate(0).Time().IsZero() {
		t.Fatal("zero date is not the zero time")
	}
}

// TestSignRefusesNonObjects: Sign never issues a token Verify would refuse.
func TestSignRefusesNonObjects(t *testing.T) {
	k := mustKey(t, signet.HS256)
	if _, err := jwt.Sign(k, "just a string"); !errors.Is(err, signet.ErrMalformed) {
		t.Fatalf("string claims: %v", err)
	}
	if _, err := jwt.Sign(k, []int{1}); !errors.Is(err, signet.ErrMalformed) {
		t.Fatalf("array claims: %v", err)
	}
	if _, err := jwt.Sign(k, map[string]any{"f": func() {}}); err == nil {
		t.Fatal("unencodable claims accepted")
	}
	if _, err := jwt.Sign[jwt.Claims](nil, jwt.Claims{}); !errors.Is(err, signet.ErrKeyUsage) {
		t.Fatalf("nil key: %v", err)
	}
}

// TestKidEscaped: values written into the header are JSON-escaped, so a kid
// cannot inject members.
func TestKidEscaped(t *testing.T) {
	k := mustKey(t, signet.HS256).WithKeyID(`k1","alg":"none`)
	tok, err := jwt.Sign(k, jwt.Claims{ExpiresAt: jwt.At(now.Add(time.Hour))})
	if err != nil {
		t.Fatal(err)
	}
	h, _ := b64.DecodeString(tok[:strings.IndexByte(tok, '.')])
	if string(h) != `{"alg":"HS256","kid":"k1\",\"alg\":\"none","typ":"JWT"}` {
		t.Fatalf("header %s", h)
	}
	if _, err := jwt.Verify[jwt.Claims](k, tok, jwt.Policy{Now: fixed(now)}); err != nil {
		t.Fatal(err)
	}
}

// TestPolicyBounds: leeway and size limits are bounded.
func TestPolicyBounds(t *testing.T) {
	k := mustKey(t, signet.HS256)
	tok, _ := jwt.Sign(k, jwt.Claims{ExpiresAt: jwt.At(now.Add(time.Hour))})
	if _, err := jwt.Verify[jwt.Claims](k, tok, jwt.Policy{Now: fixed(now), Leeway: time.Hour}); err == nil {
		t.Fatal("leeway of an hour accepted")
	}
	if _, err := jwt.Verify[jwt.Claims](k, tok, jwt.Policy{Now: fixed(now), Leeway: -time.Second}); err == nil {
		t.Fatal("negative leeway accepted")
	}
	if _, err := jwt.Verify[jwt.Claims](k, tok, jwt.Policy{Now: fixed(now), MaxSize: -1}); err == nil {
		t.Fatal("negative MaxSize accepted")
	}
	if _, err := jwt.Verify[jwt.Claims](nil, tok, jwt.Policy{Now: fixed(now)}); !errors.Is(err, signet.ErrKeyUsage) {
		t.Fatalf("nil keys: %v", err)
	}
}

// TestKeySetSelection: kid picks the key; without kid, the algorithm.
func TestKeySetSelection(t *testing.T) {
	a, b := mustKey(t, signet.ES256).WithKeyID("a"), mustKey(t, signet.ES256).WithKeyID("b")
	noKid := mustKey(t, signet.EdDSA)
	set, err := signet.NewKeySet(pub(t, a), pub(t, b), pub(t, noKid))
	if err != nil {
		t.Fatal(err)
	}
	claims := jwt.Claims{ExpiresAt: jwt.At(now.Add(time.Hour))}
	for _, k := range []*signet.Key{a, b, noKid} {
		tok, _ := jwt.Sign(k, claims)
		if _, err := jwt.Verify[jwt.Claims](set, tok, jwt.Policy{Now: fixed(now)}); err != nil {
			t.Fatalf("%s: %v", k.KeyID(), err)
		}
	}
	// a's token relabelled with b's kid fails on b's key.
	tok, _ := jwt.Sign(a.WithKeyID("b"), claims)
	if _, err := jwt.Verify[jwt.Claims](set, tok, jwt.Policy{Now: fixed(now)}); !errors.Is(err, signet.ErrSignatureInvalid) {
		t.Fatalf("relabelled: %v", err)
	}
	if _, err := signet.NewKeySet(a, a); err == nil {
		t.Fatal("duplicate kid accepted")
	}
}

func TestConcurrentUse(t *testing.T) {
	k := mustKey(t, signet.HS256)
	claims := jwt.Claims{Subject: "s", ExpiresAt: jwt.At(now.Add(time.Hour))}
	done := make(chan error, 8)
	for range 8 {
		go func() {
			for range 200 {
				tok, err := jwt.Sign(k, claims)
				if err == nil {
					_, err = jwt.Verify[jwt.Claims](k, tok, jwt.Policy{Now: fixed(now)})
				}
				if err != nil {
					done <- err
					return
				}
			}
			done <- nil
		}()
	}
	for range 8 {
		if err := <-done; err != nil {
			t.Fatal(err)
		}
	}
}

// TestSignRefusesPASETOKeys: a PASETO key never signs a JWS.
func TestSignRefusesPASETOKeys(t *testing.T) {
	for _, alg := range []signet.Algorithm{signet.V4Public, signet.V3Public, signet.V4Local} {
		k := mustKey(t, alg)
		if _, err := jwt.Sign(k, jwt.Claims{}); !errors.Is(err, signet.ErrAlgorithmMismatch) {
			t.Errorf("%s: %v", alg, err)
		}
	}
}

type roleClaims struct {
	jwt.Claims
	Role string `json:"role"`
}

type ptrClaims struct {
	*jwt.Claims
	Role string `json:"role"`
}

// TestCallerReadsWhatWasValidated: names differing only in case (which
// encoding/json would match to one field) are refused, and pointer and
// embedded-pointer claim types get the validated registered claims.
func TestCallerReadsWhatWasValidated(t *testing.T) {
	k := mustKey(t, signet.HS256)
	p := jwt.Policy{Now: fixed(now), Subject: "alice"}
	e := exp(time.Hour)
	for _, c := range []struct {
		payload    string
		registered bool // a registered claim's name in other case: refused in every form
	}{
		{`{"exp":` + e + `,"sub":"alice","SUB":"admin","EXP":1}`, true},
		{`{"exp":` + e + `,"sub":"alice","ſub":"admin"}`, true},
		{`{"exp":` + e + `,"sub":"alice","role":"user","ROLE":"admin"}`, false},
		{`{"exp":` + e + `,"sub":"alice","x":{"a":1,"A":2}}`, false},
	} {
		tok := craft(t, k, `{"alg":"HS256"}`, c.payload)
		if _, err := jwt.Verify[roleClaims](k, tok, p); !errors.Is(err, signet.ErrMalformed) {
			t.Errorf("%s as struct: %v", c.payload, err)
		}
		if _, err := jwt.Verify[*jwt.Claims](k, tok, p); !errors.Is(err, signet.ErrMalformed) {
			t.Errorf("%s as *Claims: %v", c.payload, err)
		}
		// Claims itself reads only exact names, and Map keeps every
		// member: other names in other case reach them as they are.
		for form, verify := range map[string]func() error{
			"Claims": func() error { _, err := jwt.Verify[jwt.Claims](k, tok, p); return err },
			"Map":    func() error { _, err := jwt.Verify[jwt.Map](k, tok, p); return err },
		} {
			if err := verify(); c.registered && !errors.Is(err, signet.ErrMalformed) || !c.registered && err != nil {
				t.Errorf("%s as %s: %v", c.payload, form, err)
			}
		}
	}
	tok := craft(t, k, `{"alg":"HS256"}`, `{"exp":`+e+`,"sub":"alice","role":"user"}`)
	pc, err := jwt.Verify[*roleClaims](k, tok, p)
	if err != nil || pc.Subject != "alice" || pc.Role != "user" || pc.ExpiresAt == 0 {
		t.Fatalf("*roleClaims: %+v %v", pc, err)
	}
	ep, err := jwt.Verify[ptrClaims](k, tok, p)
	if err != nil || ep.Claims == nil || ep.Subject != "alice" {
		t.Fatalf("embedded *Claims: %+v %v", ep, err)
	}
	// No registered claim at all: the embedded pointer stays nil, no panic.
	bare := craft(t, k, `{"alg":"HS256"}`, `{"role":"x"}`)
	if ep, err := jwt.Verify[ptrClaims](k, bare, jwt.Policy{Now: fixed(now), NoExpiry: true}); err != nil || ep.Role != "x" {
		t.Fatalf("bare: %+v %v", ep, err)
	}
}

// badKeys is a Keys implementation that offers what it should not.
type badKeys struct{ c signet.Candidates }

func (b badKeys) Select(string, signet.Algorithm) (signet.Candidates, error) { return b.c, nil }

func TestKeysImplementationsChecked(t *testing.T) {
	hs256 := mustKey(t, signet.HS256)
	tok := craft(t, hs256, `{"alg":"HS512"}`, `{"exp":`+exp(time.Hour)+`}`)
	if _, err := jwt.Verify[jwt.Claims](badKeys{signet.CandidatesOf(hs256)}, tok, jwt.Policy{Now: fixed(now)}); !errors.Is(err, signet.ErrAlgorithmMismatch) {
		t.Fatalf("key of another algorithm: %v", err)
	}
	if _, err := jwt.Verify[jwt.Claims](badKeys{}, tok, jwt.Policy{Now: fixed(now)}); !errors.Is(err, signet.ErrKeyNotFound) {
		t.Fatalf("no candidates: %v", err)
	}
}

// TestSignRefusesBadRegisteredClaims: Sign never issues a token that
// Verify refuses for its claims' types.
func TestSignRefusesBadRegisteredClaims(t *testing.T) {
	k := mustKey(t, signet.HS256)
	for _, m := range []jwt.Map{{"exp": "tomorrow"}, {"aud": 1}, {"iss": []string{"a"}}} {
		if _, err := jwt.Sign(k, m); !errors.Is(err, signet.ErrMalformed) {
			t.Errorf("%v: %v", m, err)
		}
	}
}
