package interop_test

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/signet-go/signet"
	"github.com/signet-go/signet/jwk"
	"github.com/signet-go/signet/jwt"
)

// envRequire, set to "1" (as `make test` does), turns a missing peer into a
// test failure instead of a skip.
const envRequire = "SIGNET_INTEROP"

// Paths relative to the repository root.
const (
	peerDir    = "interop/node"
	peerScript = "interop/node/jose-peer.mjs"
)

// peerTimeout bounds the one node process that runs the whole batch.
const peerTimeout = 2 * time.Minute

// interopClaims is what crosses the boundary: the registered claims plus
// private ones chosen to exercise JSON on both sides (escapes, non-ASCII
// text outside the BMP, the largest integer a JavaScript number holds
// exactly, arrays).
type interopClaims struct {
	jwt.Claims
	Role   string   `json:"role"`
	Admin  bool     `json:"admin"`
	Scopes []string `json:"scopes"`
	Level  int64    `json:"level"`
	Note   string   `json:"note"`
}

// The peer protocol; see interop/node/jose-peer.mjs.
type (
	peerRequest struct {
		Verify   []verifyCase   `json:"verify"`
		Sign     []signCase     `json:"sign"`
		Generate []generateCase `json:"generate"`
	}
	verifyCase struct {
		Alg          signet.Algorithm `json:"alg"`
		JWK          json.RawMessage  `json:"jwk,omitempty"`
		JWKS         json.RawMessage  `json:"jwks,omitempty"`
		Token        string           `json:"token"`
		ExpectClaims any              `json:"expect_claims"`
	}
	signCase struct {
		Alg    signet.Algorithm `json:"alg"`
		JWK    json.RawMessage  `json:"jwk"`
		Claims any              `json:"claims"`
	}
	generateCase struct {
		Alg    signet.Algorithm `json:"alg"`
		Kid    string           `json:"kid"`
		Claims any              `json:"claims"`
	}
	peerResponse struct {
		Verified  []verifyResult   `json:"verified"`
		Signed    []signResult     `json:"signed"`
		Generated []generateResult `json:"generated"`
	}
	verifyResult struct {
		OK      bool            `json:"ok"`
		Error   string          `json:"error"`
		Payload json.RawMessage `json:"payload"`
	}
	signResult struct {
		Token string `json:"token"`
		Error string `json:"error"`
	}
	generateResult struct {
		PrivateJWK json.RawMessage `json:"private_jwk"`
		PublicJWK  json.RawMessage `json:"public_jwk"`
		Token      string          `json:"token"`
		Error      string          `json:"error"`
	}
)

// algCase is everything one algorithm contributes to the batch, with the
// positions of its cases in the peer's request and response arrays.
type algCase struct {
	vGood, vTampered, vSet, sign, generate int // vSet is -1 for HMAC

	alg         signet.Algorithm
	key         *signet.Key // signs with signet; given to jose as JWK
	other       *signet.Key // same algorithm and kid, different material
	signetToken string
	signetSent  interopClaims // what signet signed
	joseSent    interopClaims // what jose is asked to sign with key
	genSent     interopClaims // what jose signs with a key of its own
	genKid      string
}

func TestJose(t *testing.T) {
	root, node := requireNodePeer(t, "jose")
	start := time.Now()

	algs := signet.JWSAlgorithms()
	cases := newAlgCases(t, algs)
	var keys, published []*signet.Key
	for _, c := range cases {
		keys = append(keys, publicOrSecret(t, c.key))
		if !c.alg.Symmetric() {
			published = append(published, c.key)
		}
	}
	set, err := signet.NewKeySet(keys...)
	if err != nil {
		t.Fatalf("NewKeySet: %v", err)
	}
	jwks, err := jwk.MarshalSet(published...)
	if err != nil {
		t.Fatalf("jwk.MarshalSet: %v", err)
	}

	var req peerRequest
	for _, c := range cases {
		alg, expect := c.alg, asJSONValue(t, c.signetSent)
		c.vGood, c.vTampered, c.vSet = len(req.Verify), len(req.Verify)+1, -1
		req.Verify = append(req.Verify,
			verifyCase{Alg: alg, JWK: verifyJWK(t, c.key), Token: c.signetToken, ExpectClaims: expect},
			verifyCase{Alg: alg, JWK: verifyJWK(t, c.key), Token: flipLastSegmentBit(t, c.signetToken), ExpectClaims: expect},
		)
		if !alg.Symmetric() {
			c.vSet = len(req.Verify)
			req.Verify = append(req.Verify, verifyCase{Alg: alg, JWKS: jwks, Token: c.signetToken, ExpectClaims: expect})
		}
		c.sign = len(req.Sign)
		req.Sign = append(req.Sign, signCase{Alg: alg, JWK: marshalJWK(t, c.key, true), Claims: c.joseSent})
		c.generate = len(req.Generate)
		req.Generate = append(req.Generate, generateCase{Alg: alg, Kid: c.genKid, Claims: c.genSent})
	}
	// RFC 9864: jose 6 also signs Ed25519 under the fully-specified alg
	// "Ed25519", with signet's EdDSA key and with a key of its own; signet
	// verifies both with its EdDSA keys.
	var ed *algCase
	for _, c := range cases {
		if c.alg == signet.EdDSA {
			ed = c
		}
	}
	if ed == nil {
		t.Fatal("no EdDSA case")
	}
	edSign, edGenerate := len(req.Sign), len(req.Generate)
	req.Sign = append(req.Sign, signCase{Alg: fullySpecifiedEd25519, JWK: marshalJWK(t, ed.key, true), Claims: ed.joseSent})
	req.Generate = append(req.Generate, generateCase{Alg: fullySpecifiedEd25519, Kid: ed.genKid, Claims: ed.genSent})
	prepared := time.Now()

	var resp peerResponse
	runNode(t, root, node, peerScript, peerTimeout, &req, &resp)
	if len(resp.Verified) != len(req.Verify) || len(resp.Signed) != len(req.Sign) || len(resp.Generated) != len(req.Generate) {
		t.Fatalf("peer answered %d/%d/%d results for %d/%d/%d cases",
			len(resp.Verified), len(resp.Signed), len(resp.Generated), len(req.Verify), len(req.Sign), len(req.Generate))
	}
	ran := time.Now()
	t.Logf("jose %s: %d algorithms, %d verify + %d sign + %d keygen cases; keys and tokens %v, node peer %v",
		lockedVersion(t, root, "jose"), len(algs), len(req.Verify), len(req.Sign), len(req.Generate),
		prepared.Sub(start).Round(time.Millisecond), ran.Sub(prepared).Round(time.Millisecond))

	for _, c := range cases {
		t.Run(string(c.alg), func(t *testing.T) {
			t.Run("signet_to_jose", func(t *testing.T) {
				checkJoseVerified(t, c, resp.Verified[c.vGood])
			})
			if c.vSet >= 0 {
				t.Run("signet_jwks_to_jose", func(t *testing.T) {
					checkJoseVerified(t, c, resp.Verified[c.vSet])
				})
			}
			t.Run("signet_tampered_rejected_by_jose", func(t *testing.T) {
				checkJoseRejected(t, string(c.alg)+" token whose signature has a flipped byte", "ERR_JWS_SIGNATURE_VERIFICATION_FAILED", resp.Verified[c.vTampered])
			})
			t.Run("jose_to_signet", func(t *testing.T) {
				checkSignetVerifies(t, c, resp.Signed[c.sign], set)
			})
			t.Run("jose_to_signet_wrong_key", func(t *testing.T) {
				r := resp.Signed[c.sign]
				if r.Error != "" {
					t.Skipf("no jose token (see jose_to_signet): %s", r.Error)
				}
				_, err := jwt.Verify[interopClaims](publicOrSecret(t, c.other), r.Token, policyFor(c.joseSent))
				if !errors.Is(err, signet.ErrSignatureInvalid) {
					t.Fatalf("signet, given another key of the same algorithm and kid, answered err = %v for jose's %s token; want ErrSignatureInvalid\ntoken: %s", err, c.alg, r.Token)
				}
			})
			t.Run("jose_key_to_signet", func(t *testing.T) {
				checkJoseKey(t, c, resp.Generated[c.generate])
			})
		})
	}
	t.Run("Ed25519", func(t *testing.T) {
		t.Run("jose_to_signet", func(t *testing.T) {
			checkHeaderAlg(t, resp.Signed[edSign].Token, fullySpecifiedEd25519)
			checkSignetVerifies(t, ed, resp.Signed[edSign], set)
		})
		t.Run("jose_key_to_signet", func(t *testing.T) {
			checkHeaderAlg(t, resp.Generated[edGenerate].Token, fullySpecifiedEd25519)
			checkJoseKey(t, ed, resp.Generated[edGenerate])
		})
	})
	t.Logf("total %v", time.Since(start).Round(time.Millisecond))
}

// fullySpecifiedEd25519 is RFC 9864's JWS name for EdDSA on Ed25519, which
// signet reads as signet.EdDSA (it is no signet.Algorithm of its own).
const fullySpecifiedEd25519 signet.Algorithm = "Ed25519"

// checkHeaderAlg: token's protected header names alg.
func checkHeaderAlg(t *testing.T, token string, alg signet.Algorithm) {
	t.Helper()
	h, _, _ := strings.Cut(token, ".")
	raw, err := base64.RawURLEncoding.DecodeString(h)
	if err != nil {
		t.Fatalf("header of %q: %v", token, err)
	}
	var hdr struct {
		Alg string `json:"alg"`
	}
	if err := json.Unmarshal(raw, &hdr); err != nil || hdr.Alg != string(alg) {
		t.Fatalf("jose's header %s (%v), want alg %s", raw, err, alg)
	}
}

// newAlgCases makes the keys and signet's tokens, one goroutine per
// algorithm: RSA key generation dominates, more so under -race.
func newAlgCases(t *testing.T, algs []signet.Algorithm) []*algCase {
	t.Helper()
	cases := make([]*algCase, len(algs))
	errs := make([]error, len(algs))
	var wg sync.WaitGroup
	for i, alg := range algs {
		wg.Go(func() { cases[i], errs[i] = newAlgCase(i, alg) })
	}
	wg.Wait()
	if err := errors.Join(errs...); err != nil {
		t.Fatal(err)
	}
	return cases
}

func newAlgCase(i int, alg signet.Algorithm) (*algCase, error) {
	kid := "interop-" + string(alg)
	key, err := signet.GenerateKeyWithID(alg, kid)
	if err != nil {
		return nil, fmt.Errorf("GenerateKeyWithID(%s): %w", alg, err)
	}
	other, err := signet.GenerateKeyWithID(alg, kid)
	if err != nil {
		return nil, fmt.Errorf("GenerateKeyWithID(%s): %w", alg, err)
	}
	c := &algCase{
		alg:        alg,
		key:        key,
		other:      other,
		signetSent: claimsFor(i, alg, "signet"),
		joseSent:   claimsFor(i, alg, "jose"),
		genSent:    claimsFor(i, alg, "jose-keygen"),
		genKid:     "jose-generated-" + string(alg),
	}
	if c.signetToken, err = jwt.Sign(key, c.signetSent); err != nil {
		return nil, fmt.Errorf("jwt.Sign(%s): %w", alg, err)
	}
	return c, nil
}

// claimsFor makes the claims one side signs. Audiences alternate between a
// single value (a JSON string) and two (an array).
func claimsFor(i int, alg signet.Algorithm, signer string) interopClaims {
	now := time.Now()
	aud := jwt.Audience{"signet-interop"}
	if i%2 == 1 {
		aud = jwt.Audience{"signet-interop", "https://api.example/" + strings.ToLower(string(alg))}
	}
	return interopClaims{
		Claims: jwt.Claims{
			Issuer:    "https://issuer.example/" + signer,
			Subject:   "user-" + string(alg),
			Audience:  aud,
			ExpiresAt: jwt.At(now.Add(time.Hour)),
			NotBefore: jwt.At(now.Add(-time.Minute)),
			IssuedAt:  jwt.At(now),
			ID:        fmt.Sprintf("%s-%s-%d", signer, alg, now.UnixNano()),
		},
		Role:   "admin",
		Admin:  i%3 == 0,
		Scopes: []string{"read", "write:" + string(alg)},
		Level:  1<<53 - 1,
		Note:   "Zoë ✓ 𝄞 </script> & \"quoted\" \\ \u2028 tab\t",
	}
}

func policyFor(c interopClaims) jwt.Policy {
	return jwt.Policy{Issuer: c.Issuer, Audience: []string{c.Audience[len(c.Audience)-1]}, Subject: c.Subject}
}

// checkJoseVerified: jose accepted signet's token and read the claims signet wrote.
func checkJoseVerified(t *testing.T, c *algCase, r verifyResult) {
	t.Helper()
	checkJoseRead(t, string(c.alg), c.signetToken, c.signetSent, r)
}

// checkJoseRead: jose accepted signet's token (verified or decrypted it;
// name says which kind) and read the claims signet wrote (sent).
func checkJoseRead(t *testing.T, name, token string, sent interopClaims, r verifyResult) {
	t.Helper()
	if !r.OK {
		t.Fatalf("jose rejected signet's %s token: %s\ntoken: %s", name, r.Error, token)
	}
	got := decodeJSONValue(t, r.Payload)
	if want := asJSONValue(t, sent); !reflect.DeepEqual(got, want) {
		t.Fatalf("jose read other claims from signet's %s token:\n got %s\nwant %s", name, r.Payload, mustMarshal(t, sent))
	}
}

// checkJoseRejected: jose refused a token signet made and then tampered
// with (what describes it), with code in its error.
func checkJoseRejected(t *testing.T, what, code string, r verifyResult) {
	t.Helper()
	if r.OK {
		t.Fatalf("jose accepted a %s; payload %s", what, r.Payload)
	}
	if !strings.Contains(r.Error, code) {
		t.Errorf("jose rejected the %s, but not with %s: %s", what, code, r.Error)
	}
}

// checkSignetVerifies: signet accepts jose's token, through the key set (kid
// lookup) and through the single key, and reads the claims jose was given.
func checkSignetVerifies(t *testing.T, c *algCase, r signResult, set *signet.KeySet) {
	t.Helper()
	if r.Error != "" {
		t.Fatalf("jose could not sign with signet's %s key (given as a private JWK): %s\njwk: %s", c.alg, r.Error, redactJWK(t, c.key))
	}
	p := policyFor(c.joseSent)
	for _, v := range []struct {
		name string
		keys signet.Keys
	}{{"key set", set}, {"single key", publicOrSecret(t, c.key)}} {
		got, err := jwt.Verify[interopClaims](v.keys, r.Token, p)
		if err != nil {
			t.Fatalf("signet rejected jose's %s token (%s): %v\ntoken: %s", c.alg, v.name, err, r.Token)
		}
		if !reflect.DeepEqual(got, c.joseSent) {
			t.Fatalf("signet read other claims from jose's %s token (%s):\n got %+v\nwant %+v", c.alg, v.name, got, c.joseSent)
		}
	}
}

// checkJoseKey: a key jose made and exported with exportJWK (no "alg"
// member; the algorithm is stated with ParseKeyFor) reads into signet, and
// jose's token signed with it verifies.
func checkJoseKey(t *testing.T, c *algCase, r generateResult) {
	t.Helper()
	if r.Error != "" {
		t.Fatalf("jose could not make and use a %s key: %s", c.alg, r.Error)
	}
	priv, err := jwk.ParseKeyFor(r.PrivateJWK, c.alg)
	if err != nil {
		t.Fatalf("jwk.ParseKeyFor(jose's private %s JWK): %v", c.alg, err)
	}
	if priv.KeyID() != c.genKid || !priv.CanSign() {
		t.Fatalf("jose's private %s JWK read as kid %q, CanSign %v", c.alg, priv.KeyID(), priv.CanSign())
	}
	verifier := priv
	if !c.alg.Symmetric() {
		if verifier, err = jwk.ParseKeyFor(r.PublicJWK, c.alg); err != nil {
			t.Fatalf("jwk.ParseKeyFor(jose's public %s JWK %s): %v", c.alg, r.PublicJWK, err)
		}
		pub, err := priv.Public()
		if err != nil || !pub.Equal(verifier) {
			t.Fatalf("the public half of jose's private %s JWK is not jose's public JWK (err %v)", c.alg, err)
		}
	}
	got, err := jwt.Verify[interopClaims](verifier, r.Token, policyFor(c.genSent))
	if err != nil {
		t.Fatalf("signet rejected jose's %s token signed with a jose-made key: %v\ntoken: %s\npublic jwk: %s", c.alg, err, r.Token, r.PublicJWK)
	}
	if !reflect.DeepEqual(got, c.genSent) {
		t.Fatalf("signet read other claims from jose's %s token:\n got %+v\nwant %+v", c.alg, got, c.genSent)
	}
	// And what signet writes with that key reads back with jose's public key.
	tok, err := jwt.Sign(priv, c.genSent)
	if err != nil {
		t.Fatalf("jwt.Sign with jose's %s key: %v", c.alg, err)
	}
	if _, err := jwt.Verify[interopClaims](verifier, tok, policyFor(c.genSent)); err != nil {
		t.Fatalf("signet token made with jose's %s key does not verify: %v", c.alg, err)
	}
}

// verifyJWK is the JWK jose verifies with: the public key, or the secret
// for HMAC, which has no public half.
func verifyJWK(t *testing.T, k *signet.Key) json.RawMessage {
	t.Helper()
	return marshalJWK(t, k, k.Symmetric())
}

func publicOrSecret(t *testing.T, k *signet.Key) *signet.Key {
	t.Helper()
	if k.Symmetric() {
		return k
	}
	p, err := k.Public()
	if err != nil {
		t.Fatalf("Public(%s): %v", k.Algorithm(), err)
	}
	return p
}

// marshalJWK is k as a JWK, with its private members when private is set.
func marshalJWK(t *testing.T, k *signet.Key, private bool) json.RawMessage {
	t.Helper()
	marshal := jwk.MarshalPublic
	if private {
		marshal = jwk.Marshal
	}
	b, err := marshal(k)
	if err != nil {
		t.Fatalf("jwk (%s, private %v): %v", k.Algorithm(), private, err)
	}
	return b
}

// redactJWK is the key's public JWK, for messages; secrets stay out of logs.
func redactJWK(t *testing.T, k *signet.Key) string {
	t.Helper()
	if k.Symmetric() {
		return fmt.Sprintf(`{"kty":"oct","alg":%q,"kid":%q,"k":"…"}`, k.Algorithm(), k.KeyID())
	}
	return string(marshalJWK(t, k, false))
}

// flipLastSegmentBit returns a compact token with one bit of its decoded
// last segment (a JWS's signature, a JWE's tag) changed, re-encoded as
// strict base64url.
func flipLastSegmentBit(t *testing.T, token string) string {
	t.Helper()
	i := strings.LastIndexByte(token, '.')
	b, err := base64.RawURLEncoding.DecodeString(token[i+1:])
	if err != nil || len(b) == 0 {
		t.Fatalf("decode the last segment of %s: %v", token, err)
	}
	b[len(b)/2] ^= 0x01
	return token[:i+1] + base64.RawURLEncoding.EncodeToString(b)
}

func mustMarshal(t *testing.T, v any) []byte {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatalf("json: %v", err)
	}
	return b
}

// asJSONValue is v as the generic JSON value it encodes to, numbers kept exact.
func asJSONValue(t *testing.T, v any) any {
	t.Helper()
	return decodeJSONValue(t, mustMarshal(t, v))
}

func decodeJSONValue(t *testing.T, b []byte) any {
	t.Helper()
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		t.Fatalf("decode JSON %.200s: %v", b, err)
	}
	return v
}
