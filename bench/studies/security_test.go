//go:build studies

package studies

import (
	"reflect"
	"slices"
	"testing"

	"github.com/signet-go/signet/bench/lab"
)

// The corpus and the published vectors, relative to this package.
const (
	corpusDir  = "../../attacks"
	vectorsDir = "../../testdata"
)

// TestAttackCorpus runs the attack corpus against the studies' peers as
// against every other (lab.RunAttacks) and pins their verdicts: the
// cases each lets through or refuses against the corpus's expectation,
// and how many get a verdict. A change in either library or adapter
// shows here.
func TestAttackCorpus(t *testing.T) {
	rs, err := lab.RunAttacks(corpusDir, withSignet())
	if err != nil {
		t.Fatal(err)
	}
	type tally struct {
		judged int
		wrong  []string
	}
	got := map[string]*tally{}
	for _, r := range rs {
		for _, v := range r.Verdicts {
			if v.Lib == "signet" {
				continue
			}
			k := r.Format + "/" + v.Lib
			if got[k] == nil {
				got[k] = &tally{}
			}
			if v.Outcome != lab.NotApplicable {
				got[k].judged++
			}
			if v.Wrong(r.Expect) {
				got[k].wrong = append(got[k].wrong, r.ID)
			}
		}
	}
	want := map[string]tally{
		// ES256 only: the control and five attacks, all as expected.
		"JWT/mateothegreat": {judged: 6},
		// No verdict: PasetoParse takes the secret key, the corpus gives
		// public keys (and v4.local is not there).
		"PASETO/mateothegreat": {judged: 0},
		// Every case; what it gets wrong: ECDSA as DER (refuses the RFC's
		// r‖s control, accepts the DER signature), @authority taken as
		// sent (refuses the normalized control, accepts the unnormalized
		// one), any coverage accepted by default (empty, content-type
		// only), a duplicated component and a repeated query parameter
		// let through. Its refusals of the other ECDSA P-256 attacks are
		// no verdict (it refuses the valid control of that algorithm), so
		// 31 of the 37 cases are judged.
		"HTTPSig/forcebit": {judged: 31, wrong: []string{
			"httpsig-control-ecdsa-post", "httpsig-control-authority-normalized", "httpsig-authority-unnormalized",
			"httpsig-empty-coverage", "httpsig-content-type-only", "httpsig-ecdsa-der", "httpsig-duplicate-component",
			"httpsig-repeated-query-param",
		}},
	}
	for k, w := range want {
		g := got[k]
		if g == nil {
			t.Errorf("%s: no verdicts", k)
			continue
		}
		slices.Sort(g.wrong)
		slices.Sort(w.wrong)
		if g.judged != w.judged || !slices.Equal(g.wrong, w.wrong) {
			t.Errorf("%s: %d judged, wrong on %v; pinned %d, %v", k, g.judged, g.wrong, w.judged, w.wrong)
		}
	}
}

// TestVectors runs the published vectors against the studies' peers
// (lab.RunConformance) and pins the counts and the vectors each fails.
func TestVectors(t *testing.T) {
	cs, err := lab.RunConformance(vectorsDir, withSignet())
	if err != nil {
		t.Fatal(err)
	}
	type counts struct {
		valid, validOK, invalid, invalidOK, na int
		failed                                 []string
	}
	want := map[string]counts{
		// RFC 7515 A.3 (ES256, a JWT with exp) and its tampered twin; the
		// rest are other algorithms or not JWTs.
		"JWT/mateothegreat": {valid: 1, validOK: 1, invalid: 1, invalidOK: 1, na: 16},
		// Public keys only: no verdict.
		"PASETO/mateothegreat": {na: 34},
		// B.2.1 and 4.3's proxy_sig: it rebuilds @signature-params in an
		// order of its own (created, expires, nonce, alg, keyid, tag)
		// instead of as sent; B.3 and 4.3's sig1: ECDSA r‖s, which it
		// reads as DER.
		"HTTPSig/forcebit": {valid: 14, validOK: 10, invalid: 3, invalidOK: 3, na: 3,
			failed: []string{"rfc9421-4.3-proxy_sig", "rfc9421-4.3-sig1", "rfc9421-B.2.1", "rfc9421-B.3"}},
	}
	seen := 0
	for _, c := range cs {
		w, ok := want[c.Format+"/"+c.Lib]
		if !ok {
			continue
		}
		seen++
		g := counts{valid: c.Valid, validOK: c.ValidAccepted, invalid: c.Invalid, invalidOK: c.InvalidRejected, na: c.Skipped}
		for _, v := range c.Vectors {
			if v.Outcome != lab.NotApplicable && !v.OK {
				g.failed = append(g.failed, v.ID)
			}
		}
		slices.Sort(g.failed)
		if !reflect.DeepEqual(g, w) {
			t.Errorf("%s/%s: %+v, pinned %+v", c.Format, c.Lib, g, w)
		}
	}
	if seen != len(want) {
		t.Fatalf("%d of %d suites ran", seen, len(want))
	}
}
