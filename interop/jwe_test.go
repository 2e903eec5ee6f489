package interop_test

import (
	"crypto/ecdh"
	"crypto/rand"
	"crypto/rsa"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/signet-go/signet"
	"github.com/signet-go/signet/jwe"
	"github.com/signet-go/signet/jwk"
)

// jwePeerScript is the npm jose side of the JWE interop test.
const jwePeerScript = "interop/node/jwe-peer.mjs"

// joseMaxPBES2Count is the largest p2c jose's jwtDecrypt accepts unless
// told otherwise (its maxPBES2Count option). signet writes
// jwe.DefaultPBES2Count (310,000) by default, so the pairs below encrypt
// with Options.PBES2Count = joseMaxPBES2Count, which a stock jose reads;
// one case keeps signet's default and raises maxPBES2Count in the peer.
const joseMaxPBES2Count = 10_000

// The JWE peer protocol; see interop/node/jwe-peer.mjs.
type (
	jweRequest struct {
		Decrypt  []jweDecryptCase  `json:"decrypt"`
		Encrypt  []jweEncryptCase  `json:"encrypt"`
		Generate []jweGenerateCase `json:"generate"`
	}
	jweGenerateCase struct {
		Alg    signet.Algorithm  `json:"alg"`
		Enc    signet.Encryption `json:"enc"`
		Crv    string            `json:"crv,omitempty"`
		Kid    string            `json:"kid"`
		Claims any               `json:"claims"`
	}
	jweDecryptCase struct {
		Alg          signet.Algorithm  `json:"alg"`
		Enc          signet.Encryption `json:"enc"`
		JWK          json.RawMessage   `json:"jwk"`
		Token        string            `json:"token"`
		ExpectClaims any               `json:"expect_claims"`
		MaxP2C       int               `json:"max_p2c,omitempty"`
		VerifyAlg    signet.Algorithm  `json:"verify_alg,omitempty"`
		VerifyJWK    json.RawMessage   `json:"verify_jwk,omitempty"`
	}
	jweEncryptCase struct {
		Alg     signet.Algorithm  `json:"alg"`
		Enc     signet.Encryption `json:"enc"`
		JWK     json.RawMessage   `json:"jwk"`
		Claims  any               `json:"claims"`
		P2C     int               `json:"p2c,omitempty"`
		SignAlg signet.Algorithm  `json:"sign_alg,omitempty"`
		SignJWK json.RawMessage   `json:"sign_jwk,omitempty"`
	}
	jweResponse struct {
		Decrypted []jweDecryptResult `json:"decrypted"`
		Encrypted []signResult       `json:"encrypted"`
		Generated []generateResult   `json:"generated"`
	}
	jweDecryptResult struct {
		verifyResult
		Header json.RawMessage `json:"header"`
	}
)

// jwePair is one key-management algorithm (on one curve, for ECDH-ES)
// with one content encryption, and its positions in the batch.
type jwePair struct {
	name        string // alg[/crv]/enc
	alg         signet.Algorithm
	enc         signet.Encryption
	key         *signet.Key // private key or shared secret, bound to alg and enc
	decryptOnly bool        // RSA-OAEP: signet reads it, never writes it

	signetToken string
	signetSent  interopClaims
	joseSent    interopClaims

	dGood, dTampered, encrypt int // -1 when absent
}

// jweKinds are the key-management algorithms with their key material: a
// function of the content encryption (dir's key is the CEK; the others'
// material serves every enc).
type jweKind struct {
	name     string
	alg      signet.Algorithm
	material func(enc signet.Encryption) any
}

func jweKinds(t *testing.T) []jweKind {
	t.Helper()
	secret := func(n int) []byte {
		b := make([]byte, n)
		if _, err := rand.Read(b); err != nil {
			t.Fatal(err)
		}
		return b
	}
	fixed := func(v any) func(signet.Encryption) any { return func(signet.Encryption) any { return v } }
	ec := func(c ecdh.Curve) func(signet.Encryption) any {
		k, err := c.GenerateKey(rand.Reader)
		if err != nil {
			t.Fatal(err)
		}
		return fixed(k)
	}
	rk, err := rsa.GenerateKey(rand.Reader, 2048)
	if err != nil {
		t.Fatal(err)
	}
	// A password of non-ASCII UTF-8 (bytes on both sides).
	password := []byte("signet ✓ interop password Zoë")
	kinds := []jweKind{
		{"dir", signet.Dir, func(enc signet.Encryption) any { return secret(enc.KeySize()) }},
		{"A128KW", signet.A128KW, fixed(secret(16))},
		{"A256KW", signet.A256KW, fixed(secret(32))},
		{"A128GCMKW", signet.A128GCMKW, fixed(secret(16))},
		{"A256GCMKW", signet.A256GCMKW, fixed(secret(32))},
	}
	for _, alg := range []signet.Algorithm{signet.ECDHES, signet.ECDHESA128KW, signet.ECDHESA256KW} {
		for _, crv := range []struct {
			name  string
			curve ecdh.Curve
		}{{"P-256", ecdh.P256()}, {"P-384", ecdh.P384()}, {"X25519", ecdh.X25519()}} {
			kinds = append(kinds, jweKind{string(alg) + "/" + crv.name, alg, ec(crv.curve)})
		}
	}
	return append(kinds,
		jweKind{"RSA-OAEP", signet.RSAOAEP, fixed(rk)},
		jweKind{"RSA-OAEP-256", signet.RSAOAEP256, fixed(rk)},
		jweKind{"PBES2-HS256+A128KW", signet.PBES2HS256A128KW, fixed(password)},
		jweKind{"PBES2-HS512+A256KW", signet.PBES2HS512A256KW, fixed(password)},
	)
}

// TestJoseJWE exchanges JWEs with npm jose for every key-management
// algorithm (ECDH-ES on P-256, P-384 and X25519) and every content
// encryption, both ways (RSA-OAEP: jose to signet only), with the claims
// checked on both sides, a tampered tag refused on both sides, nested
// JWTs (signed, then encrypted) both ways, and keys jose made read by
// signet.
func TestJoseJWE(t *testing.T) {
	root, node := requireNodePeer(t, "jose")
	start := time.Now()
	kinds := jweKinds(t)
	var pairs []*jwePair
	var req jweRequest
	var setKeys []*signet.Key
	for _, kind := range kinds {
		for _, enc := range signet.Encryptions() {
			p := &jwePair{name: kind.name + "/" + string(enc), alg: kind.alg, enc: enc, decryptOnly: kind.alg == signet.RSAOAEP, dGood: -1, dTampered: -1}
			i := len(pairs)
			key, err := signet.NewEncryptionKeyWithID(kind.alg, enc, "jwe-"+p.name, kind.material(enc))
			if err != nil {
				t.Fatalf("%s: NewEncryptionKey: %v", p.name, err)
			}
			p.key = key
			setKeys = append(setKeys, key)
			p.signetSent = claimsFor(i, signet.Algorithm(p.name), "signet")
			p.joseSent = claimsFor(i, signet.Algorithm(p.name), "jose")
			if !p.decryptOnly {
				p.signetToken, err = jwe.Encrypt(encryptingKey(t, key), p.signetSent, jwe.Options{PBES2Count: pbes2Count(key)})
				if err != nil {
					t.Fatalf("%s: jwe.Encrypt: %v", p.name, err)
				}
				expect := asJSONValue(t, p.signetSent)
				p.dGood, p.dTampered = len(req.Decrypt), len(req.Decrypt)+1
				req.Decrypt = append(req.Decrypt,
					jweDecryptCase{Alg: p.alg, Enc: enc, JWK: marshalJWK(t, key, true), Token: p.signetToken, ExpectClaims: expect},
					jweDecryptCase{Alg: p.alg, Enc: enc, JWK: marshalJWK(t, key, true), Token: flipLastSegmentBit(t, p.signetToken), ExpectClaims: expect},
				)
			}
			p.encrypt = len(req.Encrypt)
			req.Encrypt = append(req.Encrypt, jweEncryptCase{Alg: p.alg, Enc: enc, JWK: marshalJWK(t, key, key.Symmetric()), Claims: p.joseSent})
			pairs = append(pairs, p)
		}
	}
	set, err := signet.NewKeySet(setKeys...)
	if err != nil {
		t.Fatalf("NewKeySet: %v", err)
	}

	// PBES2 at signet's default count: jose reads it with maxPBES2Count
	// raised, and refuses it without.
	pb := must(signet.NewEncryptionKeyWithID(signet.PBES2HS256A128KW, signet.A128GCM, "pbes2-default", []byte("another password, for p2c")))
	pbSent := claimsFor(0, "PBES2-default-p2c", "signet")
	pbToken := must(jwe.Encrypt(pb, pbSent))
	pbRaised, pbStock := len(req.Decrypt), len(req.Decrypt)+1
	req.Decrypt = append(req.Decrypt,
		jweDecryptCase{Alg: pb.Algorithm(), Enc: pb.Encryption(), JWK: marshalJWK(t, pb, true), Token: pbToken, ExpectClaims: asJSONValue(t, pbSent), MaxP2C: jwe.DefaultPBES2Count},
		jweDecryptCase{Alg: pb.Algorithm(), Enc: pb.Encryption(), JWK: marshalJWK(t, pb, true), Token: pbToken, ExpectClaims: asJSONValue(t, pbSent)},
	)

	// Nested JWTs: signet EncryptNested → jose compactDecrypt + jwtVerify,
	// and jose SignJWT + CompactEncrypt (cty JWT) → signet DecryptNested.
	type nestedCase struct {
		name              string
		encKey, signKey   *signet.Key
		signetTok         string
		signetSent, jSent interopClaims
		dec, enc          int
	}
	var nested []*nestedCase
	for i, n := range []struct {
		alg     signet.Algorithm
		enc     signet.Encryption
		signAlg signet.Algorithm
	}{
		{signet.ECDHESA256KW, signet.A256GCM, signet.ES256},
		{signet.Dir, signet.A128CBCHS256, signet.EdDSA},
		{signet.RSAOAEP256, signet.A256CBCHS512, signet.PS256},
	} {
		name := fmt.Sprintf("%s/%s/%s", n.alg, n.enc, n.signAlg)
		var encKey *signet.Key
		for _, p := range pairs {
			if p.alg == n.alg && p.enc == n.enc {
				encKey = p.key
				break
			}
		}
		signKey := must(signet.GenerateKeyWithID(n.signAlg, "nested-signer-"+string(n.signAlg)))
		c := &nestedCase{name: name, encKey: encKey, signKey: signKey,
			signetSent: claimsFor(100+i, signet.Algorithm("nested-"+name), "signet"),
			jSent:      claimsFor(100+i, signet.Algorithm("nested-"+name), "jose")}
		c.signetTok = must(jwe.EncryptNested(encryptingKey(t, encKey), signKey, c.signetSent))
		c.dec, c.enc = len(req.Decrypt), len(req.Encrypt)
		req.Decrypt = append(req.Decrypt, jweDecryptCase{Alg: n.alg, Enc: n.enc, JWK: marshalJWK(t, encKey, true), Token: c.signetTok,
			ExpectClaims: asJSONValue(t, c.signetSent), VerifyAlg: n.signAlg, VerifyJWK: marshalJWK(t, signKey, false)})
		req.Encrypt = append(req.Encrypt, jweEncryptCase{Alg: n.alg, Enc: n.enc, JWK: marshalJWK(t, encKey, encKey.Symmetric()),
			Claims: c.jSent, SignAlg: n.signAlg, SignJWK: marshalJWK(t, signKey, true)})
		nested = append(nested, c)
	}
	// Keys jose makes and exports (exportJWK writes no "alg": the
	// algorithm is stated with jwk.ParseEncryptionKeyFor), one per kind.
	generated := []jweGenerateCase{
		{Alg: signet.Dir, Enc: signet.A192CBCHS384},
		{Alg: signet.A128KW, Enc: signet.A128GCM},
		{Alg: signet.A256GCMKW, Enc: signet.A256CBCHS512},
		{Alg: signet.ECDHES, Enc: signet.A256GCM, Crv: "P-256"},
		{Alg: signet.ECDHESA128KW, Enc: signet.A128CBCHS256, Crv: "P-384"},
		{Alg: signet.ECDHESA256KW, Enc: signet.A192GCM, Crv: "X25519"},
		{Alg: signet.RSAOAEP, Enc: signet.A256GCM},
		{Alg: signet.RSAOAEP256, Enc: signet.A128GCM},
	}
	for i := range generated {
		g := &generated[i]
		g.Kid = fmt.Sprintf("jose-generated-%s-%s", g.Alg, g.Crv)
		g.Claims = claimsFor(200+i, signet.Algorithm("jose-keygen-"+string(g.Alg)), "jose-keygen")
	}
	req.Generate = generated
	prepared := time.Now()

	var resp jweResponse
	runNode(t, root, node, jwePeerScript, peerTimeout, &req, &resp)
	if len(resp.Decrypted) != len(req.Decrypt) || len(resp.Encrypted) != len(req.Encrypt) || len(resp.Generated) != len(req.Generate) {
		t.Fatalf("peer answered %d/%d/%d results for %d/%d/%d cases", len(resp.Decrypted), len(resp.Encrypted), len(resp.Generated), len(req.Decrypt), len(req.Encrypt), len(req.Generate))
	}
	t.Logf("jose %s: %d JWE pairs, %d decrypt + %d encrypt + %d keygen cases; keys and tokens %v, node peer %v",
		lockedVersion(t, root, "jose"), len(pairs), len(req.Decrypt), len(req.Encrypt), len(req.Generate),
		prepared.Sub(start).Round(time.Millisecond), time.Since(prepared).Round(time.Millisecond))

	for _, p := range pairs {
		t.Run(p.name, func(t *testing.T) {
			if !p.decryptOnly {
				t.Run("signet_to_jose", func(t *testing.T) {
					checkJoseRead(t, p.name, p.signetToken, p.signetSent, resp.Decrypted[p.dGood].verifyResult)
				})
				t.Run("signet_tampered_rejected_by_jose", func(t *testing.T) {
					checkJoseRejected(t, p.name+" token whose tag has a flipped bit", "ERR_JWE_DECRYPTION_FAILED", resp.Decrypted[p.dTampered].verifyResult)
				})
			}
			t.Run("jose_to_signet", func(t *testing.T) {
				r := resp.Encrypted[p.encrypt]
				if r.Error != "" {
					t.Fatalf("jose could not encrypt with signet's %s key: %s\njwk: %s", p.name, r.Error, redactJWK(t, p.key))
				}
				checkJWEHeader(t, r.Token, p.alg, p.enc)
				for _, v := range []struct {
					name string
					keys signet.Keys
				}{{"single key", p.key}, {"key set", set}} {
					got, err := jwe.Decrypt[interopClaims](v.keys, r.Token, policyFor(p.joseSent))
					if err != nil {
						t.Fatalf("signet rejected jose's %s token (%s): %v\ntoken: %s", p.name, v.name, err, r.Token)
					}
					if !reflect.DeepEqual(got, p.joseSent) {
						t.Fatalf("signet read other claims from jose's %s token (%s):\n got %+v\nwant %+v", p.name, v.name, got, p.joseSent)
					}
				}
			})
			t.Run("jose_tampered_rejected_by_signet", func(t *testing.T) {
				r := resp.Encrypted[p.encrypt]
				if r.Error != "" {
					t.Skipf("no jose token (see jose_to_signet): %s", r.Error)
				}
				_, err := jwe.Decrypt[interopClaims](p.key, flipLastSegmentBit(t, r.Token), policyFor(p.joseSent))
				if !errors.Is(err, signet.ErrSignatureInvalid) {
					t.Fatalf("signet answered err = %v for jose's %s token with a flipped tag bit; want ErrSignatureInvalid", err, p.name)
				}
			})
		})
	}
	t.Run("PBES2/signet_default_p2c_to_jose_with_maxPBES2Count", func(t *testing.T) {
		checkJoseRead(t, "PBES2 at p2c 310000", pbToken, pbSent, resp.Decrypted[pbRaised].verifyResult)
	})
	t.Run("PBES2/signet_default_p2c_refused_by_stock_jose", func(t *testing.T) {
		// A difference to know about (README.md): jose's default cap.
		r := resp.Decrypted[pbStock]
		if r.OK || !strings.Contains(r.Error, "p2c") {
			t.Fatalf("jose without maxPBES2Count answered ok=%v error %q for p2c %d; want a p2c refusal (if jose raised its default, update README.md)", r.OK, r.Error, jwe.DefaultPBES2Count)
		}
	})
	for _, c := range nested {
		t.Run("nested/"+c.name, func(t *testing.T) {
			t.Run("signet_to_jose", func(t *testing.T) {
				r := resp.Decrypted[c.dec]
				checkJoseRead(t, "nested "+c.name, c.signetTok, c.signetSent, r.verifyResult)
			})
			t.Run("jose_to_signet", func(t *testing.T) {
				r := resp.Encrypted[c.enc]
				if r.Error != "" {
					t.Fatalf("jose could not make a nested %s JWT: %s", c.name, r.Error)
				}
				vk := must(c.signKey.Public())
				got, err := jwe.DecryptNested[interopClaims](c.encKey, vk, r.Token, policyFor(c.jSent))
				if err != nil {
					t.Fatalf("signet rejected jose's nested %s JWT: %v\ntoken: %s", c.name, err, r.Token)
				}
				if !reflect.DeepEqual(got, c.jSent) {
					t.Fatalf("signet read other claims from jose's nested %s JWT:\n got %+v\nwant %+v", c.name, got, c.jSent)
				}
				// And signet's Decrypt does not take it for plain claims.
				if _, err := jwe.Decrypt[interopClaims](c.encKey, r.Token, policyFor(c.jSent)); !errors.Is(err, signet.ErrUnsupported) {
					t.Errorf("jwe.Decrypt of jose's nested JWT: err = %v, want ErrUnsupported", err)
				}
			})
		})
	}
	for i, g := range generated {
		t.Run(fmt.Sprintf("jose_key_to_signet/%s/%s%s", g.Alg, g.Enc, strings.TrimSuffix("/"+g.Crv, "/")), func(t *testing.T) {
			checkJoseJWEKey(t, g, resp.Generated[i])
		})
	}
	t.Logf("total %v", time.Since(start).Round(time.Millisecond))
}

// checkJoseJWEKey: a key jose made and exported reads into signet
// (jwk.ParseEncryptionKeyFor, the algorithm and enc stated), its public
// half is jose's public JWK, and jose's token encrypted to it decrypts in
// signet with the claims jose was given.
func checkJoseJWEKey(t *testing.T, g jweGenerateCase, r generateResult) {
	t.Helper()
	if r.Error != "" {
		t.Fatalf("jose could not make and use a %s key: %s", g.Alg, r.Error)
	}
	priv, err := jwk.ParseEncryptionKeyFor(r.PrivateJWK, g.Alg, g.Enc)
	if err != nil {
		t.Fatalf("jwk.ParseEncryptionKeyFor(jose's private %s JWK): %v", g.Alg, err)
	}
	if priv.KeyID() != g.Kid || !priv.CanSign() {
		t.Fatalf("jose's private %s JWK read as kid %q, private %v", g.Alg, priv.KeyID(), priv.CanSign())
	}
	if r.PublicJWK != nil && string(r.PublicJWK) != "null" {
		pub, err := jwk.ParseEncryptionKeyFor(r.PublicJWK, g.Alg, g.Enc)
		if err != nil {
			t.Fatalf("jwk.ParseEncryptionKeyFor(jose's public %s JWK %s): %v", g.Alg, r.PublicJWK, err)
		}
		if want, err := priv.Public(); err != nil || !want.Equal(pub) {
			t.Fatalf("the public half of jose's private %s JWK is not jose's public JWK (err %v)", g.Alg, err)
		}
	}
	want := g.Claims.(interopClaims)
	got, err := jwe.Decrypt[interopClaims](priv, r.Token, policyFor(want))
	if err != nil {
		t.Fatalf("signet rejected jose's %s token to a jose-made key: %v\ntoken: %s", g.Alg, err, r.Token)
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("signet read other claims from jose's %s token:\n got %+v\nwant %+v", g.Alg, got, want)
	}
}

// checkJWEHeader: token is a five-segment JWE whose header names alg and enc.
func checkJWEHeader(t *testing.T, token string, alg signet.Algorithm, enc signet.Encryption) {
	t.Helper()
	parts := strings.Split(token, ".")
	if len(parts) != 5 {
		t.Fatalf("jose's token has %d segments, want 5: %s", len(parts), token)
	}
	raw, err := base64.RawURLEncoding.DecodeString(parts[0])
	if err != nil {
		t.Fatalf("header of %q: %v", token, err)
	}
	var h struct {
		Alg string `json:"alg"`
		Enc string `json:"enc"`
	}
	if err := json.Unmarshal(raw, &h); err != nil || h.Alg != string(alg) || h.Enc != string(enc) {
		t.Fatalf("jose's header %s (%v), want alg %s enc %s", raw, err, alg, enc)
	}
}

// encryptingKey is the key a sender holds: the public half, or the secret.
func encryptingKey(t *testing.T, k *signet.Key) *signet.Key {
	t.Helper()
	return publicOrSecret(t, k)
}

// pbes2Count is the p2c signet encrypts the pairs with: jose's default
// cap for PBES2 keys, 0 (unused) for the others.
func pbes2Count(k *signet.Key) int {
	if a := k.Algorithm(); a == signet.PBES2HS256A128KW || a == signet.PBES2HS512A256KW {
		return joseMaxPBES2Count
	}
	return 0
}

func must[T any](v T, err error) T {
	if err != nil {
		panic(err)
	}
	return v
}
