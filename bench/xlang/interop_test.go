package xlang

import (
	"bytes"
	"context"
	"crypto/ecdsa"
	"crypto/ed25519"
	"crypto/elliptic"
	"crypto/hmac"
	"crypto/rand"
	"crypto/rsa"
	"crypto/sha256"
	"crypto/sha512"
	"crypto/x509"
	"encoding/base64"
	"encoding/json"
	"encoding/pem"
	"hash"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/signet-go/signet"
	"github.com/signet-go/signet/jwt"
)

// interopAlgs are the algorithms the issue asks every library to share.
var interopAlgs = []signet.Algorithm{signet.HS256, signet.RS256, signet.ES256, signet.EdDSA}

// peerKey is one algorithm's key for both sides: signet's, and the
// interop request's form of it.
type peerKey struct {
	private, public *signet.Key
	wire            map[string]string
}

func interopKeys(t *testing.T) map[signet.Algorithm]peerKey {
	t.Helper()
	keys := map[signet.Algorithm]peerKey{}
	secret := make([]byte, 32)
	rand.Read(secret)
	k, err := signet.NewKey(signet.HS256, secret)
	if err != nil {
		t.Fatal(err)
	}
	keys[signet.HS256] = peerKey{k, k, map[string]string{"secret_b64url": base64.RawURLEncoding.EncodeToString(secret)}}

	rsaKey, err := rsa.GenerateKey(rand.Reader, 2048)
	if err != nil {
		t.Fatal(err)
	}
	ecKey, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	_, edKey, err := ed25519.GenerateKey(rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	for alg, priv := range map[signet.Algorithm]any{signet.RS256: rsaKey, signet.ES256: ecKey, signet.EdDSA: edKey} {
		sk, err := signet.NewKey(alg, priv)
		if err != nil {
			t.Fatal(err)
		}
		pk, err := sk.Public()
		if err != nil {
			t.Fatal(err)
		}
		der, err := x509.MarshalPKCS8PrivateKey(priv)
		if err != nil {
			t.Fatal(err)
		}
		pubDER, err := x509.MarshalPKIXPublicKey(pk.PublicMaterial())
		if err != nil {
			t.Fatal(err)
		}
		keys[alg] = peerKey{sk, pk, map[string]string{
			"private_pkcs8_pem": string(pem.EncodeToMemory(&pem.Block{Type: "PRIVATE KEY", Bytes: der})),
			"public_spki_pem":   string(pem.EncodeToMemory(&pem.Block{Type: "PUBLIC KEY", Bytes: pubDER})),
		}}
	}
	return keys
}

// appClaims are the claims signet signs for the peers: registered and
// application claims.
type appClaims struct {
	jwt.Claims
	Role  string `json:"role"`
	Level int    `json:"level"`
}

type icase struct {
	ID     string            `json:"id"`
	Op     string            `json:"op"`
	Alg    string            `json:"alg"`
	Key    map[string]string `json:"key"`
	Claims map[string]any    `json:"claims,omitempty"`
	Token  string            `json:"token,omitempty"`
}

type iresult struct {
	ID     string         `json:"id"`
	Token  string         `json:"token"`
	OK     *bool          `json:"ok"`
	Claims map[string]any `json:"claims"`
	Error  string         `json:"error"`
}

// secret is an HMAC key's secret bytes.
func (k peerKey) secret(t *testing.T) []byte {
	b, err := base64.RawURLEncoding.DecodeString(k.wire["secret_b64url"])
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// macToken is a JWT with header {"alg":alg,"typ":"JWT"} MACed with h and secret.
func macToken(h func() hash.Hash, alg string, secret []byte, payload string) string {
	enc := base64.RawURLEncoding
	input := enc.EncodeToString([]byte(`{"alg":"`+alg+`","typ":"JWT"}`)) + "." + enc.EncodeToString([]byte(payload))
	m := hmac.New(h, secret)
	m.Write([]byte(input))
	return input + "." + enc.EncodeToString(m.Sum(nil))
}

// unsigned is an alg "none" JWT.
func unsigned(payload string) string {
	enc := base64.RawURLEncoding
	return enc.EncodeToString([]byte(`{"alg":"none","typ":"JWT"}`)) + "." + enc.EncodeToString([]byte(payload)) + "."
}

// tamper flips one character in the middle of the signature segment.
func tamper(tok string) string {
	i := strings.LastIndexByte(tok, '.') + (len(tok)-strings.LastIndexByte(tok, '.'))/2
	c := byte('A')
	if tok[i] == 'A' {
		c = 'B'
	}
	return tok[:i] + string(c) + tok[i+1:]
}

// TestInterop checks every language's libraries against signet: signet's
// tokens (HS256, RS256, ES256, EdDSA) verify in each library; tampered,
// expired and exp-less tokens, alg none, another HMAC with the same secret
// and HS256 keyed with the public key are refused by it; and the tokens
// each library signs verify in signet with their claims intact and the
// header {"alg", "typ": "JWT"}. Every library here supports the four
// algorithms: "unsupported" fails the test.
func TestInterop(t *testing.T) {
	if !interopRequired() {
		t.Skip("set SIGNET_INTEROP=1 (make test does) to build and run the other languages' libraries")
	}
	langs, err := Languages(".")
	if err != nil {
		t.Fatal(err)
	}
	if len(langs) < 5 {
		t.Errorf("%d languages in bench/xlang, want go, java, node, python and rust", len(langs))
	}
	keys := interopKeys(t)
	now := time.Now().Unix()
	for _, l := range langs {
		t.Run(l.Name, func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), 15*time.Minute)
			defer cancel()
			var log bytes.Buffer
			requireBuilt(t, l.Build(ctx, &log), log.String())
			for _, lib := range l.Libs {
				t.Run(lib, func(t *testing.T) { interopLib(ctx, t, l, lib, keys, now) })
			}
		})
	}
}

func interopLib(ctx context.Context, t *testing.T, l Language, lib string, keys map[signet.Algorithm]peerKey, now int64) {
	var cases []icase
	type expect struct {
		ok  bool
		sub string
	}
	want := map[string]expect{}
	for _, alg := range interopAlgs {
		k := keys[alg]
		sign := func(c appClaims, o ...jwt.Options) string {
			tok, err := jwt.Sign(k.private, c, o...)
			if err != nil {
				t.Fatal(err)
			}
			return tok
		}
		sub := "alice+" + strings.ToLower(string(alg)) + "@example.com"
		good := sign(appClaims{jwt.Claims{Issuer: "signet", Subject: sub, Audience: jwt.Audience{"xlang"},
			IssuedAt: jwt.NumericDate(now), ExpiresAt: jwt.NumericDate(now + 3600)}, "admin", 7})
		expired := sign(appClaims{Claims: jwt.Claims{Subject: sub, IssuedAt: jwt.NumericDate(now - 7200), ExpiresAt: jwt.NumericDate(now - 3600)}})
		noExp := sign(appClaims{Claims: jwt.Claims{Subject: sub, IssuedAt: jwt.NumericDate(now)}}, jwt.Options{NoExpiry: true}) // jwt.Sign would add a one-hour exp
		payload := `{"sub":"` + sub + `","iat":` + strconv.FormatInt(now, 10) + `,"exp":` + strconv.FormatInt(now+3600, 10) + `}`
		verifyCases := map[string]struct {
			tok string
			ok  bool
		}{
			"valid": {good, true}, "tampered": {tamper(good), false}, "expired": {expired, false}, "no-exp": {noExp, false},
			// The key's algorithm decides, never the header: alg none, and
			// for HS256 another HMAC with the same secret, for the others
			// HS256 keyed with the public key's PEM (the classic confusion).
			"alg-none": {unsigned(payload), false},
		}
		if alg == signet.HS256 {
			verifyCases["alg-hs384"] = struct {
				tok string
				ok  bool
			}{macToken(sha512.New384, "HS384", keys[alg].secret(t), payload), false}
		} else {
			verifyCases["alg-confusion"] = struct {
				tok string
				ok  bool
			}{macToken(sha256.New, "HS256", []byte(k.wire["public_spki_pem"]), payload), false}
		}
		for id, tc := range verifyCases {
			id = string(alg) + "/verify/" + id
			cases = append(cases, icase{ID: id, Op: "verify", Alg: string(alg), Key: k.wire, Token: tc.tok})
			want[id] = expect{tc.ok, sub}
		}
		id := string(alg) + "/sign"
		cases = append(cases, icase{ID: id, Op: "sign", Alg: string(alg), Key: k.wire,
			Claims: map[string]any{"sub": sub, "iat": now, "exp": now + 3600, "role": "viewer"}})
	}
	var resp struct {
		Results []iresult `json:"results"`
	}
	if err := l.Interop(ctx, lib, map[string]any{"cases": cases}, &resp); err != nil {
		t.Fatal(err)
	}
	if len(resp.Results) != len(cases) {
		t.Fatalf("%d results for %d cases", len(resp.Results), len(cases))
	}
	for i, c := range cases {
		r := resp.Results[i]
		if r.ID != c.ID {
			t.Errorf("result %d is %q, want %q", i, r.ID, c.ID)
			continue
		}
		if strings.HasPrefix(r.Error, "unsupported") {
			t.Errorf("%s: %s says %s", c.ID, lib, r.Error)
			continue
		}
		if c.Op == "verify" {
			w := want[c.ID]
			switch {
			case r.OK == nil:
				t.Errorf("%s: no verdict: %+v", c.ID, r)
			case *r.OK != w.ok:
				t.Errorf("%s: %s verdict %v, want %v (%s)", c.ID, lib, *r.OK, w.ok, r.Error)
			case w.ok && (r.Claims["sub"] != w.sub || r.Claims["role"] != "admin" || r.Claims["level"] != 7.0 || r.Claims["exp"] != float64(now+3600)):
				t.Errorf("%s: %s decoded %v", c.ID, lib, r.Claims)
			}
			continue
		}
		// A token the library signed: signet verifies it with the
		// algorithm's public key and reads the claims back.
		if r.Token == "" {
			t.Errorf("%s: %s did not sign: %s", c.ID, lib, r.Error)
			continue
		}
		alg, _ := signet.ParseAlgorithm(c.Alg)
		got, err := jwt.Verify[map[string]any](keys[alg].public, r.Token, jwt.Policy{})
		if err != nil {
			t.Errorf("%s: signet refuses %s's token %s: %v", c.ID, lib, r.Token, err)
			continue
		}
		if got["sub"] != c.Claims["sub"] || got["role"] != "viewer" || got["exp"] != float64(now+3600) {
			t.Errorf("%s: %s's token carries %v, want %v", c.ID, lib, got, c.Claims)
		}
		hdr, _, _ := strings.Cut(r.Token, ".")
		var h struct{ Alg, Typ string }
		if raw, err := base64.RawURLEncoding.DecodeString(hdr); err != nil || json.Unmarshal(raw, &h) != nil || h.Alg != c.Alg || h.Typ != "JWT" {
			t.Errorf("%s: %s's header %s, want alg %s and typ JWT", c.ID, lib, raw, c.Alg)
		}
	}
}
