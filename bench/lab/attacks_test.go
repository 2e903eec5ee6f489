package lab

import (
	"strings"
	"testing"

	"github.com/signet-go/signet/attacks"
	"github.com/signet-go/signet/httpsig"
)

// The corpus and the published vectors, relative to this package.
const (
	corpusDir  = "../../attacks"
	vectorsDir = "../../testdata"
)

// TestAttacksSignet: signet refuses every attack of the corpus, with the
// sentinel the corpus names, and accepts every control, under its
// default policies (attacks.Case.Verify). A case signet gives no verdict
// on, in any format, fails the test: a verdict that cannot run is not a
// pass.
func TestAttacksSignet(t *testing.T) {
	rs, err := RunAttacks(corpusDir, DefaultPeers())
	if err != nil {
		t.Fatal(err)
	}
	if len(rs) < 45 {
		t.Fatalf("%d cases", len(rs))
	}
	formats := map[string]int{}
	for _, r := range rs {
		if len(r.Verdicts) == 0 {
			t.Fatalf("%s: no library", r.ID)
		}
		v := r.Verdicts[0] // signet first
		if v.Lib != "signet" {
			t.Fatalf("%s: the first verdict is %s's", r.ID, v.Lib)
		}
		formats[r.Format]++
		switch {
		case v.Outcome == NotApplicable:
			t.Errorf("%s (%s): signet gave no verdict: %s", r.ID, r.Format, v.Detail)
		case v.Outcome != Accepted && v.Outcome != Rejected:
			t.Errorf("%s: signet outcome %q", r.ID, v.Outcome)
		case v.Wrong(r.Expect):
			t.Errorf("%s (%s): signet %s, want %s: %s", r.ID, r.Title, v.Outcome, r.Expect, v.Detail)
		case r.Expect == attacks.Reject:
			want := attacks.Sentinel(r.SignetError).Error()
			if !strings.Contains(v.Detail, want) {
				t.Errorf("%s: signet refused it with %q, want %s", r.ID, v.Detail, r.SignetError)
			}
		}
	}
	for _, f := range []string{attacks.JWT, attacks.PASETO, attacks.HTTPSig, attacks.JWE} {
		if formats[f] == 0 {
			t.Errorf("no %s case ran", f)
		}
	}
}

// TestAttacksMatrix: every library gets a verdict slot on every case of
// its format, and the report lists what each lets through.
func TestAttacksMatrix(t *testing.T) {
	rs, err := RunAttacks(corpusDir, DefaultPeers())
	if err != nil {
		t.Fatal(err)
	}
	libs := map[string]int{attacks.JWT: len(JWTLibs()), attacks.PASETO: len(PASETOLibs()), attacks.HTTPSig: len(HTTPSigLibs()), attacks.JWE: len(JWELibs())}
	wrong := map[string]int{}
	for _, r := range rs {
		if len(r.Verdicts) != libs[r.Format] {
			t.Fatalf("%s: %d verdicts for %d libraries", r.ID, len(r.Verdicts), libs[r.Format])
		}
		for _, v := range r.Verdicts {
			if v.Outcome != Accepted && v.Outcome != Rejected && v.Outcome != NotApplicable && v.Outcome != TimedOut {
				t.Fatalf("%s/%s: outcome %q", r.ID, v.Lib, v.Outcome)
			}
			// A token peer is n/a only for an algorithm it lacks: each
			// can be told the audience its verifier names (or none), and
			// gets a key signet refuses as the raw public key.
			if r.Format != attacks.HTTPSig && v.Outcome == NotApplicable && !strings.HasPrefix(v.Detail, "no ") {
				t.Errorf("%s/%s: no verdict: %s", r.ID, v.Lib, v.Detail)
			}
			if v.Wrong(r.Expect) {
				wrong[r.Format+"/"+v.Lib]++
			}
		}
	}
	cs, err := RunConformance(vectorsDir, DefaultPeers())
	if err != nil {
		t.Fatal(err)
	}
	var report strings.Builder
	if err := WriteSecurityReport(&report, rs, cs); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"## Security matrix", "### JWT", "`jwt-alg-none-with-signature`", "`jwt-aud-verifier-names-none`", "`jwt-eddsa-small-order-key`", "`paseto-v4-public-small-order-key`", "`httpsig-empty-coverage`", "### JWE", "`jwe-pbes2-p2c-1e9`", "What each library accepts", "Conformance"} {
		if !strings.Contains(report.String(), want) {
			t.Fatalf("report lacks %q", want)
		}
	}
	t.Logf("wrong verdicts by format/library: %v", wrong)
	if testing.Verbose() {
		t.Log("\n" + report.String())
	}
}

// TestAttackConformance: signet accepts every published vector of every
// suite and refuses each tampered one. A vector signet gives no verdict on
// fails the test, except the RFC 9421 response signatures, which no
// adapter verifies (they verify requests): those are counted, and must be
// the only ones.
func TestAttackConformance(t *testing.T) {
	cs, err := RunConformance(vectorsDir, DefaultPeers())
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	for _, c := range cs {
		t.Logf("%-7s %-12s valid %d/%d, must-fail %d/%d, n/a %d", c.Format, c.Lib, c.ValidAccepted, c.Valid, c.InvalidRejected, c.Invalid, c.Skipped)
		if seen[c.Format] {
			continue
		}
		seen[c.Format] = true // the first library of a format is signet
		if c.Lib != "signet" {
			t.Fatalf("%s: the first library is %s", c.Format, c.Lib)
		}
		if c.Valid == 0 || c.Invalid == 0 {
			t.Errorf("signet %s: %d valid and %d must-fail vectors run", c.Format, c.Valid, c.Invalid)
		}
		var coverage []string
		for _, v := range c.Vectors {
			switch {
			case c.Format == attacks.HTTPSig && v.Valid && v.Outcome == Rejected && strings.Contains(v.Detail, httpsig.ErrNotCovered.Error()):
				// signet's default policy refuses a request signature
				// that does not cover @method, @authority and @path.
				coverage = append(coverage, v.ID)
			case v.Outcome == NotApplicable && !(c.Format == attacks.HTTPSig && strings.HasPrefix(v.Detail, responseNA)):
				t.Errorf("signet %s %s: no verdict: %s", c.Format, v.ID, v.Detail)
			case v.Outcome != NotApplicable && !v.OK:
				t.Errorf("signet %s %s: %s (%s)", c.Format, v.ID, v.Outcome, v.Detail)
			}
		}
		// Exactly the RFC's examples that cover less than that (B.2.1
		// covers nothing).
		if want := "rfc9421-B.2.1 rfc9421-B.2.2 rfc9421-B.2.5"; c.Format == attacks.HTTPSig && strings.Join(coverage, " ") != want {
			t.Errorf("signet HTTPSig: refused for their coverage: %v, want %s", coverage, want)
		}
	}
	if len(seen) != 3 {
		t.Fatalf("suites: %v", seen)
	}
}

func TestAttackDictMember(t *testing.T) {
	lines := []string{`sig1=("@method" "x,y");created=1;nonce="a,\"b", proxy_sig=("@path")`, `sig2=:YWJj:`}
	for label, want := range map[string]string{
		"sig1":      `sig1=("@method" "x,y");created=1;nonce="a,\"b"`,
		"proxy_sig": `proxy_sig=("@path")`,
		"sig2":      `sig2=:YWJj:`,
	} {
		if got, err := dictMember(lines, label); err != nil || got != want {
			t.Errorf("%s: %q %v", label, got, err)
		}
	}
	if _, err := dictMember(lines, "sig3"); err == nil {
		t.Error("absent member found")
	}
}

// TestAttackAudienceWired: every token peer refuses a token issued for
// another service once told the verifier's audience (VerifyFor,
// OpenFor), so that its verdict on a verifier naming none is its
// library's default and not an adapter that ignores aud.
func TestAttackAudienceWired(t *testing.T) {
	rs, err := RunAttacks(corpusDir, DefaultPeers())
	if err != nil {
		t.Fatal(err)
	}
	seen := 0
	for _, r := range rs {
		if r.ID != "jwt-aud-other-service" && r.ID != "paseto-aud-other-service" {
			continue
		}
		seen++
		for _, v := range r.Verdicts {
			if v.Outcome == NotApplicable && strings.HasPrefix(v.Detail, "no ") {
				continue // the library lacks the algorithm (o1egl: v2 only)
			}
			if v.Outcome != Rejected {
				t.Errorf("%s/%s: %s (%s): the adapter does not pass the audience on", r.ID, v.Lib, v.Outcome, v.Detail)
			}
		}
	}
	if seen != 2 {
		t.Fatalf("%d audience cases in the corpus", seen)
	}
}
