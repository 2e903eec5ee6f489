package lab

import (
	"bufio"
	"bytes"
	"crypto/tls"
	"crypto/x509"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"encoding/pem"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/signet-go/signet"
	"github.com/signet-go/signet/attacks"
	"github.com/signet-go/signet/jwk"
)

// The security matrix: signet's attack corpus (../attacks, see its
// README) and the published vectors, run against every library: the peers
// through the same adapters as the benchmarks, signet's attack verdicts
// through attacks.Case.Verify (its default policies, as the corpus
// claims).
//
// The adapters' Verify and Open check expiry against the wall clock, which
// suits the benchmarks but not fixed data: the RFC vectors expired years
// ago, and the corpus's HTTP signatures were made at a fixed time. So an
// adapter may implement the optional interfaces below; the runners use them
// when present and otherwise fall back as each one documents, reporting
// "n/a" where no honest verdict can be had.

// JWTVerifierAt is implemented by a JWT adapter that can verify as of a
// given time. VerifyAt is Verify with now as the clock.
type JWTVerifierAt interface {
	VerifyAt(token string, p *Payload, now time.Time) error
}

// JWTVerifierFor is implemented by a JWT adapter whose library checks
// the audience: VerifyFor is VerifyAt with the library's own audience
// check configured for audience (RFC 7519 §4.1.3), and none when audience
// is "", leaving the library's default for a token that carries aud.
type JWTVerifierFor interface {
	VerifyFor(token string, p *Payload, now time.Time, audience string) error
}

// JWSVerifierBytes is implemented by a JWT adapter that can check a JWS
// whose payload need not be a JWT (the RFC 7520 and 8037 examples sign
// text): the signature and the algorithm, the bound key's as in Verify,
// and nothing else. It returns the payload.
type JWSVerifierBytes interface {
	VerifyBytes(token string) ([]byte, error)
}

// PASETOOpenerFor is implemented by a PASETO adapter that can open a
// token as of a given time, with an implicit assertion and for an
// audience: Open with now as the clock, the token bound to implicit (nil
// for none), and the library's own audience check configured for
// audience, none when audience is "" (the library's default for a token
// that carries aud).
type PASETOOpenerFor interface {
	OpenFor(token string, implicit []byte, p *Payload, now time.Time, audience string) error
}

// PASETOOpenerBytes is implemented by a PASETO adapter that can open a
// token without reading its claims (the official vectors expired in 2022
// and carry non-standard claims): it authenticates, and decrypts a local
// token, with the implicit assertion given, and returns the payload and
// the footer.
type PASETOOpenerBytes interface {
	OpenBytes(token string, implicit []byte) (payload, footer []byte, err error)
}

// HTTPSigVerifierAt is implemented by an RFC 9421 adapter that can verify
// as of a given time. VerifyAt checks r's signature with the bound key,
// taking now as the clock: created no older than five minutes (a minute of
// skew), expires not passed; it requires no component beyond the
// library's own defaults (signet's: @method, @authority and @path), and a
// body no covered Content-Digest vouches for is accepted, though a covered
// Content-Digest must match the body. Nonces, when the library tracks
// them, are remembered by the adapter value across calls.
type HTTPSigVerifierAt interface {
	VerifyAt(r *http.Request, now time.Time) error
}

// Outcome is a library's verdict on one case or vector.
type Outcome string

const (
	Accepted      Outcome = "accepted"
	Rejected      Outcome = "rejected"
	NotApplicable Outcome = "n/a"
	// TimedOut: the library was still working on the case when its time
	// bound (JWECaseTimeout) ran out: for an attack, a denial of service.
	TimedOut Outcome = "timeout"
)

// Verdict is one library's outcome on one case.
type Verdict struct {
	Lib     string
	Outcome Outcome
	// Detail is the error text (rejected) or why there is no verdict
	// (n/a). A library that panicked is counted as rejecting, with the
	// panic here ("panic: …").
	Detail string
	// Path is what gave the verdict: an adapter method ("VerifyAt",
	// "VerifyFor", "VerifyAt", "Verify", "OpenFor", "VerifyBytes",
	// "OpenBytes") or, for
	// signet's attack verdicts, "attacks.Case.Verify".
	Path string
}

// Wrong reports whether v contradicts the expected verdict.
func (v Verdict) Wrong(expect string) bool {
	return v.Outcome == TimedOut || v.Outcome == Accepted && expect == attacks.Reject || v.Outcome == Rejected && expect == attacks.Accept
}

// AttackResult is one corpus case run against every library of its
// format, in the order of the run's Peers (signet first).
type AttackResult struct {
	ID, Format, Title, Alg string
	Expect                 string // "reject" or "accept"
	SignetError            string // the sentinel signet refuses it with
	References             []string
	Verdicts               []Verdict
}

// RunAttacks loads the corpus in dir and runs every case against every
// library of peers (signet first). signet's verdict is attacks.Case.Verify's: its packages under
// their default policies, given the case's clock, audience and implicit
// assertion, which is what the corpus claims signet refuses (its
// benchmark adapters take 1 MiB tokens and, for RFC 9421, the reference
// request's profile). Every peer goes through its adapter: New with the
// case's key, then Verify or Open.
//
// JWT: VerifyFor (JWTVerifierFor) with the case's clock and the audience
// its verifier names (none for a case without one), checked by the
// library's own audience option; PASETO: OpenFor (PASETOOpenerFor) so, with
// the case's implicit assertion. A token adapter without that method is
// n/a: every token case's verifier names an audience, or none, and its
// verdict may rest on it (an adapter that checks no aud would accept a
// token issued for another service). HTTPSig:
// VerifyAt (HTTPSigVerifierAt) only, since the signatures were made at a
// fixed time; n/a without it. A library whose Algs or Purposes lack the
// case's algorithm, or whose New fails, is n/a. So is a library's refusal
// of an attack when it refused every valid control of the attack's
// algorithm (discountRefusals): that refusal is for a reason of its own.
func RunAttacks(dir string, peers Peers) ([]AttackResult, error) {
	cases, err := attacks.Load(dir)
	if err != nil {
		return nil, err
	}
	out := make([]AttackResult, 0, len(cases))
	rows := make([]string, 0, len(cases)) // each case's format and algorithm
	for _, c := range cases {
		var spec KeySpec
		if c.Format == attacks.JWE {
			spec, err = attackJWEKeySpec(c)
		} else {
			spec, err = attackKeySpec(c)
		}
		if err != nil {
			return nil, err
		}
		r := AttackResult{ID: c.ID, Format: c.Format, Title: c.Title, Alg: c.Alg, Expect: c.Expect, SignetError: c.SignetError, References: c.References}
		switch c.Format {
		case attacks.JWT:
			for _, lib := range peers.JWT {
				r.Verdicts = append(r.Verdicts, attackJWT(lib, spec, c))
			}
		case attacks.PASETO:
			for _, lib := range peers.PASETO {
				r.Verdicts = append(r.Verdicts, attackPASETO(lib, spec, c))
			}
		case attacks.HTTPSig:
			for _, lib := range peers.HTTPSig {
				r.Verdicts = append(r.Verdicts, attackHTTPSig(lib, spec, c))
			}
		case attacks.JWE:
			for _, lib := range peers.JWE {
				r.Verdicts = append(r.Verdicts, attackJWE(lib, spec, c))
			}
		}
		out = append(out, r)
		rows = append(rows, c.Format+" "+spec.Alg)
	}
	discountRefusals(out, rows)
	return out, nil
}

// discountRefusals turns into n/a every refusal of an attack by a
// library that refused all the valid controls of the attack's algorithm
// (of its format, when the corpus has no control of that algorithm) and
// accepted none: such a library refuses the corpus's messages for a
// reason of its own (common-fate v0.2.1 selects a signature by a tag the
// corpus's do not carry), so its refusal says nothing of the attack, and
// counting it would credit the library with refusing them all. Its
// refused controls stay what they are, wrong verdicts, and so do its
// panics (a refusal with the panic as detail). rows[i] is
// out[i]'s format and algorithm (alg+enc for JWE).
func discountRefusals(out []AttackResult, rows []string) {
	type lib struct{ row, name string }
	accepted, refused := map[lib]bool{}, map[lib]string{}
	hasControl := map[string]bool{}
	for i, r := range out {
		if r.Expect != attacks.Accept {
			continue
		}
		for _, scope := range []string{rows[i], r.Format} {
			hasControl[scope] = true
			for _, v := range r.Verdicts {
				switch k := (lib{scope, v.Lib}); v.Outcome {
				case Accepted:
					accepted[k] = true
				case Rejected, TimedOut:
					if refused[k] == "" {
						refused[k] = fmt.Sprintf("%s (%s: %s)", r.ID, v.Outcome, v.Detail)
					}
				}
			}
		}
	}
	for i, r := range out {
		if r.Expect != attacks.Reject {
			continue
		}
		scope := rows[i]
		if !hasControl[scope] {
			scope = r.Format
		}
		for j, v := range r.Verdicts {
			k := lib{scope, v.Lib}
			// A panic is the library's own answer to the message, shown
			// as such, whatever it does with the controls.
			if v.Outcome == Rejected && !accepted[k] && refused[k] != "" && !strings.HasPrefix(v.Detail, "panic:") {
				out[i].Verdicts[j].Outcome = NotApplicable
				out[i].Verdicts[j].Detail = "refused the valid control " + refused[k] + " and accepted none of " + scope + ", so its refusal says nothing of the attack: " + v.Detail
			}
		}
	}
}

func attackKeySpec(c attacks.Case) (KeySpec, error) {
	secret, public, private, err := c.Material()
	if err != nil {
		return KeySpec{}, err
	}
	return KeySpec{Alg: c.Alg, Secret: secret, Public: public, Private: private, KeyID: c.KeyID()}, nil
}

func notApplicable(lib, why string) Verdict {
	return Verdict{Lib: lib, Outcome: NotApplicable, Detail: why}
}

// judge runs f, turning a panic into a rejection that says so.
func judge(lib, path string, f func() error) (v Verdict) {
	v = Verdict{Lib: lib, Path: path}
	defer func() {
		if p := recover(); p != nil {
			v.Outcome, v.Detail = Rejected, fmt.Sprintf("panic: %v", p)
		}
	}()
	if err := f(); err != nil {
		v.Outcome, v.Detail = Rejected, err.Error()
	} else {
		v.Outcome = Accepted
	}
	return v
}

// signetName is signet's name among the libraries of every format.
const signetName = "signet"

// attackSignet is signet's verdict on c: attacks.Case.Verify, the
// corpus's own check under signet's default policies.
// attackPeer binds the library name, which implements rows, to spec for
// case c of row; done says v is the verdict already: signet's (it judges
// c itself, attackSignet), or not applicable (no row, or New failed).
func attackPeer[X any](name string, rows []string, row string, newX func(KeySpec) (X, error), spec KeySpec, c attacks.Case) (x X, v Verdict, done bool) {
	switch {
	case name == signetName:
		return x, attackSignet(c), true
	case !slices.Contains(rows, row):
		return x, notApplicable(name, "no "+row), true
	}
	x, err := newX(spec)
	if err != nil {
		return x, notApplicable(name, "New: "+err.Error()), true
	}
	return x, Verdict{}, false
}

func attackSignet(c attacks.Case) Verdict {
	var err error
	v := judge(signetName, "attacks.Case.Verify", func() error { err = c.Verify(); return err })
	if errors.Is(err, attacks.ErrFirstRefused) {
		v.Outcome, v.Detail = NotApplicable, firstRefused+v.Detail
	}
	return v
}

// firstRefused begins the reason a replay case has no verdict: the
// library refused the message's first, valid, presentation.
const firstRefused = "refused the first, valid, presentation: "

func attackJWT(lib JWTLib, spec KeySpec, c attacks.Case) Verdict {
	j, v, done := attackPeer(lib.Name(), lib.Algs(), c.Alg, lib.New, spec, c)
	if done {
		return v
	}
	if vf, ok := j.(JWTVerifierFor); ok {
		return judge(lib.Name(), "VerifyFor", func() error { return vf.VerifyFor(c.Token, new(Payload), c.Time(), c.Audience) })
	}
	return notApplicable(lib.Name(), "needs VerifyFor: the case's verifier names "+audienceText(c.Audience))
}

func attackPASETO(lib PASETOLib, spec KeySpec, c attacks.Case) Verdict {
	pt, v, done := attackPeer(lib.Name(), lib.Purposes(), c.Alg, lib.New, spec, c)
	if done {
		return v
	}
	var implicit []byte
	if c.Implicit != "" {
		implicit = []byte(c.Implicit)
	}
	if of, ok := pt.(PASETOOpenerFor); ok {
		return judge(lib.Name(), "OpenFor", func() error { return of.OpenFor(c.Token, implicit, new(Payload), c.Time(), c.Audience) })
	}
	return notApplicable(lib.Name(), "needs OpenFor: the case's verifier names "+audienceText(c.Audience))
}

// audienceText names a verifier's audience for an n/a verdict.
func audienceText(audience string) string {
	if audience == "" {
		return "no audience"
	}
	return "the audience " + audience
}

func attackHTTPSig(lib HTTPSigLib, spec KeySpec, c attacks.Case) Verdict {
	h, v, done := attackPeer(lib.Name(), lib.Algs(), c.Alg, lib.New, spec, c)
	if done {
		return v
	}
	at, ok := h.(HTTPSigVerifierAt)
	if !ok {
		return notApplicable(lib.Name(), "needs VerifyAt: the corpus's signatures were made at a fixed time")
	}
	// The message is read outside judge: a case that does not parse is
	// the harness's error, not the library's refusal.
	if _, err := c.Request(); err != nil {
		return notApplicable(lib.Name(), err.Error())
	}
	verify := func() error {
		r, err := c.Request()
		if err != nil {
			return err
		}
		return at.VerifyAt(r, c.Time())
	}
	if c.Replay {
		// A library that refuses the first, valid, presentation is never
		// shown the replay: no verdict, rather than credit for refusing it.
		if v := judge(lib.Name(), "VerifyAt", verify); v.Outcome != Accepted {
			v.Outcome, v.Detail = NotApplicable, firstRefused+v.Detail
			return v
		}
	}
	return judge(lib.Name(), "VerifyAt", verify)
}

// responseNA is why an RFC 9421 response signature has no verdict.
const responseNA = "a response signature: the adapters verify requests"

// VectorResult is one library's outcome on one published vector.
type VectorResult struct {
	ID      string // the vector's name; derived must-fail cases end in "#tampered"
	Valid   bool   // the vector must verify
	Outcome Outcome
	OK      bool // Outcome is the expected one (and a valid vector's payload came back intact)
	Detail  string
	Path    string
}

// ConformanceResult is one library's run of one suite of published
// vectors.
type ConformanceResult struct {
	Format string // JWT, PASETO, HTTPSig
	Suite  string
	Lib    string
	// Valid vectors and how many it accepted; must-fail vectors and how
	// many it rejected; vectors with no verdict (n/a).
	Valid, ValidAccepted, Invalid, InvalidRejected, Skipped int
	Vectors                                                 []VectorResult
}

func (r *ConformanceResult) add(v VectorResult) {
	if v.Outcome == NotApplicable {
		r.Skipped++
	} else if v.Valid {
		r.Valid++
		if v.OK {
			r.ValidAccepted++
		}
	} else {
		r.Invalid++
		if v.OK {
			r.InvalidRejected++
		}
	}
	r.Vectors = append(r.Vectors, v)
}

// discountRefusals turns into n/a the must-fail vectors r's library
// rejected when it accepted none of the suite's valid vectors: it refuses
// the suite's messages for a reason of its own (common-fate every RFC 9421
// example), and counting those refusals would credit it with rejecting
// what it must. A panic stays a rejection, shown as such.
func (r *ConformanceResult) discountRefusals() {
	if r.Valid == 0 || r.ValidAccepted > 0 {
		return
	}
	vs := r.Vectors
	*r = ConformanceResult{Format: r.Format, Suite: r.Suite, Lib: r.Lib}
	for _, v := range vs {
		if !v.Valid && v.Outcome == Rejected && !strings.HasPrefix(v.Detail, "panic:") {
			v.Outcome, v.OK = NotApplicable, false
			v.Detail = "accepted none of the suite's valid vectors, so its refusal says nothing of this one: " + v.Detail
		}
		r.add(v)
	}
}

// RunConformance runs the published vectors under vectorsDir (signet's
// testdata: jose/, paseto/, rfc9421/) against every library of peers, as far as the
// adapter interfaces can express them:
//
//   - JWS (RFC 7515, 7520, 8037): each vector must verify through
//     VerifyBytes (JWSVerifierBytes) and give back its payload; a JWT vector
//     with exp goes through VerifyAt a second before exp when the adapter
//     has no VerifyBytes. Each vector with one signature bit flipped
//     ("#tampered") must fail. Without either method: n/a.
//   - PASETO (v4.json, v3.json, expect-fail included): through OpenBytes
//     (PASETOOpenerBytes) only, with the vector's implicit assertion; a
//     valid vector must give back its payload and footer. A vector with a
//     symmetric key is opened by the version's local purpose, one with a
//     key pair by its public purpose, whatever the token says (4-F-1…3 are
//     exactly that confusion).
//   - RFC 9421 (vectors.json): the request signatures through VerifyAt
//     (HTTPSigVerifierAt) at the vector's created time, over TLS, with the
//     other signatures of the message removed; the response signatures
//     (B.2.4, §2.4) are n/a, the adapters verifying requests only.
//
// A library that accepts none of a suite's valid vectors has no verdict
// (n/a) on its must-fail vectors either (discountRefusals).
func RunConformance(vectorsDir string, peers Peers) ([]ConformanceResult, error) {
	var out []ConformanceResult
	j, err := conformJOSE(filepath.Join(vectorsDir, "jose"), peers.JWT)
	if err != nil {
		return nil, err
	}
	p, err := conformPASETO(filepath.Join(vectorsDir, "paseto"), peers.PASETO)
	if err != nil {
		return nil, err
	}
	h, err := conformHTTPSig(filepath.Join(vectorsDir, "rfc9421"), peers.HTTPSig)
	if err != nil {
		return nil, err
	}
	return append(append(append(out, j...), p...), h...), nil
}

// jwsVector is a file of testdata/jose.
type jwsVector struct {
	name       string
	Alg        string          `json:"alg"`
	Key        json.RawMessage `json:"key"`
	PublicKey  json.RawMessage `json:"public_key"`
	Token      string          `json:"token"`
	PayloadB64 string          `json:"payload_b64"`
	Exp        int64           `json:"exp"`
}

func conformJOSE(dir string, libs []JWTLib) ([]ConformanceResult, error) {
	files, err := filepath.Glob(filepath.Join(dir, "rfc*.json"))
	if err != nil {
		return nil, err
	}
	var vectors []jwsVector
	for _, f := range files {
		if strings.Contains(f, "thumbprint") {
			continue
		}
		data, err := os.ReadFile(f)
		if err != nil {
			return nil, err
		}
		v := jwsVector{name: filepath.Base(f)}
		if err := json.Unmarshal(data, &v); err != nil {
			return nil, fmt.Errorf("%s: %w", f, err)
		}
		vectors = append(vectors, v)
	}
	if len(vectors) == 0 {
		return nil, fmt.Errorf("no JWS vectors in %s", dir)
	}
	var out []ConformanceResult
	for _, lib := range libs {
		r := ConformanceResult{Format: attacks.JWT, Suite: "JWS: RFC 7515, RFC 7520, RFC 8037", Lib: lib.Name()}
		for _, v := range vectors {
			spec, err := jwsKeySpec(v)
			if err != nil {
				return nil, fmt.Errorf("%s: %w", v.name, err)
			}
			want, err := base64.RawURLEncoding.DecodeString(v.PayloadB64)
			if err != nil {
				return nil, fmt.Errorf("%s: %w", v.name, err)
			}
			r.add(conformJWS(lib, spec, v.name, v.Token, want, v.Exp, true))
			r.add(conformJWS(lib, spec, v.name+"#tampered", flipSignatureBit(v.Token), want, v.Exp, false))
		}
		r.discountRefusals()
		out = append(out, r)
	}
	return out, nil
}

func jwsKeySpec(v jwsVector) (KeySpec, error) {
	data := v.Key
	if len(v.PublicKey) > 0 {
		data = v.PublicKey
	}
	k, err := jwk.ParseKeyFor(data, signet.Algorithm(v.Alg))
	if err != nil {
		return KeySpec{}, err
	}
	spec := KeySpec{Alg: v.Alg, KeyID: k.KeyID()}
	if k.Symmetric() {
		spec.Secret = k.Secret()
	} else {
		spec.Public = k.PublicMaterial()
	}
	return spec, nil
}

// flipSignatureBit flips one bit in the middle of a compact JWS's
// signature.
func flipSignatureBit(token string) string {
	i := strings.LastIndexByte(token, '.')
	sig, err := base64.RawURLEncoding.DecodeString(token[i+1:])
	if err != nil || len(sig) == 0 {
		return token + "A"
	}
	sig[len(sig)/2] ^= 0x01
	return token[:i+1] + base64.RawURLEncoding.EncodeToString(sig)
}

func conformJWS(lib JWTLib, spec KeySpec, id, token string, payload []byte, exp int64, valid bool) VectorResult {
	r := VectorResult{ID: id, Valid: valid}
	if !slices.Contains(lib.Algs(), spec.Alg) {
		r.Outcome, r.Detail = NotApplicable, "no "+spec.Alg
		return r
	}
	j, err := lib.New(spec)
	if err != nil {
		r.Outcome, r.Detail = NotApplicable, "New: "+err.Error()
		return r
	}
	var got []byte
	var v Verdict
	if vb, ok := j.(JWSVerifierBytes); ok {
		v = judge(lib.Name(), "VerifyBytes", func() error {
			var err error
			got, err = vb.VerifyBytes(token)
			return err
		})
	} else if at, ok := j.(JWTVerifierAt); ok && exp != 0 {
		got = payload // a JWT is read into a Payload: the bytes are not returned
		v = judge(lib.Name(), "VerifyAt", func() error { return at.VerifyAt(token, new(Payload), time.Unix(exp-1, 0)) })
	} else {
		r.Outcome, r.Detail = NotApplicable, "needs VerifyBytes (or VerifyAt for a JWT with exp)"
		return r
	}
	r.Outcome, r.Detail, r.Path = v.Outcome, v.Detail, v.Path
	switch {
	case !valid:
		r.OK = v.Outcome == Rejected
	case v.Outcome == Accepted && !bytes.Equal(got, payload):
		r.Detail = "accepted, but returned another payload"
	default:
		r.OK = v.Outcome == Accepted
	}
	return r
}

// pasetoVector is one test of testdata/paseto/v*.json.
type pasetoVector struct {
	Name         string  `json:"name"`
	ExpectFail   bool    `json:"expect-fail"`
	Key          string  `json:"key"`
	PublicKeyPEM string  `json:"public-key-pem"`
	Token        string  `json:"token"`
	Payload      *string `json:"payload"`
	Footer       string  `json:"footer"`
	Implicit     string  `json:"implicit-assertion"`
}

func conformPASETO(dir string, libs []PASETOLib) ([]ConformanceResult, error) {
	type suite struct {
		version string
		tests   []pasetoVector
	}
	var suites []suite
	for _, version := range []string{"v4", "v3"} {
		data, err := os.ReadFile(filepath.Join(dir, version+".json"))
		if err != nil {
			return nil, err
		}
		var f struct {
			Tests []pasetoVector `json:"tests"`
		}
		if err := json.Unmarshal(data, &f); err != nil {
			return nil, fmt.Errorf("%s.json: %w", version, err)
		}
		suites = append(suites, suite{version, f.Tests})
	}
	var out []ConformanceResult
	for _, lib := range libs {
		r := ConformanceResult{Format: attacks.PASETO, Suite: "PASETO test vectors v4, v3", Lib: lib.Name()}
		for _, s := range suites {
			for _, v := range s.tests {
				spec, err := pasetoKeySpec(s.version, v)
				if err != nil {
					return nil, fmt.Errorf("%s: %w", v.Name, err)
				}
				r.add(conformPASETOVector(lib, spec, v))
			}
		}
		r.discountRefusals()
		out = append(out, r)
	}
	return out, nil
}

func pasetoKeySpec(version string, v pasetoVector) (KeySpec, error) {
	if v.Key != "" {
		secret, err := hex.DecodeString(v.Key)
		return KeySpec{Alg: version + ".local", Secret: secret}, err
	}
	block, _ := pem.Decode([]byte(v.PublicKeyPEM))
	if block == nil {
		return KeySpec{}, errors.New("no key")
	}
	pub, err := x509.ParsePKIXPublicKey(block.Bytes)
	return KeySpec{Alg: version + ".public", Public: pub}, err
}

func conformPASETOVector(lib PASETOLib, spec KeySpec, v pasetoVector) VectorResult {
	r := VectorResult{ID: v.Name, Valid: !v.ExpectFail}
	if !slices.Contains(lib.Purposes(), spec.Alg) {
		r.Outcome, r.Detail = NotApplicable, "no "+spec.Alg
		return r
	}
	pt, err := lib.New(spec)
	if err != nil {
		r.Outcome, r.Detail = NotApplicable, "New: "+err.Error()
		return r
	}
	ob, ok := pt.(PASETOOpenerBytes)
	if !ok {
		r.Outcome, r.Detail = NotApplicable, "needs OpenBytes (the vectors expired in 2022)"
		return r
	}
	var implicit []byte
	if v.Implicit != "" {
		implicit = []byte(v.Implicit)
	}
	var payload, footer []byte
	verdict := judge(lib.Name(), "OpenBytes", func() error {
		var err error
		payload, footer, err = ob.OpenBytes(v.Token, implicit)
		return err
	})
	r.Outcome, r.Detail, r.Path = verdict.Outcome, verdict.Detail, verdict.Path
	switch {
	case !r.Valid:
		r.OK = r.Outcome == Rejected
	case r.Outcome == Accepted && (v.Payload == nil || string(payload) != *v.Payload || string(footer) != v.Footer):
		r.Detail = "accepted, but returned another payload or footer"
	default:
		r.OK = r.Outcome == Accepted
	}
	return r
}

// httpsigVector is one entry of testdata/rfc9421/vectors.json.
type httpsigVector struct {
	ID             string         `json:"id"`
	MessageFile    string         `json:"message_file"`
	RelatedRequest *string        `json:"related_request_file"`
	Label          string         `json:"label"`
	Params         map[string]any `json:"params"`
	Alg            string         `json:"alg"`
	KeyID          string         `json:"keyid"`
	KeyFiles       []string       `json:"key_files"`
	Valid          bool           `json:"expected_valid"`
}

func conformHTTPSig(dir string, libs []HTTPSigLib) ([]ConformanceResult, error) {
	data, err := os.ReadFile(filepath.Join(dir, "vectors.json"))
	if err != nil {
		return nil, err
	}
	var f struct {
		Vectors []httpsigVector `json:"vectors"`
	}
	if err := json.Unmarshal(data, &f); err != nil {
		return nil, fmt.Errorf("vectors.json: %w", err)
	}
	var out []ConformanceResult
	for _, lib := range libs {
		r := ConformanceResult{Format: attacks.HTTPSig, Suite: "RFC 9421 Appendix B, §2.4, §3.2, §4.3", Lib: lib.Name()}
		for _, v := range f.Vectors {
			res, err := conformHTTPSigVector(dir, lib, v)
			if err != nil {
				return nil, fmt.Errorf("%s: %w", v.ID, err)
			}
			r.add(res)
		}
		r.discountRefusals()
		out = append(out, r)
	}
	return out, nil
}

func conformHTTPSigVector(dir string, lib HTTPSigLib, v httpsigVector) (VectorResult, error) {
	r := VectorResult{ID: v.ID, Valid: v.Valid}
	msg, err := os.ReadFile(filepath.Join(dir, v.MessageFile))
	if err != nil {
		return r, err
	}
	if bytes.HasPrefix(msg, []byte("HTTP/")) || v.RelatedRequest != nil {
		r.Outcome, r.Detail = NotApplicable, responseNA
		return r, nil
	}
	if !bytes.Contains(msg, []byte("\n\n")) {
		msg = append(msg, "\n\n"...) // the B.4 GETs have no body separator
	}
	created, ok := v.Params["created"].(float64)
	if !ok {
		return r, errors.New("no created parameter")
	}
	spec, err := httpsigKeySpec(dir, v)
	if err != nil {
		return r, err
	}
	if !slices.Contains(lib.Algs(), v.Alg) {
		r.Outcome, r.Detail = NotApplicable, "no "+v.Alg
		return r, nil
	}
	h, err := lib.New(spec)
	if err != nil {
		r.Outcome, r.Detail = NotApplicable, "New: "+err.Error()
		return r, nil
	}
	at, ok := h.(HTTPSigVerifierAt)
	if !ok {
		r.Outcome, r.Detail = NotApplicable, "needs VerifyAt (the vectors were signed in 2021)"
		return r, nil
	}
	req, err := http.ReadRequest(bufio.NewReader(bytes.NewReader(msg)))
	if err != nil {
		return r, err
	}
	req.TLS = &tls.ConnectionState{} // the RFC's examples are https
	for _, field := range []string{"Signature-Input", "Signature"} {
		member, err := dictMember(req.Header.Values(field), v.Label)
		if err != nil {
			return r, fmt.Errorf("%s: %w", field, err)
		}
		req.Header.Set(field, member)
	}
	verdict := judge(lib.Name(), "VerifyAt", func() error { return at.VerifyAt(req, time.Unix(int64(created), 0)) })
	r.Outcome, r.Detail, r.Path = verdict.Outcome, verdict.Detail, verdict.Path
	r.OK = (r.Outcome == Accepted) == r.Valid
	return r, nil
}

func httpsigKeySpec(dir string, v httpsigVector) (KeySpec, error) {
	spec := KeySpec{Alg: v.Alg, KeyID: v.KeyID}
	for _, f := range v.KeyFiles {
		data, err := os.ReadFile(filepath.Join(dir, f))
		if err != nil {
			return spec, err
		}
		switch {
		case strings.HasSuffix(f, "test-shared-secret"):
			spec.Secret, err = base64.StdEncoding.DecodeString(strings.TrimSpace(string(data)))
			return spec, err
		case strings.HasSuffix(f, ".pub.pem"):
			k, err := signet.ParsePEM(data, signet.Algorithm(v.Alg))
			if err != nil {
				return spec, fmt.Errorf("%s: %w", f, err)
			}
			spec.Public = k.PublicMaterial()
			return spec, nil
		}
	}
	return spec, errors.New("no public key file")
}

// dictMember returns the member label of a Structured Field Dictionary
// given as field lines, serialized as "label=…", so that a message
// carrying several signatures can be presented with one.
func dictMember(lines []string, label string) (string, error) {
	for _, line := range lines {
		for _, m := range splitDict(line) {
			m = strings.TrimSpace(m)
			if name, _, ok := strings.Cut(m, "="); ok && name == label {
				return m, nil
			}
		}
	}
	return "", fmt.Errorf("no member %q", label)
}

// splitDict splits a Dictionary at its top-level commas (not those in
// strings or inner lists).
func splitDict(s string) []string {
	var out []string
	depth, quoted, start := 0, false, 0
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case quoted && c == '\\':
			i++
		case c == '"':
			quoted = !quoted
		case quoted:
		case c == '(':
			depth++
		case c == ')':
			depth--
		case c == ',' && depth == 0:
			out = append(out, s[start:i])
			start = i + 1
		}
	}
	return append(out, s[start:])
}

// WriteSecurityReport writes the security matrix as Markdown: per format,
// each case against each library; then, library by library, the attacks
// it accepted, the valid controls it refused, the cases it timed out on
// and those it panicked on (a panic counts as a refusal in the matrix),
// and how many cases it gave no verdict on; then the conformance counts.
func WriteSecurityReport(w io.Writer, rs []AttackResult, cs []ConformanceResult) error {
	var b strings.Builder
	b.WriteString("## Security matrix\n\n")
	b.WriteString("Every case of the attack corpus (`attacks/`) against every library: signet with its default policies (`attacks.Case.Verify`), each peer through its adapter. " +
		"**ACCEPTED** marks an attack a library let through; **REFUSED** a valid control it turned down.\n")
	type libFormat struct{ lib, format string }
	// What went wrong, by kind, in the summary's order.
	kinds := []string{"accepts %d attack%s", "refuses %d valid control%s", "times out on %d%s", "panics on %d%s"}
	bad := map[libFormat][][]string{}
	noVerdict, cases := map[libFormat]int{}, map[libFormat]int{}
	var libs []libFormat
	for _, format := range []string{attacks.JWT, attacks.PASETO, attacks.JWE, attacks.HTTPSig} {
		var rows []AttackResult
		for _, r := range rs {
			if r.Format == format {
				rows = append(rows, r)
			}
		}
		if len(rows) == 0 {
			continue
		}
		fmt.Fprintf(&b, "\n### %s (%d cases)\n\n| case | expect | signet error |", format, len(rows))
		for _, v := range rows[0].Verdicts {
			fmt.Fprintf(&b, " %s |", v.Lib)
			k := libFormat{v.Lib, format}
			libs = append(libs, k)
			bad[k] = make([][]string, len(kinds))
		}
		b.WriteString("\n|---|---|---|" + strings.Repeat("---|", len(rows[0].Verdicts)) + "\n")
		for _, r := range rows {
			fmt.Fprintf(&b, "| `%s` | %s | %s |", r.ID, r.Expect, strings.TrimPrefix(r.SignetError, "signet."))
			item := fmt.Sprintf("`%s` (%s)", r.ID, strings.Join(r.References, ", "))
			for _, v := range r.Verdicts {
				k := libFormat{v.Lib, format}
				cases[k]++
				if v.Outcome == NotApplicable {
					noVerdict[k]++
				}
				cell := string(v.Outcome)
				if v.Wrong(r.Expect) {
					kind := 0
					switch v.Outcome {
					case Accepted:
						cell = "**ACCEPTED**"
					case Rejected:
						cell, kind = "**REFUSED**", 1
					case TimedOut:
						cell, kind = "**TIMEOUT**", 2
					}
					bad[k][kind] = append(bad[k][kind], item)
				}
				if strings.HasPrefix(v.Detail, "panic:") {
					cell += " (panic)"
					bad[k][3] = append(bad[k][3], item)
				}
				fmt.Fprintf(&b, " %s |", cell)
			}
			b.WriteString("\n")
		}
	}
	b.WriteString("\n### What each library accepts that it should not (and refuses that it should accept)\n\n")
	for _, l := range libs {
		var parts []string
		for i, list := range bad[l] {
			if len(list) == 0 {
				continue
			}
			plural := ""
			if len(list) > 1 && i < 2 {
				plural = "s"
			}
			parts = append(parts, fmt.Sprintf(kinds[i], len(list), plural)+": "+strings.Join(list, "; "))
		}
		if n := noVerdict[l]; n > 0 {
			// "nothing" would say a library that ran no case is sound.
			parts = append(parts, fmt.Sprintf("no verdict (n/a) on %d of %d cases", n, cases[l]))
		}
		if len(parts) == 0 {
			fmt.Fprintf(&b, "- **%s** (%s): nothing.\n", l.lib, l.format)
			continue
		}
		fmt.Fprintf(&b, "- **%s** (%s): %s.\n", l.lib, l.format, strings.Join(parts, "; "))
	}
	if len(cs) > 0 {
		b.WriteString("\n### Conformance to the published vectors\n\n| suite | library | valid accepted | must-fail rejected | n/a |\n|---|---|---|---|---|\n")
		for _, c := range cs {
			fmt.Fprintf(&b, "| %s | %s | %d/%d | %d/%d | %d |\n", c.Suite, c.Lib, c.ValidAccepted, c.Valid, c.InvalidRejected, c.Invalid, c.Skipped)
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}
