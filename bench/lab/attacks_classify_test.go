package lab

import (
	"errors"
	"net/http"
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
			if v.Outcome != NotApplicable || !strings.Contains(v.Detail, "refused the valid control") || !strings.Contains(v.Detail, errNoTag.Error()) {
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
