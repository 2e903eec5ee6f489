package main

import (
	"fmt"
	"slices"
	"strings"

	"github.com/signet-go/signet/bench/published"
)

// A formatPair is a JWT library and a PASETO library compared with each
// other, as the JWT-vs-PASETO study compares its two packages.
type formatPair struct {
	jwt, paseto string
	label       string // how the report names the pair
	// fallback, when set, stands in where the pair has no row (the
	// study's package measured at fewer algorithms or sizes than the lab's
	// matrix): the libraries it wraps.
	fallback *formatPair
}

// algPair is a JWT algorithm and a PASETO purpose measured together.
type algPair struct{ jwt, paseto string }

// algPairs are the algorithms a JWT-vs-PASETO comparison takes, in order
// of preference: the study's (ES256 and v4.public, what its packages
// sign with), then the lab's payload-size matrix's (HS256 and v4.local).
var algPairs = []algPair{{"ES256", "v4.public"}, {"HS256", "v4.local"}}

// pasetoOp is the lab's PASETO op for the study's op: a local token is
// encrypted and decrypted, a public one signed and verified.
func pasetoOp(purpose, op string) string {
	local := strings.HasSuffix(purpose, ".local")
	switch {
	case op == "Sign" && local:
		return "Encrypt"
	case op == "Parse" && local:
		return "Decrypt"
	case op == "Parse":
		return "Verify"
	}
	return op
}

func jwtOp(op string) string {
	if op == "Parse" {
		return "Verify"
	}
	return op
}

// jwtPASETO is one comparison of a pair on one op and payload class.
type jwtPASETO struct {
	j, p *measurement
	algs algPair
	// standIn names the fallback pair when it stood in ("" otherwise).
	standIn string
}

// time, bytes and allocs are PASETO's over JWT's (medians: the two are
// measured in different groups).
func (c jwtPASETO) time() float64   { return c.p.median() / c.j.median() }
func (c jwtPASETO) bytes() float64  { return ratioInt(c.p.bytes, c.j.bytes) }
func (c jwtPASETO) allocs() float64 { return ratioInt(c.p.allocs, c.j.allocs) }

func ratioInt(a, b int64) float64 {
	if b == 0 {
		return 0
	}
	return float64(a) / float64(b)
}

// compare finds a pair's rows of op at payload class size, with the first
// algorithms of algPairs both libraries were measured with; ok is false
// when none. Where p has no row its fallback, if any, stands in (named in
// the comparison).
func (r *report) compare(p formatPair, op, size string, parallel bool) (jwtPASETO, bool) {
	if c, ok := r.comparePair(p, op, size, parallel); ok || p.fallback == nil {
		return c, ok
	}
	c, ok := r.comparePair(*p.fallback, op, size, parallel)
	c.standIn = p.fallback.jwt + " and " + p.fallback.paseto
	return c, ok
}

func (r *report) comparePair(p formatPair, op, size string, parallel bool) (jwtPASETO, bool) {
	for _, a := range algPairs {
		var j, pm *measurement
		if parallel {
			j = r.find("JWT", a.jwt, "", jwtOp(op), p.jwt, true, maxProcs)
			pm = r.find("PASETO", a.paseto, "", pasetoOp(a.paseto, op), p.paseto, true, maxProcs)
		} else {
			j = r.sized("JWT", a.jwt, size, jwtOp(op), p.jwt)
			pm = r.sized("PASETO", a.paseto, size, pasetoOp(a.paseto, op), p.paseto)
		}
		if j != nil && pm != nil && j.median() > 0 {
			return jwtPASETO{j: j, p: pm, algs: a}, true
		}
	}
	return jwtPASETO{}, false
}

// maxProcs is the GOMAXPROCS of the lab's parallel rows the concurrency
// comparisons take (the runner measures 1 and 2).
const maxProcs = 2

// jwtPASETOPairs returns the pair the study's claims are judged on — its
// own package's (mateothegreat) when this run measured it, else the
// stand-ins its package wraps — and signet's pair.
func (r *report) jwtPASETOPairs() (study formatPair, standIn bool, signet formatPair) {
	signet = formatPair{jwt: "signet", paseto: "signet", label: "signet (JWT and PASETO)"}
	wrapped := formatPair{jwt: "golang-jwt", paseto: "go-paseto", label: "golang-jwt and go-paseto (stand-ins)"}
	if r.hasLib("JWT", "mateothegreat") && r.hasLib("PASETO", "mateothegreat") {
		return formatPair{jwt: "mateothegreat", paseto: "mateothegreat", label: "mateothegreat (the study's package)", fallback: &wrapped}, false, signet
	}
	return wrapped, true, signet
}

// winnerHere names this run's winner of a comparison the study's way:
// speed (level within 3 %) and memory (B/op).
func winnerHere(c jwtPASETO) string {
	speed := "level"
	switch t := c.time(); {
	case level(t):
	case t < 1:
		speed = "PASETO"
	default:
		speed = "JWT"
	}
	mem := "level"
	switch {
	case c.p.bytes < c.j.bytes:
		mem = "PASETO"
	case c.p.bytes > c.j.bytes:
		mem = "JWT"
	}
	return "speed " + speed + ", memory " + mem
}

// winnerHolds judges the study's winner of a row on this run's: "X
// (memory)" needs X's B/op lower, "X (speed)" X's time lower by more than
// 3 %, a bare "X" both.
func winnerHolds(winner string, c jwtPASETO) (held, of int) {
	fmtName, aspect, _ := strings.Cut(winner, " (")
	aspect = strings.TrimSuffix(aspect, ")")
	pasetoFaster, pasetoLeaner := c.time()*tieBand < 1, c.p.bytes < c.j.bytes
	jwtFaster, jwtLeaner := c.time() > tieBand, c.j.bytes < c.p.bytes
	faster, leaner := pasetoFaster, pasetoLeaner
	if fmtName == "JWT" {
		faster, leaner = jwtFaster, jwtLeaner
	}
	check := func(ok bool) {
		of++
		if ok {
			held++
		}
	}
	if aspect != "memory" {
		check(faster)
	}
	if aspect != "speed" {
		check(leaner)
	}
	return held, of
}

func (c jwtPASETO) describe() string {
	if c.standIn != "" {
		return fmt.Sprintf("%s / %s of %s (stand-ins)", c.algs.jwt, c.algs.paseto, c.standIn)
	}
	return fmt.Sprintf("%s / %s", c.algs.jwt, c.algs.paseto)
}

// studyJWTPASETO is the JWT-vs-PASETO study's section.
func (r *report) studyJWTPASETO() *studySection {
	st := published.JWTvsPASETO
	s := &studySection{title: "JWT vs PASETO (mateothegreat/go-jwt-paseto)"}
	b := &s.body
	source(b, st.Source)
	their, standIn, sig := r.jwtPASETOPairs()
	b.WriteString(" Its payload types map to the lab's payload classes (docs/design.md): String → tiny, Simple Struct → small, Complex Struct → medium, Large Data → large, Very Large Data → verylarge. ")
	if standIn {
		b.WriteString("**The study's own package (mateothegreat) was not in this run** (the lab builds it only where its module can be downloaded; see the peers skipped, if any, above), so its claims are judged on the libraries it wraps, golang-jwt (v5 here, v4 in the package) and go-paseto, as stand-ins, and on signet. ")
	} else {
		b.WriteString("The study's claims are judged on its own package (the lab's peer mateothegreat) and on signet; where the package has no row (an algorithm or payload class it was not run at), golang-jwt and go-paseto, which it wraps, stand in, and the cell says so. ")
	}
	b.WriteString("Its packages sign ES256 and v4.public; where this run has no row of those algorithms (the lab's payload-size matrix runs HS256 and v4.local), a comparison takes HS256 and v4.local, and the column of algorithms says so. A ratio is PASETO's figure over JWT's (below 1: PASETO is faster or leaner), as time / B/op / allocs/op.\n\n")

	// The key rows.
	b.WriteString("| key operation | study JWT | study PASETO | study PASETO ÷ JWT | this run |\n|---|--:|--:|--:|---|\n")
	fmt.Fprintf(b, "| generation | %s ns | N/A | — | %s |\n", thousands(st.KeyGenJWT), r.keyGenHere())
	keyInit, keyInitRatio := r.keyInitHere(their)
	fmt.Fprintf(b, "| initialisation | %s ns | %s ns | %.2f× | %s |\n\n", thousands(st.KeyInitJWT), thousands(st.KeyInitPASETO), st.KeyInitPASETO/st.KeyInitJWT, keyInit)

	// The payload tables, one row per study row.
	fmt.Fprintf(b, "| op | payload (study → lab) | study JWT ns / B / allocs | study PASETO ns / B / allocs | study PASETO ÷ JWT | study's winner | %s: algs, PASETO ÷ JWT | winner here | signet: algs, PASETO ÷ JWT |\n|---|---|--:|--:|--:|---|--:|---|--:|\n", their.label)
	type rowResult struct {
		row   published.PayloadRow
		c     jwtPASETO
		ok    bool
		held  int
		parts int
	}
	var results []rowResult
	for _, row := range st.Rows {
		c, ok := r.compare(their, row.Op, row.Size, false)
		res := rowResult{row: row, c: c, ok: ok}
		here, win := "not measured", "—"
		if ok {
			res.held, res.parts = winnerHolds(row.Winner, c)
			here = fmt.Sprintf("%s: %s", c.describe(), ratios(c))
			win = winnerHere(c)
		}
		results = append(results, res)
		sigCell := "not measured"
		if sc, ok := r.compare(sig, row.Op, row.Size, false); ok {
			sigCell = fmt.Sprintf("%s: %s", sc.describe(), ratios(sc))
		}
		fmt.Fprintf(b, "| %s | %s → %s | %s / %s / %s | %s / %s / %s | %.2f× / %.2f× / %.2f× | %s | %s | %s | %s |\n",
			row.Op, row.Class, row.Size,
			thousands(row.JWT.Ns), thousands(row.JWT.Bytes), thousands(row.JWT.Allocs),
			thousands(row.PASETO.Ns), thousands(row.PASETO.Bytes), thousands(row.PASETO.Allocs),
			row.PASETO.Ns/row.JWT.Ns, row.PASETO.Bytes/row.JWT.Bytes, row.PASETO.Allocs/row.JWT.Allocs,
			row.Winner, here, win, sigCell)
	}
	b.WriteString("\n")

	// Concurrency.
	fmt.Fprintf(b, "| concurrency (b.RunParallel) | study JWT ns | study PASETO ns | study PASETO ÷ JWT | %s, GOMAXPROCS %d | signet, GOMAXPROCS %d |\n|---|--:|--:|--:|--:|--:|\n", their.label, maxProcs, maxProcs)
	var concFigs []float64
	concHeld, concOf := 0, 0
	for _, row := range st.Concurrency {
		cell := func(p formatPair) (string, float64) {
			c, ok := r.compare(p, row.Kind, "", true)
			if !ok {
				return "not measured", 0
			}
			return fmt.Sprintf("%s: %.2f×", c.describe(), c.time()), c.time()
		}
		here, t := cell(their)
		if t > 0 {
			concFigs = append(concFigs, t)
			concOf++
			if t*tieBand < 1 {
				concHeld++
			}
		}
		sigCell, _ := cell(sig)
		fmt.Fprintf(b, "| %s | %s | %s | %.2f× | %s | %s |\n", row.Op, thousands(row.JWT), thousands(row.PASETO), row.PASETO/row.JWT, here, sigCell)
	}
	b.WriteString("\n")

	// The claims.
	name := their.label
	if standIn {
		name = "the stand-ins"
	}
	s.claim("Key generation: JWT ~13,324 ns/op, PASETO \"N/A\" (winner: JWT)", untestable,
		"the study measured no PASETO key generation, so there is no comparison to repeat; this run's ES256 key generation: "+r.keyGenHere())
	if keyInitRatio > 0 {
		s.claim("Key initialisation: JWT ~14,339 vs PASETO ~27,460 ns/op, PASETO 1.92× slower (winner: JWT)", sizeVerdict([]float64{keyInitRatio}, st.KeyInitPASETO/st.KeyInitJWT, st.KeyInitPASETO/st.KeyInitJWT), keyInit)
	} else {
		s.claim("Key initialisation: JWT ~14,339 vs PASETO ~27,460 ns/op, PASETO 1.92× slower (winner: JWT)", untestable,
			"the lab initialises JWT keys (the KeyInit rows) and no PASETO ones, so the two cannot be set side by side in this run")
	}
	for _, op := range []string{"Sign", "Parse", "RoundTrip"} {
		var parts []string
		held, of := 0, 0
		for _, res := range results {
			if res.row.Op != op {
				continue
			}
			if !res.ok {
				parts = append(parts, res.row.Class+": not measured")
				continue
			}
			of++
			mark := "no"
			switch {
			case res.held == res.parts:
				held++
				mark = "yes"
			case res.held > 0:
				mark = "in part"
			}
			parts = append(parts, fmt.Sprintf("%s %s (%s)", res.row.Class, mark, winnerHere(res.c)))
		}
		var winners []string
		for _, row := range st.Rows {
			if row.Op == op {
				winners = append(winners, row.Class+": "+row.Winner)
			}
		}
		s.claim(fmt.Sprintf("%s table winners (%s)", op, strings.Join(winners, "; ")), countVerdict(held, of),
			fmt.Sprintf("%s, the study's winner holds in %d of %d rows measured — %s", name, held, of, strings.Join(parts, "; ")))
	}

	// The claims below need both formats' rows; without them each says so.
	if _, ok := r.compare(their, "Sign", "small", false); !ok {
		if _, ok := r.compare(sig, "Sign", "small", false); !ok {
			for _, c := range []string{"\"PASETO uses ~40–60% fewer allocations across all payload sizes\"", "\"For small/medium payloads, PASETO is significantly more memory-efficient\"",
				"\"For very large payloads, JWT is slightly more efficient\"", "\"PASETO beats JWT on memory\"", "\"JWT wins on large payloads\"",
				"\"PASETO handles concurrent operations more efficiently\"", "The payload-size recommendations (PASETO below 10 KB, JWT above)"} {
				s.claim(c, untestable, "this run measured no JWT and PASETO rows to compare (the lab ran with --format)")
			}
			return s
		}
	}

	// Allocations, memory.
	allocFewer := func(p formatPair) (figs []float64, sizes []string) {
		for _, row := range st.Rows {
			if c, ok := r.compare(p, row.Op, row.Size, false); ok && c.j.allocs > 0 {
				figs = append(figs, 1-c.allocs())
				if !slices.Contains(sizes, row.Size) {
					sizes = append(sizes, row.Size)
				}
			}
		}
		return figs, sizes
	}
	studyFewer := func(keep func(published.PayloadRow) bool, f func(published.PayloadRow) float64) []float64 {
		var out []float64
		for _, row := range st.Rows {
			if keep(row) {
				out = append(out, f(row))
			}
		}
		return out
	}
	all := func(published.PayloadRow) bool { return true }
	studyAllocs := studyFewer(all, func(row published.PayloadRow) float64 { return 1 - row.PASETO.Allocs/row.JWT.Allocs })
	theirs, sizes := allocFewer(their)
	sigFigs, _ := allocFewer(sig)
	s.claim("\"PASETO uses ~40–60% fewer allocations across all payload sizes\" (the study's own table: "+spanFewer(studyAllocs)+")", pctVerdict(theirs, 0.40, 0.60),
		fmt.Sprintf("%s, PASETO makes %s allocations than JWT over %d rows (%s); signet's PASETO %s than its JWT (%s)",
			name, spanFewer(theirs), len(theirs), strings.Join(sizes, ", "), spanFewer(sigFigs), pctVerdict(sigFigs, 0.40, 0.60)))

	memLess := func(p formatPair, keep func(string) bool) (figs []float64) {
		for _, row := range st.Rows {
			if !keep(row.Size) {
				continue
			}
			if c, ok := r.compare(p, row.Op, row.Size, false); ok && c.j.bytes > 0 {
				figs = append(figs, 1-c.bytes())
			}
		}
		return figs
	}
	smallMedium := func(size string) bool { return size == "tiny" || size == "small" || size == "medium" }
	studySM := studyFewer(func(row published.PayloadRow) bool { return smallMedium(row.Size) }, func(row published.PayloadRow) float64 { return 1 - row.PASETO.Bytes/row.JWT.Bytes })
	sm, smSig := memLess(their, smallMedium), memLess(sig, smallMedium)
	s.claim("\"For small/medium payloads, PASETO is significantly more memory-efficient\" (the study's own table: "+spanFewer(studySM)+" B/op)", lessVerdict(sm),
		fmt.Sprintf("%s, PASETO uses %s B/op than JWT (tiny to medium, every op); signet's: %s (%s)", name, spanFewer(sm), spanFewer(smSig), lessVerdict(smSig)))
	veryLarge := func(size string) bool { return size == "verylarge" }
	studyVL := studyFewer(func(row published.PayloadRow) bool { return veryLarge(row.Size) }, func(row published.PayloadRow) float64 { return 1 - row.PASETO.Bytes/row.JWT.Bytes })
	vl, vlSig := memLess(their, veryLarge), memLess(sig, veryLarge)
	negate := func(v []float64) []float64 {
		out := make([]float64, len(v))
		for i, x := range v {
			out[i] = -x
		}
		return out
	}
	s.claim("\"For very large payloads, JWT is slightly more efficient\" (in memory, the section's subject; the study's own table says otherwise: PASETO "+spanFewer(studyVL)+" B/op)", lessVerdict(negate(vl)),
		fmt.Sprintf("%s, at verylarge PASETO uses %s B/op than JWT; signet's: %s (%s)", name, spanFewer(vl), spanFewer(vlSig), lessVerdict(negate(vlSig))))
	every := func(string) bool { return true }
	mem, memSig := memLess(their, every), memLess(sig, every)
	s.claim("\"PASETO beats JWT on memory\" (the conclusion's \"Memory Efficiency: PASETO\")", lessVerdict(mem),
		fmt.Sprintf("%s, PASETO uses %s B/op than JWT over every row measured; signet's: %s (%s)", name, spanFewer(mem), spanFewer(memSig), lessVerdict(memSig)))

	// Large payloads: JWT faster at large and verylarge, sign and parse.
	largeFigs := func(p formatPair) (figs []float64) {
		for _, row := range st.Rows {
			if row.Size != "large" && row.Size != "verylarge" {
				continue
			}
			if c, ok := r.compare(p, row.Op, row.Size, false); ok {
				figs = append(figs, c.time())
			}
		}
		return figs
	}
	lg, lgSig := largeFigs(their), largeFigs(sig)
	s.claim("\"JWT wins on large payloads\" (\"Large Payload Performance: JWT\"; the study's PASETO takes 1.04–2.11× JWT's time at Large and Very Large)", fasterVerdict(lg),
		fmt.Sprintf("%s, PASETO takes %s JWT's time at large and verylarge, sign and parse; signet: %s (%s)", name, span(lg, times), span(lgSig, times), fasterVerdict(lgSig)))
	sigConc := []float64{}
	for _, row := range st.Concurrency {
		if c, ok := r.compare(sig, row.Kind, "", true); ok {
			sigConc = append(sigConc, c.time())
		}
	}
	concV := countVerdict(concHeld, concOf)
	concOurs := fmt.Sprintf("%s at GOMAXPROCS %d, PASETO takes %s JWT's time (%d of %d ops faster by more than 3 %%); signet: %s; the lab runs sign and verify in parallel, not the round trip", name, maxProcs, span(concFigs, times), concHeld, concOf, span(sigConc, times))
	if concOf == 0 {
		concOurs = "no parallel rows of these libraries in this run"
	}
	s.claim("\"PASETO handles concurrent operations more efficiently\" (the study: PASETO 0.71× JWT's time to sign, 0.97× to parse, 0.81× for the round trip)", concV, concOurs)

	// The payload-size advice.
	for _, adv := range st.Advice {
		var figs []float64
		for _, size := range adv.Sizes {
			for _, op := range []string{"Sign", "Parse"} {
				if c, ok := r.compare(their, op, size, false); ok {
					figs = append(figs, c.time())
				}
			}
		}
		v := fasterVerdict(figs)
		if adv.Recommended == "PASETO" {
			v = fasterVerdict(inverse(figs))
		}
		s.claim(fmt.Sprintf("Payload %s: %s recommended (\"%s\")", adv.Range, adv.Recommended, adv.Reason), v,
			fmt.Sprintf("%s at %s, PASETO takes %s JWT's time to sign and parse", name, strings.Join(adv.Sizes, " and "), span(figs, times)))
	}
	s.claim("Security, ease of use, \"Overall Performance: Tie\"", untestable, "not measurements; the security matrix above runs the attack corpus against every library")
	return s
}

// ratios formats a comparison's time, B/op and allocs/op ratios.
func ratios(c jwtPASETO) string {
	return fmt.Sprintf("%.2f× / %.2f× / %.2f×", c.time(), c.bytes(), c.allocs())
}

func inverse(v []float64) []float64 {
	out := make([]float64, 0, len(v))
	for _, x := range v {
		if x > 0 {
			out = append(out, 1/x)
		}
	}
	return out
}

// lessVerdict judges "X uses less memory" from the fractions X uses
// fewer of (positive: less): holds when every one is, notHolds when none.
func lessVerdict(figs []float64) string {
	held := 0
	for _, f := range figs {
		if f > 0 {
			held++
		}
	}
	return countVerdict(held, len(figs))
}

// fasterVerdict judges "JWT is faster" from PASETO's time over JWT's
// (orderVerdict).
func fasterVerdict(figs []float64) string { return orderVerdict(figs) }

// keyGenHere describes this run's ES256 key generation.
func (r *report) keyGenHere() string {
	s := r.find("JWT", "ES256", "", "KeyGen", "signet", false, 1)
	f := r.find("JWT", "ES256", "", "KeyGen", "floor", false, 1)
	if s == nil {
		return "not measured"
	}
	out := "signet " + fmtNs(s.median())
	if f != nil {
		out += ", the standard library's " + fmtNs(f.median())
	}
	if m := r.find("JWT", "ES256", "", "KeyGen", "mateothegreat", false, 1); m != nil {
		out += ", mateothegreat " + fmtNs(m.median())
	}
	return out
}

// keyInitHere compares this run's JWT and PASETO key initialisation of a
// pair and PASETO's time over JWT's, when the run has both (0 otherwise).
func (r *report) keyInitHere(p formatPair) (string, float64) {
	for _, a := range algPairs {
		j := r.find("JWT", a.jwt, "", "KeyInit", p.jwt, false, 1)
		pm := r.find("PASETO", a.paseto, "", "KeyInit", p.paseto, false, 1)
		if j == nil || pm == nil {
			continue
		}
		t := pm.median() / j.median()
		who := "JWT faster"
		switch {
		case level(t):
			who = "level"
		case t < 1:
			who = "PASETO faster"
		}
		return fmt.Sprintf("%s %s %s vs %s %s: PASETO %.2f× JWT's time (%s)", p.label, a.jwt, fmtNs(j.median()), a.paseto, fmtNs(pm.median()), t, who), t
	}
	if j := r.find("JWT", "ES256", "", "KeyInit", p.jwt, false, 1); j != nil {
		return fmt.Sprintf("%s ES256 %s; no PASETO key initialisation in the lab", p.jwt, fmtNs(j.median())), 0
	}
	return "not measured", 0
}
