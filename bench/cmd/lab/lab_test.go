package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/signet-go/signet/attacks"
	"github.com/signet-go/signet/bench/lab"
)

func TestMedian(t *testing.T) {
	for _, c := range []struct {
		in   []float64
		want float64
	}{{nil, 0}, {[]float64{3}, 3}, {[]float64{5, 1, 3}, 3}, {[]float64{4, 1, 3, 2}, 2.5}} {
		if got := median(c.in); got != c.want {
			t.Errorf("median(%v) = %v", c.in, got)
		}
	}
}

// TestReport runs a tiny lab (two cases and their floor, one round) and
// checks what it writes: the records of docs/design.md, the report's sections
// and charts.
func TestReport(t *testing.T) {
	if err := flag.Set("test.benchtime", "5ms"); err != nil {
		t.Fatal(err)
	}
	keys, err := lab.NewKeys()
	if err != nil {
		t.Fatal(err)
	}
	all, err := lab.Cases(keys, lab.Options{Formats: []string{"JWT"}, Quick: true})
	if err != nil {
		t.Fatal(err)
	}
	var cases []lab.Case
	for _, c := range all {
		if c.Alg == "HS256" && (c.Op == "Sign" || c.Op == "Verify") && (c.Lib == "signet" || c.Lib == "floor" || c.Lib == "golang-jwt") {
			cases = append(cases, c)
		}
	}
	if len(cases) != 6 {
		t.Fatalf("%d cases", len(cases))
	}
	var progress strings.Builder
	// HS256 sign and verify are rows a target is judged on: three rounds.
	r := &runner{rounds: 2, targetRounds: 3, progress: &progress}
	ms := r.run(cases)
	// The cases are measured for real (benchmark): 18 rounds, and 6 more
	// for each group noise sends to the confirmation pass; the bar ends full.
	if full := fmt.Sprintf("%d/%d", r.total, r.total); r.total < 18 || (r.total-18)%6 != 0 || !strings.Contains(progress.String(), full) {
		t.Fatalf("progress of %d rounds: %q", r.total, progress.String())
	}
	for _, m := range ms {
		if len(m.ns) != 3 {
			t.Fatalf("%s: %d rounds, want the targets' 3", m.c.Name(), len(m.ns))
		}
	}
	dir := t.TempDir()
	rep := newReport(config{mode: "quick", rounds: 2, targetRounds: 3, benchtime: 5 * time.Millisecond}, ms, nil, time.Now())
	if err := rep.writeResults(filepath.Join(dir, "results.json")); err != nil {
		t.Fatal(err)
	}
	var recs []map[string]any
	data, _ := os.ReadFile(filepath.Join(dir, "results.json"))
	if err := json.Unmarshal(data, &recs); err != nil || len(recs) != 6 {
		t.Fatalf("%d records: %v", len(recs), err)
	}
	for _, rec := range recs {
		for _, k := range []string{"suite", "format", "alg", "op", "lib", "lang", "ns_per_op", "ops_per_s", "runs"} {
			if _, ok := rec[k]; !ok {
				t.Fatalf("record without %s: %v", k, rec)
			}
		}
		if rec["lib"] != "floor" && rec["floor_ratio"] == nil {
			t.Fatalf("no floor_ratio: %v", rec)
		}
	}
	charts, err := rep.writeCharts(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(charts) == 0 {
		t.Fatal("no charts")
	}
	for _, c := range charts {
		for _, f := range []string{c.svg, c.png} {
			if st, err := os.Stat(filepath.Join(dir, f)); err != nil || st.Size() == 0 {
				t.Fatalf("%s: %v", f, err)
			}
		}
	}
	if err := rep.writeMarkdown(filepath.Join(dir, "REPORT.md"), charts); err != nil {
		t.Fatal(err)
	}
	md, _ := os.ReadFile(filepath.Join(dir, "REPORT.md"))
	for _, want := range []string{"## Method", "## Targets", "HS256 sign ≥ 5× golang-jwt", "| HS256 | **", "## The studies beside this run", "### JWT vs PASETO (mateothegreat/go-jwt-paseto)", "### RFC 9421 libraries (forcebit's comparison)"} {
		if !strings.Contains(string(md), want) {
			t.Errorf("REPORT.md lacks %q", want)
		}
	}
}

// pairedRatio compares round with round: a machine slowing down between
// rounds moves both sides of a pair alike and not the ratio.
func TestPairedRatio(t *testing.T) {
	a := &measurement{ns: []float64{100, 200, 400}}
	b := &measurement{ns: []float64{110, 220, 440}}
	if r := pairedRatio(a, b); r < 0.9090 || r > 0.9092 {
		t.Fatalf("paired ratio %v, want 1/1.1", r)
	}
	// Unmatched rounds: the ratio of the medians.
	c := &measurement{ns: []float64{300}}
	if r := pairedRatio(a, c); r != 200.0/300 {
		t.Fatalf("unmatched ratio %v", r)
	}
}

// peerFaster: a peer is faster only by more than 3% and, from four rounds
// on, in every round; below four rounds the ratio alone decides.
func TestPeerFaster(t *testing.T) {
	s := &measurement{ns: []float64{100, 100, 100, 100, 100}}
	for _, c := range []struct {
		name string
		peer []float64
		want bool
	}{
		{"faster in every round", []float64{90, 90, 90, 90, 90}, true},
		{"within the tie band", []float64{98, 98, 98, 98, 98}, false},
		{"faster by the median, not in one round", []float64{80, 80, 80, 80, 101}, false},
		{"slower", []float64{110, 110, 110, 110, 110}, false},
		{"equal in one round", []float64{80, 80, 80, 80, 100}, false},
	} {
		if got := peerFaster(s, &measurement{ns: c.peer}); got != c.want {
			t.Errorf("%s: peerFaster = %v, want %v", c.name, got, c.want)
		}
	}
	three := &measurement{ns: []float64{100, 100, 100}}
	if !peerFaster(three, &measurement{ns: []float64{80, 80, 101}}) {
		t.Error("three rounds: the paired ratio alone should decide")
	}
}

// The floor is the control of a row: a peer faster than signet in every
// round counts as faster only when it does not beat the floor as well.
func TestFloorControl(t *testing.T) {
	mk := func(alg, lib string, ns ...float64) *measurement {
		return &measurement{c: lab.Case{Format: "JWT", Alg: alg, Op: "Verify", Lib: lib}, procs: 1, ns: ns, bytes: 100}
	}
	ms := []*measurement{
		// ES384: the peer beats signet and the floor in every round.
		mk("ES384", "floor", 100, 100, 100, 100, 100),
		mk("ES384", "signet", 101, 101, 101, 101, 101),
		mk("ES384", "peer", 90, 90, 90, 90, 90),
		// RS256: the peer beats signet, not the floor: signet is slower.
		mk("RS256", "floor", 80, 80, 80, 80, 80),
		mk("RS256", "signet", 101, 101, 101, 101, 101),
		mk("RS256", "peer", 90, 90, 90, 90, 90),
	}
	ms[2].bytes, ms[5].bytes = 200, 200
	checkTargets(t, ms,
		"0 of 2 rows fastest (faster than every peer by more than 3% in every round), 1 ties at the floor (signet within 3% of it), 0 ties above the floor, 1 slower",
		"measurably faster (by more than 3%, and in every round of both passes): JWT RS256/Verify/signet.",
		"Ties by the floor control",
		"JWT ES384/Verify/signet (peer, 0.90× the floor's time)")
}

// checkTargets checks that the targets section of a full run's report on
// ms says each of wants.
func checkTargets(t *testing.T, ms []*measurement, wants ...string) {
	t.Helper()
	rep := newReport(config{mode: "full", rounds: 5}, ms, nil, time.Now())
	var b strings.Builder
	rep.writeTargets(&b)
	rep.writeFailures(&b)
	for _, want := range wants {
		if !strings.Contains(b.String(), want) {
			t.Errorf("report lacks %q:\n%s", want, b.String())
		}
	}
}

// A group where a peer is faster in every round is measured again (the
// confirmation pass); a group where it is not runs once.
func TestConfirmationPass(t *testing.T) {
	mk := func(alg, lib string) lab.Case {
		return lab.Case{Format: "JWT", Alg: alg, Op: "Verify", Lib: lib}
	}
	cases := []lab.Case{
		mk("RS256", "signet"), mk("RS256", "peer"), // the peer is four times faster
		mk("HS256", "signet"), mk("HS256", "peer"),
	}
	// Measurements of the test's choosing: timing has no place in a
	// pass/fail test, and a noisy machine can make equals differ.
	ns := map[string]float64{"RS256/signet": 400, "RS256/peer": 100, "HS256/signet": 100, "HS256/peer": 400}
	var order []string
	calls := map[*measurement]int64{}
	measure := func(m *measurement) sample {
		order = append(order, m.c.Alg+"/"+m.c.Lib)
		calls[m]++ // as bytes: B/op is taken from the first pass only
		return sample{ns: ns[m.c.Alg+"/"+m.c.Lib], bytes: calls[m], allocs: 1}
	}
	var progress strings.Builder
	r := &runner{rounds: 4, progress: &progress, measure: measure}
	ms := r.run(cases)
	for _, m := range ms {
		want := 0
		if m.c.Alg == "RS256" {
			want = 4
		}
		if len(m.ns) != 4 || len(m.confirm) != want {
			t.Errorf("%s: %d rounds and %d confirmation rounds, want 4 and %d", m.c.Name(), len(m.ns), len(m.confirm), want)
		}
		if m.bytes != 4 || calls[m] != int64(4+want) {
			t.Errorf("%s: %d B/op after %d rounds, want the first pass's last (4)", m.c.Name(), m.bytes, calls[m])
		}
	}
	// Rounds interleave and rotate: signet and the peer take turns to go
	// first; the confirmation pass comes after every first pass.
	want := "RS256/signet RS256/peer RS256/peer RS256/signet RS256/signet RS256/peer RS256/peer RS256/signet " +
		"HS256/signet HS256/peer HS256/peer HS256/signet HS256/signet HS256/peer HS256/peer HS256/signet " +
		"RS256/signet RS256/peer RS256/peer RS256/signet RS256/signet RS256/peer RS256/peer RS256/signet"
	if got := strings.Join(order, " "); got != want {
		t.Errorf("order of the rounds:\n%s\nwant\n%s", got, want)
	}
	// The bar goes on in tenths of the new total (17 of 24 is a new
	// tenth after 16 of 24) and ends full.
	if !strings.Contains(progress.String(), "17/24") || !strings.Contains(progress.String(), "24/24") || !strings.Contains(progress.String(), "confirmation pass: 1 groups") {
		t.Errorf("progress: %q", progress.String())
	}
}

// The report counts a peer faster only when the confirmation pass shows it
// again; what it does not confirm is a tie, listed with both passes' ratios.
func TestConfirmedVerdict(t *testing.T) {
	mk := func(alg, lib string, first, second float64) *measurement {
		return &measurement{c: lab.Case{Format: "JWT", Alg: alg, Op: "Verify", Lib: lib}, procs: 1, bytes: 100,
			ns: []float64{first, first, first, first, first}, confirm: []float64{second, second, second, second, second}}
	}
	ms := []*measurement{
		// ES256: faster in the first pass only.
		mk("ES256", "signet", 100, 100), mk("ES256", "peer", 90, 101),
		// RS256: faster in both passes.
		mk("RS256", "signet", 100, 100), mk("RS256", "peer", 90, 90),
	}
	ms[1].bytes, ms[3].bytes = 200, 200
	checkTargets(t, ms,
		"0 of 2 rows fastest (faster than every peer by more than 3% in every round), 0 ties at the floor (signet within 3% of it), 1 ties above the floor, 1 slower",
		"in every round of both passes): JWT RS256/Verify/signet.",
		"Ties by the confirmation pass",
		"JWT ES256/Verify/signet (peer: 0.90× signet's time in the first pass, 1.01× in the second)")
}

// A case failing in the confirmation pass keeps its first pass's rounds
// and failure-free status; the report lists it, and without a complete
// second pass the first pass's verdict stands.
func TestConfirmationFailure(t *testing.T) {
	m := &measurement{c: lab.Case{Format: "JWT", Alg: "ES256", Op: "Verify", Lib: "peer", Run: func(*testing.B) { panic("boom") }},
		procs: 1, bytes: 200, ns: []float64{90, 90, 90, 90, 90}}
	(&runner{rounds: 5}).one(m, true)
	if m.failure != "" || m.confirmFailure != "boom" || len(m.ns) != 5 || len(m.confirm) != 0 {
		t.Fatalf("after a failed confirmation round: failure %q, confirmFailure %q, %d rounds, %d confirmation rounds", m.failure, m.confirmFailure, len(m.ns), len(m.confirm))
	}
	s := &measurement{c: lab.Case{Format: "JWT", Alg: "ES256", Op: "Verify", Lib: "signet"}, procs: 1, bytes: 100,
		ns: []float64{100, 100, 100, 100, 100}, confirm: []float64{100, 100, 100, 100, 100}}
	checkTargets(t, []*measurement{s, m}, "0 of 1 rows fastest (faster than every peer by more than 3% in every round), 0 ties at the floor (signet within 3% of it), 0 ties above the floor, 1 slower",
		"in the confirmation pass (the first pass's rounds stand): boom")
}

// A tie is a tie: a row where signet's median is ahead of the peer's by
// less than the tie band, or not in every round, counts as a tie, never
// as fastest; only a row signet wins by more than 3% in every round is
// fastest. The target is met by ties and wins (no peer measurably
// faster), and says how many of each.
func TestTieIsNotFastest(t *testing.T) {
	mk := func(alg, lib string, ns ...float64) *measurement {
		return &measurement{c: lab.Case{Format: "JWT", Alg: alg, Op: "Verify", Lib: lib}, procs: 1, ns: ns, bytes: 200}
	}
	ms := []*measurement{
		// HS256: signet 10% faster in every round: fastest.
		mk("HS256", "signet", 90, 90, 90, 90, 90), mk("HS256", "peer", 100, 100, 100, 100, 100),
		// ES256: signet ahead by 1%: a tie.
		mk("ES256", "signet", 99, 99, 99, 99, 99), mk("ES256", "peer", 100, 100, 100, 100, 100),
		// RS256: signet ahead by the median, not in one round: a tie.
		mk("RS256", "signet", 80, 80, 80, 80, 101), mk("RS256", "peer", 100, 100, 100, 100, 100),
		// EdDSA: the peer's median ahead by 1%: a tie.
		mk("EdDSA", "signet", 101, 101, 101, 101, 101), mk("EdDSA", "peer", 100, 100, 100, 100, 100),
		// Each row's floor, signet within 3% of it: the ties meet the
		// target (TestTieAboveFloor has the others).
		mk("HS256", "floor", 88, 88, 88, 88, 88), mk("ES256", "floor", 97, 97, 97, 97, 97),
		mk("RS256", "floor", 79, 79, 79, 79, 79), mk("EdDSA", "floor", 99, 99, 99, 99, 99),
	}
	for _, m := range ms {
		if m.c.Lib == "signet" {
			m.bytes = 100
		}
	}
	checkTargets(t, ms,
		"| signet fastest in every row; a tie only where signet is within 3% of its floor | 1 of 4 rows fastest (faster than every peer by more than 3% in every round), 3 ties at the floor (signet within 3% of it), 0 ties above the floor, 0 slower | ✅ |",
		"so not counted as fastest: JWT ES256/Verify/signet; JWT RS256/Verify/signet.",
		"Ties — a peer's median is faster, but by less than 3% or not in every round (p ≥ 1/16 that noise alone did it), or signet's own median is below its floor's: JWT EdDSA/Verify/signet.")
	rep := newReport(config{mode: "full", rounds: 5}, ms, nil, time.Now())
	var b strings.Builder
	rep.writeTargets(&b)
	if strings.Contains(b.String(), "4 of 4 rows fastest") || strings.Contains(b.String(), "2 of 4 rows fastest") || strings.Contains(b.String(), "Ties that miss") {
		t.Errorf("a tie counted as fastest, or a tie at the floor as a miss:\n%s", b.String())
	}
}

// A tie meets the target only where signet is within 3% of its floor
// (nobody beats the primitive); a tie above the floor, or in a row with
// no floor, is a miss listed with its figures, and the target is not met
// although no peer is faster. B/op is "first" only below every peer.
func TestTieAboveFloor(t *testing.T) {
	mk := func(alg, lib string, bytes int64, ns ...float64) *measurement {
		return &measurement{c: lab.Case{Format: "JWT", Alg: alg, Op: "Sign", Lib: lib}, procs: 1, ns: ns, bytes: bytes}
	}
	ms := []*measurement{
		// ES256: level with the peer, 1.02× the floor: a tie that meets the target.
		mk("ES256", "floor", 0, 100, 100, 100, 100, 100), mk("ES256", "signet", 100, 102, 102, 102, 102, 102), mk("ES256", "peer", 200, 101, 101, 101, 101, 101),
		// ES512: level with the peer, 1.08× the floor: a miss.
		mk("ES512", "floor", 0, 100, 100, 100, 100, 100), mk("ES512", "signet", 100, 108, 108, 108, 108, 108), mk("ES512", "peer", 100, 107, 107, 107, 107, 107),
		// EdDSA: a tie without a floor: a miss.
		mk("EdDSA", "signet", 100, 50, 50, 50, 50, 50), mk("EdDSA", "peer", 300, 50, 50, 50, 50, 50),
	}
	checkTargets(t, ms,
		"| signet fastest in every row; a tie only where signet is within 3% of its floor | 0 of 3 rows fastest (faster than every peer by more than 3% in every round), 1 ties at the floor (signet within 3% of it), 2 ties above the floor, 0 slower | ❌ |",
		"Ties that miss the target — no peer measurably faster, but signet more than 3% above its floor (or with no floor to judge by), so a faster library is possible: JWT ES512/Sign/signet (1.08× its floor; peer at 0.99× signet's time); JWT EdDSA/Sign/signet (no floor to judge by; peer at 1.00× signet's time).",
		// ES512's peer allocates as many bytes as signet: not first on B/op.
		"| first on B/op in every row (fewer bytes per operation than every peer) | 2 of 3 rows | ❌ |",
		"Rows where a peer allocates as few bytes or fewer: JWT ES512/Sign/signet.")
}

// The attack target counts a refusal as intended only with the sentinel
// the case names; n/a and a wrong verdict are not intended either.
func TestSignetAttackTally(t *testing.T) {
	reject := lab.AttackResult{ID: "a", Expect: attacks.Reject, SignetError: "signet.ErrAlgorithmMismatch"}
	control := lab.AttackResult{ID: "c", Expect: attacks.Accept}
	v := func(o lab.Outcome, detail string) []lab.Verdict {
		return []lab.Verdict{{Lib: "signet", Outcome: o, Detail: detail}, {Lib: "peer", Outcome: lab.Accepted}}
	}
	with := func(r lab.AttackResult, vs []lab.Verdict) lab.AttackResult { r.Verdicts = vs; return r }
	s := &security{attacks: []lab.AttackResult{
		with(reject, v(lab.Rejected, "signet: algorithm does not match the key: HS256")), // intended
		with(reject, v(lab.Rejected, "signet: signature invalid")),                       // refused, another error
		with(reject, v(lab.Accepted, "")),                                                // let through
		with(reject, v(lab.NotApplicable, "no verdict")),
		with(control, v(lab.Accepted, "")), // intended
		with(control, v(lab.Rejected, "signet: malformed input")),
	}}
	if n, ok := s.signetAttackTally(); n != 6 || ok != 2 {
		t.Fatalf("tally: %d cases, %d as intended; want 6 and 2", n, ok)
	}
}

// The lab's results.json keeps the HTTP lab's records (make load) and
// drops its own old ones.
func TestKeptSuites(t *testing.T) {
	path := filepath.Join(t.TempDir(), "results.json")
	if got, err := keptSuites(path, "http"); err != nil || got != nil {
		t.Fatalf("no file: %v, %v", got, err)
	}
	old := `[{"suite":"lab","op":"Sign"},{"suite":"http","scenario":"hello"},{"suite":"http-faults","scenario":"sigterm"},{"suite":"xlang"}]`
	if err := os.WriteFile(path, []byte(old), 0o644); err != nil {
		t.Fatal(err)
	}
	got, err := keptSuites(path, "http", "http-faults")
	if err != nil || len(got) != 2 {
		t.Fatalf("kept %v, %v; want the two HTTP records", got, err)
	}
	if err := os.WriteFile(path, []byte("{"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := keptSuites(path, "http"); err == nil {
		t.Error("a broken results.json: no error")
	}
}

// TestClaimsTargets: issue 18's rows, from signet's paired ratio to its
// floor (and to golang-jwt) on the size, typed-claims, v4.local and key
// initialisation rows.
func TestClaimsTargets(t *testing.T) {
	mk := func(format, alg, size, op, lib string, ns float64) *measurement {
		return &measurement{c: lab.Case{Format: format, Alg: alg, Size: size, Op: op, Lib: lib}, procs: 1, ns: []float64{ns, ns, ns}}
	}
	ms := []*measurement{
		mk("JWT", "HS256", "medium", "Verify", "floor", 100), mk("JWT", "HS256", "medium", "Verify", "signet", 290),
		mk("JWT", "HS256", "typed", "Sign", "floor", 100), mk("JWT", "HS256", "typed", "Sign", "signet", 310),
		mk("JWT", "HS256", "typed", "Sign", "golang-jwt", 1600),
		mk("PASETO", "v4.local", "small", "Decrypt", "floor", 100), mk("PASETO", "v4.local", "small", "Decrypt", "signet", 120),
		mk("PASETO", "v4.local", "large", "Decrypt", "floor", 100), mk("PASETO", "v4.local", "large", "Decrypt", "signet", 160),
		mk("JWT", "HS256", "", "KeyInit", "floor", 50), mk("JWT", "HS256", "", "KeyInit", "signet", 90),
	}
	r := newReport(config{}, ms, nil, time.Time{})
	var b strings.Builder
	r.claimsTargets(func(target, got string, ok bool) { fmt.Fprintf(&b, "%s | %s | %v\n", target, got, ok) })
	for _, want := range []string{
		"HS256 verify, payload medium, ≤ 3× the floor of HMAC and base64url | 2.90× | true",
		"HS256 sign of a user's struct (payload typed) ≤ 3× the floor | 3.10× | false",
		"HS256 sign of a user's struct (payload typed) ≥ 5× golang-jwt | 5.2× | true",
		"PASETO v4.local decrypt ≤ 1.5× its primitives at every size | at most 1.60× (large) | false",
		"HS256 key initialisation ≤ 2× its floor | 1.80× | true",
	} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("missing %q in\n%s", want, b.String())
		}
	}
}

// TestTargetRounding: a target's figure is written with as many decimals
// as it takes to sit on the same side of the limit as the verdict: a
// speedup of 4.96 against "≥ 5×" reads 4.96×, not 5.0× beside a ❌, and a
// floor ratio of 3.004 against "≤ 3×" reads 3.004×, not 3.00×.
func TestTargetRounding(t *testing.T) {
	mk := func(size, op, lib string, ns float64) *measurement {
		return &measurement{c: lab.Case{Format: "JWT", Alg: "HS256", Size: size, Op: op, Lib: lib}, procs: 1, ns: []float64{ns, ns, ns, ns, ns}}
	}
	checkTargets(t, []*measurement{
		mk("", "Verify", "signet", 100), mk("", "Verify", "golang-jwt", 496),
		mk("medium", "Sign", "floor", 100), mk("medium", "Sign", "signet", 300.4),
		mk("large", "Sign", "floor", 100), mk("large", "Sign", "signet", 299.6),
	},
		"| HS256 verify ≥ 5× golang-jwt | 4.96× | ❌ |",
		"| HS256 verify ≥ 3× the fastest peer | 5.0× (golang-jwt) | ✅ |", // well clear of 3
		"| HS256 sign, payload medium, ≤ 3× the floor of HMAC and base64url | 3.004× | ❌ |",
		"| HS256 sign, payload large, ≤ 3× the floor of HMAC and base64url | 2.996× | ✅ |",
	)
}
