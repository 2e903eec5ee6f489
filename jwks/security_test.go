package jwks_test

import (
	"encoding/base64"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/signet-go/signet"
	"github.com/signet-go/signet/jwks"
	"github.com/signet-go/signet/jwt"
)

// forge makes a compact JWS with the given header, signed by k (or with a
// signature of zeros when k is nil).
func forge(t *testing.T, header string, k *signet.Key) string {
	t.Helper()
	enc := base64.RawURLEncoding.EncodeToString
	exp := time.Now().Add(time.Hour).Unix()
	input := enc([]byte(header)) + "." + enc([]byte(`{"sub":"mallory","exp":`+itoa(exp)+`}`))
	sig := make([]byte, 64)
	if k != nil {
		var err error
		if sig, err = k.Sign(nil, []byte(input)); err != nil {
			t.Fatal(err)
		}
	}
	return input + "." + enc(sig)
}

func itoa(n int64) string {
	var b [20]byte
	i := len(b)
	for {
		i--
		b[i] = byte('0' + n%10)
		if n /= 10; n == 0 {
			return string(b[i:])
		}
	}
}

// TestTokenAttacks: tokens built to abuse a remote key set are refused
// with their sentinel, and cause no fetch beyond what the rules allow.
func TestTokenAttacks(t *testing.T) {
	clk := newClock()
	rsa := genKey(t, signet.RS256, "rsa")
	ec := genKey(t, signet.ES256, "ec")
	srv := newKeyServer(t, rsa, ec)
	evil := newKeyServer(t)
	r := start(t, srv.url(), jwks.Options{Algorithms: []signet.Algorithm{signet.RS256, signet.ES256}, Now: clk.Now})
	policy := jwt.Policy{Now: func() time.Time { return time.Now() }}

	rsaPub, err := jwkPublic(rsa)
	if err != nil {
		t.Fatal(err)
	}
	hmacFromPublic, err := signet.NewKey(signet.HS256, []byte(rsaPub)) // the classic confusion: the public key as an HMAC secret
	if err != nil {
		t.Fatal(err)
	}
	attacker := genKey(t, signet.ES256, "attacker")
	attackerPub, err := jwkPublic(attacker)
	if err != nil {
		t.Fatal(err)
	}

	tests := []struct {
		name    string
		token   string
		want    error
		fetches int64 // fetches the token may cause (the cooldown is reset before each)
	}{
		{"HS256 naming the RSA key, public key as secret", forge(t, `{"alg":"HS256","kid":"rsa"}`, hmacFromPublic), signet.ErrAlgorithmMismatch, 0},
		{"ES256 naming the RSA key", forge(t, `{"alg":"ES256","kid":"rsa"}`, attacker), signet.ErrAlgorithmMismatch, 0},
		{"alg none", forge(t, `{"alg":"none","kid":"rsa"}`, nil), signet.ErrAlgorithmMismatch, 0},
		{"jku pointing elsewhere", forge(t, `{"alg":"ES256","kid":"attacker","jku":"`+evil.url()+`"}`, attacker), signet.ErrKeyNotFound, 1},
		{"x5u pointing elsewhere", forge(t, `{"alg":"ES256","kid":"attacker","x5u":"`+evil.url()+`"}`, attacker), signet.ErrKeyNotFound, 1},
		{"embedded jwk", forge(t, `{"alg":"ES256","kid":"attacker","jwk":`+attackerPub+`}`, attacker), signet.ErrKeyNotFound, 1},
		{"kid over MaxKeyID", forge(t, `{"alg":"ES256","kid":"`+strings.Repeat("k", jwks.DefaultMaxKeyID+1)+`"}`, attacker), signet.ErrKeyNotFound, 0},
		{"algorithm not allowed (EdDSA)", forge(t, `{"alg":"EdDSA","kid":"new"}`, genKey(t, signet.EdDSA, "new")), signet.ErrKeyNotFound, 0},
		{"no kid: the one ES256 key, one check", forge(t, `{"alg":"ES256"}`, attacker), signet.ErrSignatureInvalid, 0},
		{"right kid, wrong signature", forge(t, `{"alg":"ES256","kid":"ec"}`, attacker), signet.ErrSignatureInvalid, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			clk.Advance(jwks.DefaultCooldown) // each case starts outside the cooldown
			before := srv.hits.Load()
			_, err := jwt.Verify[jwt.Claims](r, tt.token, policy)
			if !errors.Is(err, tt.want) {
				t.Fatalf("err = %v, want %v", err, tt.want)
			}
			if got := srv.hits.Load() - before; got != tt.fetches {
				t.Fatalf("%d fetches, want %d", got, tt.fetches)
			}
			// Repeated at once, the token causes nothing more.
			jwt.Verify[jwt.Claims](r, tt.token, policy)
			if got := srv.hits.Load() - before; got != tt.fetches {
				t.Fatalf("repeated: %d fetches, want %d", got, tt.fetches)
			}
		})
	}
	if evil.hits.Load() != 0 {
		t.Fatal("a URL from a token was fetched")
	}
}
