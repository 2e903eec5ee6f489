package interop_test

import (
	"bufio"
	"bytes"
	"context"
	"crypto/elliptic"
	"encoding/base64"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"math/big"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/signet-go/signet"
	"github.com/signet-go/signet/paserk"
	"github.com/signet-go/signet/paseto"
)

// Paths relative to the repository root.
const (
	pyDir          = "interop/python"
	pyScript       = "interop/python/pyseto_peer.py"
	pyRequirements = "interop/python/requirements.txt"
	pyVenvPython   = "interop/python/.venv/bin/python"
)

// pyTimeout bounds the one Python process that runs the whole batch.
const pyTimeout = 2 * time.Minute

// pyPassword is the password of every password-wrapped key: non-ASCII, so
// that both sides must agree on UTF-8.
const pyPassword = "correct horse ✓ battery staple"

// The small costs of the password-wrapping cases, written by signet and asked
// of pyseto: Argon2id 8 MiB, 1 pass, 1 lane (k4); PBKDF2 1000 rounds (k3).
var pyPWParams = paserk.PasswordParams{Memory: 8192, Time: 1, Parallelism: 1, Iterations: 1000}

// The peer protocol; see interop/python/pyseto_peer.py.
type (
	pyRequest struct {
		Verify []pyVerifyCase `json:"verify"`
		Issue  []pyIssueCase  `json:"issue"`
		Paserk []pyPaserkCase `json:"paserk"`
	}
	pyVerifyCase struct {
		Version  int    `json:"version"`
		Purpose  string `json:"purpose"`
		Key      string `json:"key"`
		Token    string `json:"token"`
		Implicit string `json:"implicit"`
		Audience string `json:"audience,omitempty"`
	}
	pyIssueCase struct {
		Key        string `json:"key"`
		Payload    any    `json:"payload"`
		Footer     string `json:"footer"`
		FooterJSON bool   `json:"footer_json,omitempty"`
		Implicit   string `json:"implicit"`
		ExpSeconds int    `json:"exp_seconds,omitempty"`
	}
	pyPaserkCase struct {
		Op          string `json:"op"`
		Key         string `json:"key,omitempty"`
		Paserk      string `json:"paserk,omitempty"`
		WrappingKey string `json:"wrapping_key,omitempty"`
		Password    string `json:"password,omitempty"`
		MemoryKiB   uint32 `json:"memory_kib,omitempty"`
		Time        uint32 `json:"time,omitempty"`
		Parallelism uint8  `json:"parallelism,omitempty"`
		Iterations  uint32 `json:"iterations,omitempty"`
		Recipient   string `json:"recipient,omitempty"`
		Version     int    `json:"version,omitempty"`
		Purpose     string `json:"purpose,omitempty"`
		Payload     any    `json:"payload,omitempty"`
	}
	pyResponse struct {
		Pyseto   string           `json:"pyseto"`
		Verified []pyVerifyResult `json:"verified"`
		Issued   []pyIssueResult  `json:"issued"`
		Paserk   []pyPaserkResult `json:"paserk"`
	}
	pyVerifyResult struct {
		OK      bool            `json:"ok"`
		Error   string          `json:"error"`
		Payload json.RawMessage `json:"payload"`
		Footer  json.RawMessage `json:"footer"`
	}
	pyIssueResult struct {
		Token string `json:"token"`
		Error string `json:"error"`
	}
	pyPaserkResult struct {
		Paserk   string `json:"paserk"`
		Public   string `json:"public"`
		ID       string `json:"id"`
		PublicID string `json:"public_id"`
		PeerID   string `json:"peer_id"`
		Token    string `json:"token"`
		Error    string `json:"error"`
	}
)

// pyBatch collects the cases of the one peer run and the checks to make of
// its answers, as named subtests.
type pyBatch struct {
	req    pyRequest
	checks []pyCheck
}

type pyCheck struct {
	name string
	run  func(t *testing.T, r *pyResponse)
}

func (b *pyBatch) verify(c pyVerifyCase) int {
	b.req.Verify = append(b.req.Verify, c)
	return len(b.req.Verify) - 1
}

func (b *pyBatch) issue(c pyIssueCase) int {
	b.req.Issue = append(b.req.Issue, c)
	return len(b.req.Issue) - 1
}

func (b *pyBatch) paserk(c pyPaserkCase) int {
	b.req.Paserk = append(b.req.Paserk, c)
	return len(b.req.Paserk) - 1
}

func (b *pyBatch) check(name string, run func(t *testing.T, r *pyResponse)) {
	b.checks = append(b.checks, pyCheck{name, run})
}

// pyClaims are the claims that cross the boundary: the registered claims and
// private ones that exercise JSON on both sides (pyseto's json.dumps escapes
// every non-ASCII character, including the surrogate pair of U+1D11E).
type pyClaims struct {
	paseto.Claims
	Role   string   `json:"role"`
	Scopes []string `json:"scopes"`
	Level  int64    `json:"level"`
	Note   string   `json:"note"`
}

// pyKeys are one version's keys, all made by signet.
type pyKeys struct {
	version int // 4 or 3
	local   *signet.Key
	content *signet.Key // a second local key: the one wrapped and sealed
	secret  *signet.Key // signs
	public  *signet.Key // secret's public half
	// Keys of the same algorithms that must not work.
	otherLocal, otherSecret, otherPublic *signet.Key
}

func TestPyseto(t *testing.T) {
	root, python := requirePyseto(t)
	start := time.Now()

	var b pyBatch
	for _, v := range []int{4, 3} {
		k := newPyKeys(t, v)
		addPasetoCases(t, &b, k, true)
		addPasetoCases(t, &b, k, false)
		addPaserkCases(t, &b, k)
	}
	prepared := time.Now()

	resp := runPyseto(t, root, python, &b.req)
	if len(resp.Verified) != len(b.req.Verify) || len(resp.Issued) != len(b.req.Issue) || len(resp.Paserk) != len(b.req.Paserk) {
		t.Fatalf("peer answered %d/%d/%d results for %d/%d/%d cases",
			len(resp.Verified), len(resp.Issued), len(resp.Paserk), len(b.req.Verify), len(b.req.Issue), len(b.req.Paserk))
	}
	if pinned := pysetoPinned(t, root); resp.Pyseto != pinned {
		t.Fatalf("the peer ran pyseto %s, requirements.txt pins %s; run `bash interop/setup.sh`", resp.Pyseto, pinned)
	}
	ran := time.Now()
	t.Logf("pyseto %s: %d verify + %d issue + %d paserk cases; keys, tokens and PASERKs %v, python peer %v",
		resp.Pyseto, len(b.req.Verify), len(b.req.Issue), len(b.req.Paserk),
		prepared.Sub(start).Round(time.Millisecond), ran.Sub(prepared).Round(time.Millisecond))

	for _, c := range b.checks {
		t.Run(c.name, func(t *testing.T) { c.run(t, resp) })
	}
	t.Logf("total %v", time.Since(start).Round(time.Millisecond))
}

func newPyKeys(t *testing.T, version int) *pyKeys {
	t.Helper()
	localAlg, publicAlg := signet.V4Local, signet.V4Public
	if version == 3 {
		localAlg, publicAlg = signet.V3Local, signet.V3Public
	}
	gen := func(alg signet.Algorithm) *signet.Key {
		k, err := signet.GenerateKey(alg)
		if err != nil {
			t.Fatalf("GenerateKey(%s): %v", alg, err)
		}
		return k
	}
	k := &pyKeys{
		version:     version,
		local:       gen(localAlg),
		content:     gen(localAlg),
		secret:      gen(publicAlg),
		otherLocal:  gen(localAlg),
		otherSecret: gen(publicAlg),
	}
	k.public = pyPublic(t, k.secret)
	k.otherPublic = pyPublic(t, k.otherSecret)
	return k
}

func pyPublic(t *testing.T, k *signet.Key) *signet.Key {
	t.Helper()
	p, err := k.Public()
	if err != nil {
		t.Fatalf("Public(%s): %v", k.Algorithm(), err)
	}
	return p
}

func mustPaserk(t *testing.T, k *signet.Key) string {
	t.Helper()
	s, err := paserk.Encode(k)
	if err != nil {
		t.Fatalf("paserk.Encode(%s): %v", k.Algorithm(), err)
	}
	return s
}

func mustPaserkID(t *testing.T, k *signet.Key) string {
	t.Helper()
	s, err := paserk.ID(k)
	if err != nil {
		t.Fatalf("paserk.ID(%s): %v", k.Algorithm(), err)
	}
	return s
}

// pyClaimsFor makes the claims one side issues, with exp, nbf and iat in
// whole seconds (as both sides write them) unless noTimes.
func pyClaimsFor(alg signet.Algorithm, issuer string, now time.Time, noTimes bool) pyClaims {
	c := pyClaims{
		Claims: paseto.Claims{
			Issuer:   "https://issuer.example/" + issuer,
			Subject:  "user-" + string(alg),
			Audience: "https://api.example/" + string(alg),
			ID:       fmt.Sprintf("%s-%s-%d", issuer, alg, now.UnixNano()),
		},
		Role:   "admin",
		Scopes: []string{"read", "write:" + string(alg)},
		Level:  1<<53 - 1,
		Note:   "Zoë ✓ 𝄞 </script> & \"quoted\" \\ \u2028 tab\t",
	}
	if !noTimes {
		now = now.UTC().Truncate(time.Second)
		c.ExpiresAt = now.Add(time.Hour)
		c.NotBefore = now.Add(-time.Minute)
		c.IssuedAt = now
	}
	return c
}

func pyPolicy(c pyClaims, footer, implicit string) paseto.Policy {
	return paseto.Policy{
		Issuer:   c.Issuer,
		Audience: []string{c.Audience},
		Subject:  c.Subject,
		Footer:   []byte(footer),
		Implicit: []byte(implicit),
	}
}

// addPasetoCases: tokens of one version and purpose, issued by signet and
// read by pyseto, and the reverse, and forgeries refused on both sides.
func addPasetoCases(t *testing.T, b *pyBatch, k *pyKeys, local bool) {
	t.Helper()
	signer, verifier, other := k.secret, k.public, k.otherPublic
	purpose, cryptoErr := "public", "VerifyError"
	if local {
		signer, verifier, other = k.local, k.local, k.otherLocal
		purpose, cryptoErr = "local", "DecryptError"
	}
	alg := signer.Algorithm()
	issue := paseto.Sign[pyClaims]
	open := paseto.Verify[pyClaims]
	if local {
		issue, open = paseto.Encrypt[pyClaims], paseto.Decrypt[pyClaims]
	}
	kid := mustPaserkID(t, verifier)
	footer := `{"kid":"` + kid + `"}`
	otherFooter := `{"kid":"` + mustPaserkID(t, other) + `"}`
	implicit := "tenant=signet-interop;alg=" + string(alg)
	verifierPaserk := mustPaserk(t, verifier)
	now := time.Now()

	// signet → pyseto.
	sent := pyClaimsFor(alg, "signet", now, false)
	tok, err := issue(signer, sent, paseto.Options{Footer: []byte(footer), Implicit: []byte(implicit)})
	if err != nil {
		t.Fatalf("signet issuing %s: %v", alg, err)
	}
	expired, err := issue(signer, pyClaimsFor(alg, "signet", now, true),
		paseto.Options{Footer: []byte(footer), Implicit: []byte(implicit), Now: func() time.Time { return now.Add(-2 * time.Hour) }})
	if err != nil {
		t.Fatalf("signet issuing an expired %s: %v", alg, err)
	}
	vc := pyVerifyCase{Version: k.version, Purpose: purpose, Key: verifierPaserk, Token: tok, Implicit: implicit, Audience: sent.Audience}
	good := b.verify(vc)
	b.check(string(alg)+"/signet_to_pyseto", func(t *testing.T, r *pyResponse) {
		res := r.Verified[good]
		if !res.OK {
			t.Fatalf("pyseto rejected signet's %s token: %s\ntoken: %s\nkey: %s", alg, res.Error, tok, pyRedact(verifierPaserk))
		}
		if got, want := decodeJSONValue(t, res.Payload), asJSONValue(t, sent); !reflect.DeepEqual(got, want) {
			t.Fatalf("pyseto read other claims from signet's %s token:\n got %s\nwant %s", alg, res.Payload, mustMarshal(t, sent))
		}
		if got, want := decodeJSONValue(t, res.Footer), decodeJSONValue(t, []byte(footer)); !reflect.DeepEqual(got, want) {
			t.Fatalf("pyseto read footer %s from signet's %s token, want %s", res.Footer, alg, footer)
		}
	})

	rejected := []struct {
		name, why string
		c         pyVerifyCase
		wantErr   string
	}{
		{"tampered", "a flipped byte in its body", withToken(vc, pyFlipBody(t, tok)), cryptoErr},
		{"footer_swapped", "another kid in its footer", withToken(vc, pyReplaceFooter(t, tok, otherFooter)), cryptoErr},
		{"wrong_implicit", "another implicit assertion", withImplicit(vc, implicit+"x"), cryptoErr},
		{"wrong_key", "another key", withKey(vc, mustPaserk(t, other)), cryptoErr},
		{"expired", "exp an hour ago", withToken(vc, expired), "Token expired"},
		{"wrong_audience", "another audience required", withAudience(vc, "https://elsewhere.example/"), "aud verification failed"},
	}
	for _, rc := range rejected {
		i := b.verify(rc.c)
		b.check(string(alg)+"/signet_"+rc.name+"_rejected_by_pyseto", func(t *testing.T, r *pyResponse) {
			res := r.Verified[i]
			if res.OK {
				t.Fatalf("pyseto accepted signet's %s token with %s; payload %s\ntoken: %s", alg, rc.why, res.Payload, rc.c.Token)
			}
			if !strings.Contains(res.Error, rc.wantErr) {
				t.Fatalf("pyseto rejected signet's %s token with %s, but not with %q: %s", alg, rc.why, rc.wantErr, res.Error)
			}
		})
	}

	// pyseto → signet, with the claims (and their times) given by the test.
	pySent := pyClaimsFor(alg, "pyseto", now, false)
	exact := b.issue(pyIssueCase{Key: mustPaserk(t, signer), Payload: pySent, Footer: footer, Implicit: implicit})
	set, err := signet.NewKeySet(verifier.WithKeyID(kid), other.WithKeyID(mustPaserkID(t, other)))
	if err != nil {
		t.Fatalf("NewKeySet: %v", err)
	}
	policy := pyPolicy(pySent, footer, implicit)
	b.check(string(alg)+"/pyseto_to_signet", func(t *testing.T, r *pyResponse) {
		res := r.Issued[exact]
		if res.Error != "" {
			t.Fatalf("pyseto could not issue a %s token with signet's key: %s", alg, res.Error)
		}
		for _, v := range []struct {
			name string
			keys signet.Keys
		}{{"key set, by kid", set}, {"single key", verifier}} {
			got, err := open(v.keys, res.Token, policy)
			if err != nil {
				t.Fatalf("signet rejected pyseto's %s token (%s): %v\ntoken: %s", alg, v.name, err, res.Token)
			}
			if g, w := asJSONValue(t, got), asJSONValue(t, pySent); !reflect.DeepEqual(g, w) {
				t.Fatalf("signet read other claims from pyseto's %s token (%s):\n got %s\nwant %s", alg, v.name, mustMarshal(t, got), mustMarshal(t, pySent))
			}
		}
	})
	forged := []struct {
		name, why string
		token     func(string) string
		keys      signet.Keys
		policy    paseto.Policy
		want      error
	}{
		{"tampered", "a flipped byte in its body", func(s string) string { return pyFlipBody(t, s) }, verifier, policy, signet.ErrSignatureInvalid},
		{"footer_swapped", "another kid in its footer (any footer allowed)", func(s string) string { return pyReplaceFooter(t, s, otherFooter) },
			verifier, withPolicyFooter(policy, nil), signet.ErrSignatureInvalid},
		{"footer_not_expected", "a footer other than the policy's", func(s string) string { return s }, verifier, withPolicyFooter(policy, []byte(otherFooter)), signet.ErrFooter},
		{"wrong_implicit", "another implicit assertion", func(s string) string { return s }, verifier, withPolicyImplicit(policy, []byte(implicit+"x")), signet.ErrSignatureInvalid},
		{"wrong_key", "another key", func(s string) string { return s }, other, policy, signet.ErrSignatureInvalid},
	}
	for _, f := range forged {
		b.check(string(alg)+"/pyseto_"+f.name+"_rejected_by_signet", func(t *testing.T, r *pyResponse) {
			res := r.Issued[exact]
			if res.Error != "" {
				t.Skipf("no pyseto token (see pyseto_to_signet): %s", res.Error)
			}
			forgery := f.token(res.Token)
			_, err := open(f.keys, forgery, f.policy)
			if !errors.Is(err, f.want) {
				t.Fatalf("signet, given pyseto's %s token with %s, answered err = %v; want %v\ntoken: %s", alg, f.why, err, f.want, forgery)
			}
		})
	}

	// pyseto → signet, with the footer given to pyseto as an object, as
	// pyseto's README does: pyseto writes it with json.dumps ({"kid": "…"},
	// with a space), and signet finds the key by that kid.
	objFooter := b.issue(pyIssueCase{Key: mustPaserk(t, signer), Payload: pySent, Footer: footer, FooterJSON: true, Implicit: implicit})
	b.check(string(alg)+"/pyseto_footer_object_to_signet", func(t *testing.T, r *pyResponse) {
		res := r.Issued[objFooter]
		if res.Error != "" {
			t.Fatalf("pyseto could not issue a %s token with a footer object: %s", alg, res.Error)
		}
		f, err := paseto.Footer(res.Token)
		if want := `{"kid": "` + kid + `"}`; err != nil || string(f) != want {
			t.Fatalf("pyseto wrote footer %q (err %v), want %q", f, err, want)
		}
		got, err := open(set, res.Token, withPolicyFooter(policy, nil))
		if err != nil {
			t.Fatalf("signet rejected pyseto's %s token with footer %s (key set, by kid): %v\ntoken: %s", alg, f, err, res.Token)
		}
		if g, w := asJSONValue(t, got), asJSONValue(t, pySent); !reflect.DeepEqual(g, w) {
			t.Fatalf("signet read other claims from pyseto's %s token:\n got %s\nwant %s", alg, mustMarshal(t, got), mustMarshal(t, pySent))
		}
	})

	// pyseto signs v3.public with cryptography, which leaves S as it comes:
	// about half of its signatures are high-S, which signet never writes.
	// Several tokens, and one with S replaced by n-S (as valid a signature of
	// the same message), must all verify.
	if alg == signet.V3Public {
		more := []int{exact}
		for range 7 {
			more = append(more, b.issue(pyIssueCase{Key: mustPaserk(t, signer), Payload: pySent, Footer: footer, Implicit: implicit}))
		}
		b.check(string(alg)+"/pyseto_high_s_to_signet", func(t *testing.T, r *pyResponse) {
			high := 0
			for _, i := range more {
				res := r.Issued[i]
				if res.Error != "" {
					t.Fatalf("pyseto could not issue a %s token: %s", alg, res.Error)
				}
				if pyHighS(t, res.Token) {
					high++
				}
				if _, err := open(verifier, res.Token, policy); err != nil {
					t.Fatalf("signet rejected pyseto's %s token (high-S: %v): %v\ntoken: %s", alg, pyHighS(t, res.Token), err, res.Token)
				}
			}
			negated := pyNegateS(t, r.Issued[exact].Token)
			if _, err := open(verifier, negated, policy); err != nil {
				t.Fatalf("signet rejected pyseto's %s token with S replaced by n-S (high-S: %v): %v\ntoken: %s", alg, pyHighS(t, negated), err, negated)
			}
			t.Logf("%d of %d %s signatures by pyseto were high-S", high, len(more), alg)
		})
	}

	// pyseto → signet, with exp and iat written by pyseto itself
	// (Paseto.new(exp=3600, include_iat=True)), in its own form: +00:00.
	pyTimes := pyClaimsFor(alg, "pyseto-times", now, true)
	own := b.issue(pyIssueCase{Key: mustPaserk(t, signer), Payload: pyTimes, Footer: footer, Implicit: implicit, ExpSeconds: 3600})
	b.check(string(alg)+"/pyseto_times_to_signet", func(t *testing.T, r *pyResponse) {
		res := r.Issued[own]
		if res.Error != "" {
			t.Fatalf("pyseto could not issue a %s token with its own exp and iat: %s", alg, res.Error)
		}
		p := pyPolicy(pyTimes, footer, implicit)
		got, err := open(verifier, res.Token, p)
		if err != nil {
			t.Fatalf("signet rejected pyseto's %s token with pyseto's exp and iat: %v\ntoken: %s", alg, err, res.Token)
		}
		low, high := now.Truncate(time.Second).Add(-time.Second), time.Now().Add(time.Second)
		if got.IssuedAt.Before(low) || got.IssuedAt.After(high) {
			t.Errorf("iat of pyseto's %s token read as %v, want within [%v, %v]", alg, got.IssuedAt, low, high)
		}
		if exp := got.ExpiresAt.Add(-time.Hour); exp.Before(low) || exp.After(high) {
			t.Errorf("exp of pyseto's %s token read as %v, want an hour after [%v, %v]", alg, got.ExpiresAt, low, high)
		}
		want := pyTimes
		want.ExpiresAt, want.IssuedAt = got.ExpiresAt, got.IssuedAt
		if g, w := asJSONValue(t, got), asJSONValue(t, want); !reflect.DeepEqual(g, w) {
			t.Errorf("signet read other claims from pyseto's %s token:\n got %s\nwant %s", alg, mustMarshal(t, got), mustMarshal(t, want))
		}
		// The check above is only worth its name if pyseto wrote its own
		// form of the times, not signet's.
		read := paseto.DecryptBytes
		if !local {
			read = paseto.VerifyBytes
		}
		payload, err := read(verifier, res.Token, p)
		if err != nil {
			t.Fatalf("read pyseto's %s payload: %v", alg, err)
		}
		if !bytes.Contains(payload, []byte(`+00:00"`)) {
			t.Errorf("pyseto's %s payload has no +00:00 time: %s", alg, payload)
		}
	})
}

func withToken(c pyVerifyCase, tok string) pyVerifyCase          { c.Token = tok; return c }
func withImplicit(c pyVerifyCase, s string) pyVerifyCase         { c.Implicit = s; return c }
func withKey(c pyVerifyCase, key string) pyVerifyCase            { c.Key = key; return c }
func withAudience(c pyVerifyCase, aud string) pyVerifyCase       { c.Audience = aud; return c }
func withPolicyFooter(p paseto.Policy, f []byte) paseto.Policy   { p.Footer = f; return p }
func withPolicyImplicit(p paseto.Policy, i []byte) paseto.Policy { p.Implicit = i; return p }

// addPaserkCases: key IDs, plain encodings, pie wrapping, sealing and
// password wrapping of one version, in both directions.
func addPaserkCases(t *testing.T, b *pyBatch, k *pyKeys) {
	t.Helper()
	ver := fmt.Sprintf("k%d", k.version)

	// IDs and plain encodings of signet's keys, read by pyseto.
	for _, key := range []struct {
		typ string
		k   *signet.Key
	}{{"local", k.local}, {"public", k.public}, {"secret", k.secret}} {
		enc := mustPaserk(t, key.k)
		id := mustPaserkID(t, key.k)
		iID := b.paserk(pyPaserkCase{Op: "id", Key: enc})
		iEnc := b.paserk(pyPaserkCase{Op: "encode", Key: enc})
		b.check(ver+"/"+key.typ+"/id", func(t *testing.T, r *pyResponse) {
			res := r.Paserk[iID]
			if res.Error != "" {
				t.Fatalf("pyseto could not make the ID of signet's %s.%s %s: %s", ver, key.typ, pyRedact(enc), res.Error)
			}
			if res.Paserk != id {
				t.Fatalf("IDs of the %s.%s key %s differ:\n signet %s\n pyseto %s", ver, key.typ, pyRedact(enc), id, res.Paserk)
			}
		})
		b.check(ver+"/"+key.typ+"/signet_encode_to_pyseto", func(t *testing.T, r *pyResponse) {
			res := r.Paserk[iEnc]
			if res.Error != "" {
				t.Fatalf("pyseto could not read signet's %s.%s %s: %s", ver, key.typ, pyRedact(enc), res.Error)
			}
			if res.Paserk != enc {
				t.Fatalf("pyseto read signet's %s.%s and wrote it back otherwise:\n signet %s\n pyseto %s", ver, key.typ, pyRedact(enc), pyRedact(res.Paserk))
			}
		})
	}

	// Keys made by pyseto, read by signet, with a token made with each.
	for _, purpose := range []string{"local", "public"} {
		alg := signet.Algorithm(fmt.Sprintf("v%d.%s", k.version, purpose))
		claims := pyClaimsFor(alg, "pyseto-keygen", time.Now(), false)
		i := b.paserk(pyPaserkCase{Op: "generate", Version: k.version, Purpose: purpose, Payload: claims})
		b.check(ver+"/"+purpose+"/pyseto_key_to_signet", func(t *testing.T, r *pyResponse) {
			checkPysetoKey(t, alg, claims, r.Paserk[i])
		})
	}

	// pie wrapping, of a local key (local-wrap) and a private key
	// (secret-wrap), with signet's local key as the wrapping key.
	wrapper, otherWrapper := mustPaserk(t, k.local), mustPaserk(t, k.otherLocal)
	for _, w := range []struct {
		typ string
		k   *signet.Key
	}{{"local-wrap.pie", k.content}, {"secret-wrap.pie", k.secret}} {
		want := mustPaserk(t, w.k)
		s, err := paserk.Wrap(w.k, k.local)
		if err != nil {
			t.Fatalf("paserk.Wrap(%s as %s): %v", w.k.Algorithm(), w.typ, err)
		}
		un := b.paserk(pyPaserkCase{Op: "unwrap", Paserk: s, WrappingKey: wrapper})
		unWrong := b.paserk(pyPaserkCase{Op: "unwrap", Paserk: s, WrappingKey: otherWrapper})
		b.check(ver+"/"+w.typ+"/signet_to_pyseto", func(t *testing.T, r *pyResponse) {
			pyExpectKey(t, r.Paserk[un], want, "pyseto could not unwrap signet's "+s)
			pyExpectError(t, r.Paserk[unWrong], "DecryptError", "pyseto unwrapped signet's "+s+" with another wrapping key")
		})
		wr := b.paserk(pyPaserkCase{Op: "wrap", Key: want, WrappingKey: wrapper})
		b.check(ver+"/"+w.typ+"/pyseto_to_signet", func(t *testing.T, r *pyResponse) {
			res := r.Paserk[wr]
			if res.Error != "" {
				t.Fatalf("pyseto could not wrap a %s key as %s: %s", w.k.Algorithm(), w.typ, res.Error)
			}
			signetUnwraps(t, res.Paserk, ver+"."+w.typ+".", w.k,
				func(s string) (*signet.Key, error) { return paserk.Unwrap(s, k.local) },
				func(s string) (*signet.Key, error) { return paserk.Unwrap(s, k.otherLocal) })
		})
	}

	// Sealing a local key to signet's public key (k4: Ed25519, converted to
	// X25519 for pyseto by the peer; k3: P-384).
	sealed, err := paserk.Seal(k.content, k.public)
	if err != nil {
		t.Fatalf("paserk.Seal(%s): %v", k.content.Algorithm(), err)
	}
	contentPaserk := mustPaserk(t, k.content)
	unseal := b.paserk(pyPaserkCase{Op: "unseal", Paserk: sealed, Recipient: mustPaserk(t, k.secret)})
	unsealWrong := b.paserk(pyPaserkCase{Op: "unseal", Paserk: sealed, Recipient: mustPaserk(t, k.otherSecret)})
	b.check(ver+"/seal/signet_to_pyseto", func(t *testing.T, r *pyResponse) {
		pyExpectKey(t, r.Paserk[unseal], contentPaserk, "pyseto could not unseal signet's "+sealed)
		pyExpectError(t, r.Paserk[unsealWrong], "DecryptError", "pyseto unsealed signet's "+sealed+" with another key")
	})
	seal := b.paserk(pyPaserkCase{Op: "seal", Key: contentPaserk, Recipient: mustPaserk(t, k.public)})
	b.check(ver+"/seal/pyseto_to_signet", func(t *testing.T, r *pyResponse) {
		res := r.Paserk[seal]
		if res.Error != "" {
			t.Fatalf("pyseto could not seal a %s key: %s", k.content.Algorithm(), res.Error)
		}
		signetUnwraps(t, res.Paserk, ver+".seal.", k.content,
			func(s string) (*signet.Key, error) { return paserk.Unseal(s, k.secret) },
			func(s string) (*signet.Key, error) { return paserk.Unseal(s, k.otherSecret) })
	})

	// Password wrapping (local-pw, secret-pw), at small costs both ways and
	// at pyseto's default costs from pyseto to signet.
	for _, w := range []struct {
		typ string
		k   *signet.Key
	}{{"local-pw", k.content}, {"secret-pw", k.secret}} {
		want := mustPaserk(t, w.k)
		s, err := paserk.WrapPassword(w.k, []byte(pyPassword), pyPWParams)
		if err != nil {
			t.Fatalf("paserk.WrapPassword(%s): %v", w.k.Algorithm(), err)
		}
		un := b.paserk(pyPaserkCase{Op: "unwrap", Paserk: s, Password: pyPassword})
		unWrong := b.paserk(pyPaserkCase{Op: "unwrap", Paserk: s, Password: pyPassword + "!"})
		b.check(ver+"/"+w.typ+"/signet_to_pyseto", func(t *testing.T, r *pyResponse) {
			pyExpectKey(t, r.Paserk[un], want, "pyseto could not unwrap signet's "+s)
			pyExpectError(t, r.Paserk[unWrong], "DecryptError", "pyseto unwrapped signet's "+s+" with another password")
		})
		if w.typ == "local-pw" {
			// signet's default costs (Argon2id 64 MiB, 2 passes; PBKDF2
			// 100,000) are within pyseto's bounds.
			def, err := paserk.WrapPassword(w.k, []byte(pyPassword), paserk.PasswordParams{})
			if err != nil {
				t.Fatalf("paserk.WrapPassword(%s, default costs): %v", w.k.Algorithm(), err)
			}
			i := b.paserk(pyPaserkCase{Op: "unwrap", Paserk: def, Password: pyPassword})
			b.check(ver+"/"+w.typ+"/signet_default_costs_to_pyseto", func(t *testing.T, r *pyResponse) {
				pyExpectKey(t, r.Paserk[i], want, "pyseto could not unwrap signet's "+def)
			})
		}
		if w.typ == "local-pw" && k.version == 4 {
			// pyseto bounds the costs it reads (Argon2id at most 256 MiB, 4
			// passes, 4 lanes; PBKDF2 at most 1,000,000), below signet's
			// (MaxMemory, MaxTime, MaxParallelism, MaxIterations): what
			// signet writes above them, pyseto refuses before any work.
			over, err := paserk.WrapPassword(w.k, []byte(pyPassword), paserk.PasswordParams{Memory: 8192, Time: 5, Parallelism: 1})
			if err != nil {
				t.Fatalf("paserk.WrapPassword(%s, 5 passes): %v", w.k.Algorithm(), err)
			}
			i := b.paserk(pyPaserkCase{Op: "unwrap", Paserk: over, Password: pyPassword})
			b.check(ver+"/"+w.typ+"/signet_costs_above_pyseto_bounds_refused", func(t *testing.T, r *pyResponse) {
				pyExpectError(t, r.Paserk[i], "Argon2 time cost", "pyseto unwrapped signet's "+over+" (5 Argon2id passes, above pyseto's bound of 4)")
			})
		}
		small := pyPaserkCase{Op: "wrap", Key: want, Password: pyPassword}
		if k.version == 4 {
			small.MemoryKiB, small.Time, small.Parallelism = pyPWParams.Memory, pyPWParams.Time, pyPWParams.Parallelism
		} else {
			small.Iterations = pyPWParams.Iterations
		}
		cases := []struct {
			name string
			c    pyPaserkCase
		}{{"small_costs", small}}
		if w.typ == "local-pw" {
			cases = append(cases, struct {
				name string
				c    pyPaserkCase
			}{"pyseto_default_costs", pyPaserkCase{Op: "wrap", Key: want, Password: pyPassword}})
		}
		for _, pc := range cases {
			i := b.paserk(pc.c)
			b.check(ver+"/"+w.typ+"/pyseto_to_signet_"+pc.name, func(t *testing.T, r *pyResponse) {
				res := r.Paserk[i]
				if res.Error != "" {
					t.Fatalf("pyseto could not wrap a %s key with a password (%s): %s", w.k.Algorithm(), pc.name, res.Error)
				}
				// The costs pyseto wrote: those asked for, or its defaults.
				want := pyPasswordCosts{pc.c.MemoryKiB, pc.c.Time, uint32(pc.c.Parallelism), pc.c.Iterations}
				if pc.name == "pyseto_default_costs" {
					want = pyPasswordCosts{15 * 1024, 2, 1, 0}
					if k.version == 3 {
						want = pyPasswordCosts{iterations: 100_000}
					}
				}
				if got := pwCosts(t, res.Paserk); got != want {
					t.Errorf("pyseto's %s carries costs %+v, want %+v", pyRedact(res.Paserk), got, want)
				}
				signetUnwraps(t, res.Paserk, ver+"."+w.typ+".", w.k,
					func(s string) (*signet.Key, error) { return paserk.UnwrapPassword(s, []byte(pyPassword)) },
					func(s string) (*signet.Key, error) { return paserk.UnwrapPassword(s, []byte(pyPassword+"!")) })
			})
		}
	}
}

// pyPasswordCosts are the costs a password-wrapped PASERK carries: Argon2id
// memory (KiB), passes and lanes for k4, PBKDF2 iterations for k3.
type pyPasswordCosts struct {
	memoryKiB, time, parallelism, iterations uint32
}

// pwCosts reads the costs of a k4 or k3 local-pw or secret-pw: after the
// salt, k4 has memlimit (bytes, 64-bit), opslimit and parallelism (32-bit),
// k3 the iteration count (32-bit), all big-endian (PASERK PBKW).
func pwCosts(t *testing.T, s string) pyPasswordCosts {
	t.Helper()
	d, err := base64.RawURLEncoding.DecodeString(s[strings.LastIndexByte(s, '.')+1:])
	if err != nil || len(d) < 36 {
		t.Fatalf("decode %s: %v", pyRedact(s), err)
	}
	if strings.HasPrefix(s, "k3.") {
		return pyPasswordCosts{iterations: binary.BigEndian.Uint32(d[32:36])}
	}
	return pyPasswordCosts{
		memoryKiB:   uint32(binary.BigEndian.Uint64(d[16:24]) / 1024),
		time:        binary.BigEndian.Uint32(d[24:28]),
		parallelism: binary.BigEndian.Uint32(d[28:32]),
	}
}

// signetUnwraps checks that signet opens s (of the given header), made by
// pyseto, into want, and that openWrong (the wrong key or password) fails to.
func signetUnwraps(t *testing.T, s, header string, want *signet.Key, open, openWrong func(string) (*signet.Key, error)) {
	t.Helper()
	if !strings.HasPrefix(s, header) {
		t.Fatalf("pyseto wrote %q, want a %s… PASERK", s, header)
	}
	got, err := open(s)
	if err != nil {
		t.Fatalf("signet could not open pyseto's %s: %v", s, err)
	}
	if !got.Equal(want) {
		t.Fatalf("signet opened pyseto's %s into another key: %s, want %s", s, pyRedact(mustPaserk(t, got)), pyRedact(mustPaserk(t, want)))
	}
	if _, err := openWrong(s); !errors.Is(err, signet.ErrSignatureInvalid) {
		t.Fatalf("signet, opening pyseto's %s with the wrong key or password, answered err = %v; want ErrSignatureInvalid", s, err)
	}
}

// checkPysetoKey: a key pyseto made reads into signet, encodes back to the
// same PASERK, has the same IDs on both sides, and opens pyseto's token.
func checkPysetoKey(t *testing.T, alg signet.Algorithm, claims pyClaims, r pyPaserkResult) {
	t.Helper()
	if r.Error != "" {
		t.Fatalf("pyseto could not make and use a %s key: %s", alg, r.Error)
	}
	key, err := paserk.Decode(r.Paserk)
	if err != nil {
		t.Fatalf("paserk.Decode(pyseto's %s): %v", pyRedact(r.Paserk), err)
	}
	if key.Algorithm() != alg {
		t.Fatalf("pyseto's %s read as a %s key, want %s", pyRedact(r.Paserk), key.Algorithm(), alg)
	}
	if again := mustPaserk(t, key); again != r.Paserk {
		t.Fatalf("signet wrote pyseto's key back otherwise:\n pyseto %s\n signet %s", pyRedact(r.Paserk), pyRedact(again))
	}
	if id := mustPaserkID(t, key); id != r.ID {
		t.Fatalf("IDs of pyseto's %s key differ:\n pyseto %s\n signet %s", alg, r.ID, id)
	}
	verifier := key
	if !key.Symmetric() {
		if verifier, err = paserk.Decode(r.Public); err != nil {
			t.Fatalf("paserk.Decode(pyseto's %s): %v", r.Public, err)
		}
		if !pyPublic(t, key).Equal(verifier) {
			t.Fatalf("pyseto's %s is not the public half of its secret key", r.Public)
		}
		if enc := mustPaserk(t, pyPublic(t, key)); enc != r.Public {
			t.Fatalf("signet encodes the public half of pyseto's key as %s, pyseto as %s", enc, r.Public)
		}
		pid := mustPaserkID(t, verifier)
		if pid != r.PublicID || pid != r.PeerID {
			t.Fatalf("IDs of pyseto's public %s key differ:\n signet %s\n pyseto %s (to_paserk_id), %s (to_peer_paserk_id)", alg, pid, r.PublicID, r.PeerID)
		}
	}
	open := paseto.Verify[pyClaims]
	if key.Symmetric() {
		open = paseto.Decrypt[pyClaims]
	}
	got, err := open(verifier, r.Token, pyPolicy(claims, "", ""))
	if err != nil {
		t.Fatalf("signet rejected pyseto's %s token made with a pyseto key: %v\ntoken: %s", alg, err, r.Token)
	}
	if g, w := asJSONValue(t, got), asJSONValue(t, claims); !reflect.DeepEqual(g, w) {
		t.Fatalf("signet read other claims from pyseto's %s token:\n got %s\nwant %s", alg, mustMarshal(t, got), mustMarshal(t, claims))
	}
}

func pyExpectKey(t *testing.T, r pyPaserkResult, want, msg string) {
	t.Helper()
	if r.Error != "" {
		t.Fatalf("%s: %s", msg, r.Error)
	}
	if r.Paserk != want {
		t.Fatalf("%s into the right key: got %s, want %s", msg, pyRedact(r.Paserk), pyRedact(want))
	}
}

func pyExpectError(t *testing.T, r pyPaserkResult, want, msg string) {
	t.Helper()
	if r.Error == "" {
		t.Fatalf("%s: %s", msg, pyRedact(r.Paserk))
	}
	if !strings.Contains(r.Error, want) {
		t.Fatalf("%s refused, but not with %s: %s", strings.Replace(msg, "pyseto unwrapped", "pyseto", 1), want, r.Error)
	}
}

// pyRedact shows a PASERK's type and a few characters of its data: local
// and secret keys are test keys, but need not fill logs.
func pyRedact(s string) string {
	i := strings.LastIndexByte(s, '.')
	if i < 0 || len(s)-i <= 8 {
		return s
	}
	return s[:i+1] + s[i+1:i+7] + "…"
}

// pyHighS reports whether the S of a v3.public token's signature is above n/2.
func pyHighS(t *testing.T, token string) bool {
	t.Helper()
	s := pySignatureS(t, token)
	half := new(big.Int).Rsh(elliptic.P384().Params().N, 1)
	return new(big.Int).SetBytes(s).Cmp(half) > 0
}

// pyNegateS returns a v3.public token with the S of its signature replaced
// by n - S: the other valid signature of the same message.
func pyNegateS(t *testing.T, token string) string {
	t.Helper()
	parts := strings.Split(token, ".")
	body, _ := base64.RawURLEncoding.DecodeString(parts[2])
	s := body[len(body)-48:]
	neg := new(big.Int).Sub(elliptic.P384().Params().N, new(big.Int).SetBytes(s))
	neg.FillBytes(s)
	parts[2] = base64.RawURLEncoding.EncodeToString(body)
	return strings.Join(parts, ".")
}

func pySignatureS(t *testing.T, token string) []byte {
	t.Helper()
	parts := strings.Split(token, ".")
	if len(parts) < 3 || parts[0] != "v3" || parts[1] != "public" {
		t.Fatalf("not a v3.public token: %s", token)
	}
	body, err := base64.RawURLEncoding.DecodeString(parts[2])
	if err != nil || len(body) < 96 {
		t.Fatalf("decode the body of %s: %v", token, err)
	}
	return body[len(body)-48:]
}

// pyFlipBody returns token with one byte in the middle of its decoded body
// (ciphertext or message) changed.
func pyFlipBody(t *testing.T, token string) string {
	t.Helper()
	parts := strings.Split(token, ".")
	if len(parts) < 3 {
		t.Fatalf("not a PASETO token: %s", token)
	}
	body, err := base64.RawURLEncoding.DecodeString(parts[2])
	if err != nil || len(body) == 0 {
		t.Fatalf("decode the body of %s: %v", token, err)
	}
	body[len(body)/2] ^= 0x01
	parts[2] = base64.RawURLEncoding.EncodeToString(body)
	return strings.Join(parts, ".")
}

// pyReplaceFooter returns token with footer in place of its own.
func pyReplaceFooter(t *testing.T, token, footer string) string {
	t.Helper()
	parts := strings.Split(token, ".")
	if len(parts) != 4 {
		t.Fatalf("not a PASETO token with a footer: %s", token)
	}
	parts[3] = base64.RawURLEncoding.EncodeToString([]byte(footer))
	return strings.Join(parts, ".")
}

// requirePyseto returns the repository root (relative to the package
// directory, the test's working directory) and the virtualenv's python, or
// skips the test, or fails it when SIGNET_INTEROP=1.
func requirePyseto(t *testing.T) (root, python string) {
	t.Helper()
	root = repoRoot(t)
	// Absolute, so that it does not depend on the command's directory; not
	// through symlinks, which would lose the virtualenv.
	python, err := filepath.Abs(filepath.Join(root, pyVenvPython))
	if err != nil {
		t.Fatalf("abs %s: %v", pyVenvPython, err)
	}
	if _, err := os.Stat(python); err != nil {
		unavailable(t, "pyseto", "the pyseto virtualenv is missing (%s: %v)", pyVenvPython, err)
	}
	pinned := pysetoPinned(t, root)
	found, _ := filepath.Glob(filepath.Join(root, pyDir, ".venv", "lib", "python3*", "site-packages", "pyseto-"+pinned+".dist-info"))
	if len(found) == 0 {
		unavailable(t, "pyseto", "%s/.venv has no pyseto %s, which requirements.txt pins", pyDir, pinned)
	}
	return root, python
}

// pysetoPinned is the pyseto version requirements.txt pins.
func pysetoPinned(t *testing.T, root string) string {
	t.Helper()
	f, err := os.Open(filepath.Join(root, pyRequirements))
	if err != nil {
		t.Fatalf("read the pinned pyseto version: %v", err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if v, ok := strings.CutPrefix(sc.Text(), "pyseto=="); ok {
			return strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(v), `\`))
		}
	}
	t.Fatalf("%s pins no pyseto (err %v)", pyRequirements, sc.Err())
	return ""
}

// runPyseto runs the whole batch in one Python process, isolated (-I) from
// PYTHON* variables and the user's site-packages.
func runPyseto(t *testing.T, root, python string, req *pyRequest) *pyResponse {
	t.Helper()
	in, err := json.Marshal(req)
	if err != nil {
		t.Fatalf("encode the peer request: %v", err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), pyTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, python, "-I", pyScript)
	cmd.Dir = root
	cmd.Stdin = bytes.NewReader(in)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("%s %s: %v\nstderr:\n%s", pyVenvPython, pyScript, err, stderr.Bytes())
	}
	var resp pyResponse
	dec := json.NewDecoder(&stdout)
	dec.DisallowUnknownFields()
	if err := dec.Decode(&resp); err != nil {
		t.Fatalf("decode the peer response: %v\nstdout:\n%.2000s\nstderr:\n%s", err, stdout.Bytes(), stderr.Bytes())
	}
	if stderr.Len() > 0 {
		t.Logf("pyseto peer stderr:\n%s", stderr.Bytes())
	}
	return &resp
}
