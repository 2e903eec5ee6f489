package lab

import (
	"encoding/json"
	"errors"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/signet-go/signet/attacks"
)

// refuseAllHTTPSig is an RFC 9421 library that refuses every request for
// a reason of its own (as common-fate v0.2.1 refuses a signature without
// its tag): it accepts, or refuses, nothing because of the attack.
type refuseAllHTTPSig struct{ algs []string }

func (l refuseAllHTTPSig) Name() string   { return "refuse-all" }
func (l refuseAllHTTPSig) Algs() []string { return l.algs }
func (l refuseAllHTTPSig) New(KeySpec) (HTTPSig, error) {
	return refuseAllOps{}, nil
}

type refuseAllOps struct{}

var errNoTag = errors.New("refuse-all: no signature with the tag it selects")

func (refuseAllOps) Sign(*http.Request) error                { return errNoTag }
func (refuseAllOps) Verify(*http.Request) error              { return errNoTag }
func (refuseAllOps) VerifyAt(*http.Request, time.Time) error { return errNoTag }

// TestAttackControlRefused: a library that refuses the valid controls of
// an algorithm gives no verdict on that algorithm's attacks (n/a, with
// the control it refused as the reason), not "rejected": its refusal is
// for a reason of its own, and the matrix would credit it with refusing
// every attack. The controls stay its wrong verdicts (REFUSED); an
// algorithm whose control it accepts keeps its refusals.
func TestAttackControlRefused(t *testing.T) {
	peers := Peers{HTTPSig: []HTTPSigLib{signetHTTPSig{}, refuseAllHTTPSig{algs: []string{"hmac-sha256", "ed25519"}}, acceptAllHTTPSig{}}}
	rs, err := RunAttacks(corpusDir, peers)
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]int{}
	for _, r := range rs {
		if r.Format != attacks.HTTPSig {
			continue
		}
		v := r.Verdicts[1]
		switch {
		case r.Alg != "hmac-sha256" && r.Alg != "ed25519":
			if v.Outcome != NotApplicable || !strings.HasPrefix(v.Detail, "no ") {
				t.Errorf("%s: %s (%s), want n/a for an algorithm it lacks", r.ID, v.Outcome, v.Detail)
			}
		case r.Expect == attacks.Accept:
			seen["control"]++
			if v.Outcome != Rejected || !v.Wrong(r.Expect) {
				t.Errorf("%s: control %s (%s), want rejected", r.ID, v.Outcome, v.Detail)
			}
		default:
			seen["attack"]++
			// (a replay case is n/a already: the first presentation was
			// refused, TestAttackReplayFirstRefused)
			why := strings.Contains(v.Detail, "refused the valid control") || strings.HasPrefix(v.Detail, firstRefused)
			if v.Outcome != NotApplicable || !why || !strings.Contains(v.Detail, errNoTag.Error()) {
				t.Errorf("%s: %s (%s), want n/a: it refuses the controls of %s", r.ID, v.Outcome, v.Detail, r.Alg)
			}
		}
		// The library that accepts everything accepts the controls: its
		// verdicts stand as they are.
		if a := r.Verdicts[2]; a.Outcome != Accepted {
			t.Errorf("%s: accept-all %s (%s)", r.ID, a.Outcome, a.Detail)
		}
	}
	if seen["control"] == 0 || seen["attack"] == 0 {
		t.Fatalf("cases judged: %v", seen)
	}
}

// acceptAllHTTPSig accepts every request.
type acceptAllHTTPSig struct{}

func (acceptAllHTTPSig) Name() string { return "accept-all" }
func (acceptAllHTTPSig) Algs() []string {
	return []string{"hmac-sha256", "ed25519", "ecdsa-p256-sha256"}
}
func (acceptAllHTTPSig) New(KeySpec) (HTTPSig, error) {
	return acceptAllOps{}, nil
}

type acceptAllOps struct{}

func (acceptAllOps) Sign(*http.Request) error                { return nil }
func (acceptAllOps) Verify(*http.Request) error              { return nil }
func (acceptAllOps) VerifyAt(*http.Request, time.Time) error { return nil }

// noNonceHTTPSig is an RFC 9421 library that refuses any signature with
// a nonce parameter and accepts every other request.
type noNonceHTTPSig struct{ acceptAllHTTPSig }

func (noNonceHTTPSig) Name() string { return "no-nonce" }
func (noNonceHTTPSig) New(KeySpec) (HTTPSig, error) {
	return noNonceOps{}, nil
}

type noNonceOps struct{ acceptAllOps }

var errNonce = errors.New("no-nonce: the nonce parameter is not supported")

func (noNonceOps) VerifyAt(r *http.Request, _ time.Time) error {
	if strings.Contains(r.Header.Get("Signature-Input"), "nonce=") {
		return errNonce
	}
	return nil
}

// TestAttackReplayFirstRefused: a library that refuses the first, valid,
// presentation of a replayed message has no verdict on the replay (n/a,
// with its error), rather than "rejected": it was never shown a replay,
// and the matrix would credit it with replay protection.
func TestAttackReplayFirstRefused(t *testing.T) {
	peers := Peers{HTTPSig: []HTTPSigLib{signetHTTPSig{}, noNonceHTTPSig{}}}
	rs, err := RunAttacks(corpusDir, peers)
	if err != nil {
		t.Fatal(err)
	}
	replays := 0
	for _, r := range rs {
		if r.Format != attacks.HTTPSig {
			continue
		}
		v := r.Verdicts[1]
		if r.Expect == attacks.Accept && v.Outcome != Accepted {
			t.Fatalf("%s: control %s (%s)", r.ID, v.Outcome, v.Detail)
		}
		c := caseByID(t, r.ID)
		if !c.Replay {
			continue
		}
		replays++
		if v.Outcome != NotApplicable || !strings.Contains(v.Detail, "refused the first, valid, presentation") || !strings.Contains(v.Detail, errNonce.Error()) {
			t.Errorf("%s: %s (%s), want n/a: the first presentation was refused", r.ID, v.Outcome, v.Detail)
		}
	}
	if replays == 0 {
		t.Fatal("no replay case in the corpus")
	}
}

// caseByID returns the corpus case id.
func caseByID(t *testing.T, id string) attacks.Case {
	t.Helper()
	cs, err := attacks.Load(corpusDir)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range cs {
		if c.ID == id {
			return c
		}
	}
	t.Fatalf("no case %s", id)
	return attacks.Case{}
}

// TestSecuritySummary: the per-library summary under "What each library
// accepts…" says which of a library's wrong verdicts are attacks it
// accepted, which valid controls it refused and which cases it timed out
// on, and lists the cases it panicked on (a panic counts as a refusal in
// the matrix): a refused control is not an attack let through. A
// library that gave no verdict is not said to accept "nothing".
func TestSecuritySummary(t *testing.T) {
	rs := []AttackResult{
		{ID: "x-control", Format: attacks.JWT, Expect: attacks.Accept, References: []string{"R1"}, Verdicts: []Verdict{
			{Lib: "signet", Outcome: Accepted}, {Lib: "lax", Outcome: Accepted}, {Lib: "strict", Outcome: Rejected, Detail: "no"}}},
		{ID: "x-attack", Format: attacks.JWT, Expect: attacks.Reject, SignetError: "signet.ErrMalformed", References: []string{"R2"}, Verdicts: []Verdict{
			{Lib: "signet", Outcome: Rejected}, {Lib: "lax", Outcome: Accepted}, {Lib: "strict", Outcome: Rejected, Detail: "panic: index out of range"}}},
		{ID: "x-slow", Format: attacks.JWT, Expect: attacks.Reject, SignetError: "signet.ErrTooLarge", References: []string{"R3"}, Verdicts: []Verdict{
			{Lib: "signet", Outcome: Rejected}, {Lib: "lax", Outcome: TimedOut}, {Lib: "strict", Outcome: Rejected}}},
		{ID: "x-other-alg", Format: attacks.PASETO, Expect: attacks.Reject, SignetError: "signet.ErrMalformed", References: []string{"R4"}, Verdicts: []Verdict{
			{Lib: "signet", Outcome: Rejected}, {Lib: "v2-only", Outcome: NotApplicable, Detail: "no v4.local"}}},
	}
	var b strings.Builder
	if err := WriteSecurityReport(&b, rs, nil); err != nil {
		t.Fatal(err)
	}
	got := b.String()
	for _, want := range []string{
		"- **signet** (JWT): nothing.\n",
		"- **lax** (JWT): accepts 1 attack: `x-attack` (R2); times out on 1: `x-slow` (R3).\n",
		"- **strict** (JWT): refuses 1 valid control: `x-control` (R1); panics on 1: `x-attack` (R2).\n",
		"- **v2-only** (PASETO): no verdict (n/a) on 1 of 1 cases.\n",
		"| `x-control` | accept |  | accepted | accepted | **REFUSED** |",
		"| `x-attack` | reject | ErrMalformed | rejected | **ACCEPTED** | rejected (panic) |",
		"| `x-slow` | reject | ErrTooLarge | rejected | **TIMEOUT** | rejected |",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("report lacks %q:\n%s", want, got)
		}
	}
}

// panicJWT is a JWT library whose verifier panics on every token, or
// only on those whose header is the one given.
type panicJWT struct{ name, header string }

func (l panicJWT) Name() string   { return l.name }
func (l panicJWT) Algs() []string { return JWSAlgs }
func (l panicJWT) New(KeySpec) (JWT, error) {
	return panicJWTOps(l), nil
}

type panicJWTOps panicJWT

func (panicJWTOps) Sign(*Payload) (string, error) { return "", errors.New("verify only") }
func (o panicJWTOps) Verify(token string, p *Payload) error {
	return o.VerifyFor(token, p, time.Time{}, "")
}
func (o panicJWTOps) VerifyFor(token string, _ *Payload, _ time.Time, _ string) error {
	head, _, _ := strings.Cut(token, ".")
	if o.header == "" || head == o.header {
		panic("index out of range")
	}
	return nil
}

// TestAttackPanic: a library that panics is recorded as refusing, with
// the panic as the detail ("panic: …", which the report shows and lists),
// never as accepting nor as n/a; a library that panics on the controls as
// well keeps its panics on the attacks (discountRefusals leaves them).
// judgeWithin records a library still working after its bound as
// TimedOut.
func TestAttackPanic(t *testing.T) {
	critHeader := "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCIsImNyaXQiOlsieC1wb2xpY3kiXSwieC1wb2xpY3kiOiJtdXN0LWJlLWVuZm9yY2VkIn0" // jwt-crit-unknown's
	peers := Peers{JWT: []JWTLib{signetJWT{}, panicJWT{name: "panics-on-crit", header: critHeader}, panicJWT{name: "panics-always"}}}
	rs, err := RunAttacks(corpusDir, peers)
	if err != nil {
		t.Fatal(err)
	}
	crit := 0
	for _, r := range rs {
		if r.Format != attacks.JWT {
			continue
		}
		if v := r.Verdicts[2]; v.Outcome != Rejected || !strings.HasPrefix(v.Detail, "panic: index out of range") {
			t.Errorf("%s/panics-always: %s (%s)", r.ID, v.Outcome, v.Detail)
		}
		if r.ID != "jwt-crit-unknown" {
			continue
		}
		crit++
		if v := r.Verdicts[1]; v.Outcome != Rejected || !strings.HasPrefix(v.Detail, "panic: ") {
			t.Errorf("%s/panics-on-crit: %s (%s)", r.ID, v.Outcome, v.Detail)
		}
	}
	if crit != 1 {
		t.Fatalf("%d jwt-crit-unknown cases", crit)
	}
	var b strings.Builder
	if err := WriteSecurityReport(&b, rs, nil); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(b.String(), "- **panics-on-crit** (JWT): accepts ") || !strings.Contains(b.String(), "panics on 1: `jwt-crit-unknown`") {
		t.Errorf("the summary does not list the panic:\n%s", b.String())
	}

	block := make(chan struct{})
	defer close(block)
	v := judgeWithin("slow", "DecryptFor", 10*time.Millisecond, func() error { <-block; return nil })
	if v.Outcome != TimedOut || !v.Wrong(attacks.Reject) || !v.Wrong(attacks.Accept) {
		t.Errorf("a library still working: %+v", v)
	}
}

// TestConformanceRefusesAll: a library that accepts none of a suite's
// valid vectors is not credited with rejecting its must-fail vectors
// (they are n/a, with the reason): its refusals are for a reason of its
// own, as common-fate's of every RFC 9421 example.
func TestConformanceRefusesAll(t *testing.T) {
	peers := Peers{HTTPSig: []HTTPSigLib{signetHTTPSig{}, refuseAllHTTPSig{algs: HTTPSigAlgs}}}
	cs, err := RunConformance(vectorsDir, peers)
	if err != nil {
		t.Fatal(err)
	}
	var got *ConformanceResult
	for i := range cs {
		if cs[i].Lib == "refuse-all" {
			got = &cs[i]
		}
	}
	if got == nil {
		t.Fatal("no result for refuse-all")
	}
	if got.Valid == 0 || got.ValidAccepted != 0 {
		t.Fatalf("valid %d/%d", got.ValidAccepted, got.Valid)
	}
	if got.Invalid != 0 || got.InvalidRejected != 0 {
		t.Errorf("must-fail rejected %d/%d, want no verdict", got.InvalidRejected, got.Invalid)
	}
	n := 0
	for _, v := range got.Vectors {
		if !v.Valid && v.Outcome == NotApplicable && strings.Contains(v.Detail, "accepted none of the suite's valid vectors") {
			n++
		}
		if !v.Valid && v.OK {
			t.Errorf("%s: counted as rejected as it should be: %s", v.ID, v.Detail)
		}
	}
	if n == 0 {
		t.Error("no must-fail vector says why it has no verdict")
	}
	// signet, which accepts the valid vectors, keeps its verdicts.
	if s := cs[0]; s.Lib != "signet" || s.Invalid == 0 || s.InvalidRejected != s.Invalid {
		t.Errorf("signet: must-fail %d/%d", s.InvalidRejected, s.Invalid)
	}
}

// TestAttackMessageUnreadable: a case whose HTTP message does not parse
// gives a peer no verdict (n/a, the parse error as the reason): the
// error is the harness's, not the library's refusal.
func TestAttackMessageUnreadable(t *testing.T) {
	dir := t.TempDir()
	for _, f := range []string{attacks.JWT, attacks.PASETO, attacks.JWE} {
		data, err := os.ReadFile(filepath.Join(corpusDir, attacks.Files[f]))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, attacks.Files[f]), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	c := attacks.Case{ID: "httpsig-unreadable", Format: attacks.HTTPSig, Title: "not an HTTP/1.1 request", Alg: "hmac-sha256",
		Key: attacks.Key{Secret: "qFSrHxbV0rMQqvvef5JcJSF57AsGAihUo8PCFhrWj8w"}, Now: 1767225660,
		Message: "not a request\r\n\r\n", Expect: attacks.Reject, SignetError: "signet.ErrMalformed", References: []string{"test"}}
	data, err := json.Marshal(attacks.File{Format: attacks.HTTPSig, Description: "test", Cases: []attacks.Case{c}})
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, attacks.Files[attacks.HTTPSig]), data, 0o644); err != nil {
		t.Fatal(err)
	}
	rs, err := RunAttacks(dir, Peers{HTTPSig: []HTTPSigLib{signetHTTPSig{}, acceptAllHTTPSig{}}})
	if err != nil {
		t.Fatal(err)
	}
	var r AttackResult
	for _, x := range rs {
		if x.ID == c.ID {
			r = x
		}
	}
	if len(r.Verdicts) != 2 {
		t.Fatalf("%s: %+v", c.ID, r)
	}
	if v := r.Verdicts[1]; v.Outcome != NotApplicable || !strings.Contains(v.Detail, "message") {
		t.Errorf("accept-all: %s (%s), want n/a: the message does not parse", v.Outcome, v.Detail)
	}
}
