package main

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/signet-go/signet/bench/lab"
	"github.com/signet-go/signet/bench/xlang"
)

// speedup is how many times faster signet is than lib on one case (0 when
// either is missing): the paired ratio of their rounds.
func (r *report) speedup(format, alg, size, op, lib string) float64 {
	s := r.find(format, alg, size, op, "signet", false, 1)
	p := r.find(format, alg, size, op, lib, false, 1)
	if s == nil || p == nil || s.median() == 0 {
		return 0
	}
	return pairedRatio(p, s)
}

// pairedRatio is a's time over b's: the median, over the rounds, of the
// ratio of a's and b's runs of the same round. The rounds of a group run
// back to back (A B C, A B C …), so the two runs of a pair are seconds
// apart and a slow spell of the machine between rounds cancels out, which
// a ratio of medians taken from different rounds would not do. Without
// matching rounds it is the ratio of the medians.
func pairedRatio(a, b *measurement) float64 {
	if len(a.ns) != len(b.ns) || len(a.ns) == 0 {
		return a.median() / b.median()
	}
	ratios := make([]float64, len(a.ns))
	for i := range a.ns {
		ratios[i] = a.ns[i] / b.ns[i]
	}
	return median(ratios)
}

// fastestPeer returns the fastest peer of a case and signet's speedup over
// it.
func (r *report) fastestPeer(format, alg, size, op string) (string, float64) {
	best, bestNs := "", 0.0
	for _, m := range r.ms {
		c := m.c
		if c.Format != format || c.Alg != alg || c.Size != size || c.Op != op || c.Parallel || c.Lib == "signet" || c.Lib == "floor" || m.failure != "" || len(m.ns) == 0 {
			continue
		}
		if best == "" || m.median() < bestNs {
			best, bestNs = c.Lib, m.median()
		}
	}
	if best == "" {
		return "", 0
	}
	return best, r.speedup(format, alg, size, op, best)
}

// ratioText writes a ratio judged against limit, with digits decimals
// or, where rounding to them would put the figure on the limit or across
// it when the ratio is not, as many more as it takes (up to 6): a row must
// not read 5.0× beside the ❌ of "≥ 5×" for a ratio of 4.96.
func ratioText(g, limit float64, digits int) string {
	for ; digits < 6; digits++ {
		if r := round(g, digits); (r < limit) == (g < limit) && (r > limit) == (g > limit) {
			break
		}
	}
	return strconv.FormatFloat(g, 'f', digits, 64) + "×"
}

func mark(ok bool) string {
	if ok {
		return "✅"
	}
	return "❌"
}

// writeTargets states the lab issue's targets against this run.
func (r *report) writeTargets(b *strings.Builder) {
	b.WriteString("## Targets\n\n| target | this run | |\n|---|---|---|\n")
	row := func(target, got string, ok bool) { fmt.Fprintf(b, "| %s | %s | %s |\n", target, got, mark(ok)) }
	for _, op := range []string{"Sign", "Verify"} {
		if g := r.speedup("JWT", "HS256", "", op, "golang-jwt"); g > 0 {
			row("HS256 "+strings.ToLower(op)+" ≥ 5× golang-jwt", ratioText(g, 5, 1), g >= 5)
		}
		if p, g := r.fastestPeer("JWT", "HS256", "", op); g > 0 {
			row("HS256 "+strings.ToLower(op)+" ≥ 3× the fastest peer", ratioText(g, 3, 1)+" ("+p+")", g >= 3)
		}
	}
	for _, op := range []string{"Encrypt", "Decrypt"} {
		if g := r.speedup("PASETO", "v4.local", "", op, "go-paseto"); g > 0 {
			row("PASETO v4.local "+strings.ToLower(op)+" ≥ 4× go-paseto", ratioText(g, 4, 1), g >= 4)
		}
	}
	for _, op := range []string{"Sign", "Verify"} {
		if p, g := r.fastestPeer("HTTPSig", "hmac-sha256", "", op); g > 0 {
			row("RFC 9421 HMAC "+strings.ToLower(op)+" ≥ 2× the fastest peer", ratioText(g, 2, 1)+" ("+p+")", g >= 2)
		}
	}
	r.claimsTargets(row)
	r.remote.targetRow(row)
	if len(r.xlang) == 0 {
		b.WriteString("| cross-language targets (signet vs jsonwebtoken, jjwt) | not run for this report: `make xlang`, then `make report` | — |\n")
	} else {
		for _, t := range xlang.Targets(r.xlang) {
			if !t.Judged {
				fmt.Fprintf(b, "| cross-language: %s | %s | — |\n", t.Name, t.Got)
				continue
			}
			row("cross-language: "+t.Name, t.Got, t.Met)
		}
	}
	// signet is fastest in a row only when the run shows it faster than
	// every peer, as a peer must be shown faster than signet (peerFaster,
	// the same test either way): by more than tieBand and in every round,
	// and not below the floor. A row where no library is shown faster
	// than the others is a tie, whichever median is ahead: a tie is
	// never counted as fastest. A peer counts as faster only when the run
	// can show it (peerFaster). On public-key rows the primitive is nearly
	// all of the cost and this machine's noise between rounds is of that
	// order; such rows are ties. The floor is the control: no library is
	// faster than the primitive it calls, so in a group where a library
	// beats the floor (belowFloor) the run cannot order the libraries,
	// and the row is a tie whichever way its medians fall. A peer faster
	// in the first pass and not in the confirmation pass's fresh rounds
	// (runner.run) is a tie as well.
	//
	// A tie meets the target only where signet is at its floor: its
	// median within tieBand of the floor's (nobody beats the primitive);
	// any other tie is listed as a miss, with signet's ratio to its floor
	// and the fastest peer's time over signet's.
	rows, fastest, tied, leaner := 0, 0, 0, 0
	var slower, ties, narrow, uncontrolled, unconfirmed, heavier, misses []string
	for _, m := range r.ms {
		c := m.c
		if c.Lib != "signet" || m.failure != "" || len(m.ns) == 0 {
			continue
		}
		peers := r.peersOf(m)
		if len(peers) == 0 {
			continue
		}
		rows++
		floor := r.floorOf(m)
		isFastest, isTie, isLeaner := floor == nil || !belowFloor(m, floor), true, true
		ahead := true // signet's paired ratio is below 1 against every peer
		control, notAgain := "", ""
		for _, p := range peers {
			if !peerFaster(p, m) { // not shown faster than this peer
				isFastest = false
			}
			if pairedRatio(m, p) >= 1 { // signet's time over the peer's
				ahead = false
			}
			switch {
			case !peerFaster(m, p):
			case !outpaces(m, p, floor): // faster, and faster than the floor
				control = fmt.Sprintf("%s, %.2f× the floor's time", p.c.Lib, pairedRatio(p, floor))
			case notConfirmed(m, p, floor):
				notAgain = fmt.Sprintf("%s: %.2f× signet's time in the first pass, %.2f× in the second", p.c.Lib, pairedRatio(p, m), pairedRatio(p.confirmation(), m.confirmation()))
			default:
				isTie = false
			}
			if p.bytes <= m.bytes && m.bytes > 0 {
				isLeaner = false
			}
		}
		name := c.Sub()
		if m.procs > 1 {
			name += fmt.Sprintf(" (GOMAXPROCS %d)", m.procs)
		}
		if !isFastest && isTie {
			if miss := r.tieMiss(m, peers); miss != "" {
				misses = append(misses, c.Format+" "+name+" ("+miss+")")
			}
		}
		switch {
		case isFastest:
			fastest++
		case isTie && control != "":
			tied++
			uncontrolled = append(uncontrolled, c.Format+" "+name+" ("+control+")")
		case isTie && notAgain != "":
			tied++
			unconfirmed = append(unconfirmed, c.Format+" "+name+" ("+notAgain+")")
		case isTie && ahead:
			tied++
			narrow = append(narrow, c.Format+" "+name)
		case isTie:
			tied++
			ties = append(ties, c.Format+" "+name)
		default:
			slower = append(slower, c.Format+" "+name)
		}
		if isLeaner {
			leaner++
		} else {
			heavier = append(heavier, c.Format+" "+name)
		}
	}
	row("signet fastest in every row; a tie only where signet is within 3% of its floor", fmt.Sprintf("%d of %d rows fastest (faster than every peer by more than 3%% in every round), %d ties at the floor (signet within 3%% of it), %d ties above the floor, %d slower", fastest, rows, tied-len(misses), len(misses), len(slower)), len(slower) == 0 && len(misses) == 0 && rows > 0)
	row("first on B/op in every row (fewer bytes per operation than every peer)", fmt.Sprintf("%d of %d rows", leaner, rows), leaner == rows && rows > 0)
	if r.sec != nil {
		n, rejected := r.sec.signetAttackTally()
		row("≥ 40 attack cases, signet rejects all with the intended error", fmt.Sprintf("%d cases, %d as intended", n, rejected), n >= 40 && rejected == n)
	}
	b.WriteString("\n")
	if len(slower) > 0 {
		fmt.Fprintf(b, "Rows where a peer is measurably faster (by more than 3%%, and in every round of both passes): %s.\n\n", strings.Join(slower, "; "))
	}
	if len(narrow) > 0 {
		fmt.Fprintf(b, "Ties where signet's median is ahead of every peer's, but not by more than 3%% in every round (or signet's own median is below its floor's), so not counted as fastest: %s.\n\n", strings.Join(narrow, "; "))
	}
	if len(ties) > 0 {
		fmt.Fprintf(b, "Ties — a peer's median is faster, but by less than 3%% or not in every round (p ≥ 1/16 that noise alone did it), or signet's own median is below its floor's: %s.\n\n", strings.Join(ties, "; "))
	}
	if len(uncontrolled) > 0 {
		fmt.Fprintf(b, "Ties by the floor control — a peer is faster in every round, but faster than the floor too, the primitive it calls, so this run cannot order these libraries: %s.\n\n", strings.Join(uncontrolled, "; "))
	}
	if len(unconfirmed) > 0 {
		fmt.Fprintf(b, "Ties by the confirmation pass — a peer was faster in every round of the first pass, and the fresh rounds of the second did not show it again: %s.\n\n", strings.Join(unconfirmed, "; "))
	}
	if len(misses) > 0 {
		fmt.Fprintf(b, "Ties that miss the target — no peer measurably faster, but signet more than 3%% above its floor (or with no floor to judge by), so a faster library is possible: %s.\n\n", strings.Join(misses, "; "))
	}
	if len(heavier) > 0 {
		fmt.Fprintf(b, "Rows where a peer allocates as few bytes or fewer: %s.\n\n", strings.Join(heavier, "; "))
	}
}

// tieMiss says why a tie of signet's m with its peers misses the target
// ("" when it does not): signet's time more than tieBand above its
// floor's (paired by round), or no floor to judge by; with the fastest peer's time over
// signet's.
func (r *report) tieMiss(m *measurement, peers []*measurement) string {
	best, bestRatio := "", 0.0
	for _, p := range peers {
		if q := pairedRatio(p, m); best == "" || q < bestRatio {
			best, bestRatio = p.c.Lib, q
		}
	}
	fr := r.pairedFloorRatio(m)
	switch {
	case fr == 0:
		return fmt.Sprintf("no floor to judge by; %s at %.2f× signet's time", best, bestRatio)
	case fr <= tieBand:
		return ""
	}
	return fmt.Sprintf("%.2f× its floor; %s at %.2f× signet's time", fr, best, bestRatio)
}

// targetGroup reports whether a target of the lab issue is judged on the
// group of case c at procs (writeTargets): HS256 sign and verify, PASETO
// v4.local encrypt and decrypt, RFC 9421 HMAC sign and verify, serial, on
// the default payload.
func targetGroup(c lab.Case, procs int) bool {
	if c.Parallel || procs != 1 || c.Size != "" {
		return false
	}
	switch c.Format + " " + c.Alg + " " + c.Op {
	case "JWT HS256 Sign", "JWT HS256 Verify",
		"PASETO v4.local Encrypt", "PASETO v4.local Decrypt",
		"HTTPSig hmac-sha256 Sign", "HTTPSig hmac-sha256 Verify":
		return true
	}
	return false
}

// tieBand is the paired ratio (signet's time over a peer's) up to which a
// row is a tie whatever the rounds say.
const tieBand = 1.03

// minSignRounds is the fewest rounds for which "faster in every round"
// means something: the chance that noise alone orders all of n paired
// rounds the peer's way is 2⁻ⁿ, 1/16 at four rounds (the quick run's),
// 1/32 at five (the full run's).
const minSignRounds = 4

// peerFaster reports whether this run shows peer p faster than signet's
// measurement s: a paired ratio above tieBand and, given enough rounds, p
// faster in each of them (a sign test over the paired rounds). With fewer
// rounds the ratio alone decides.
func peerFaster(s, p *measurement) bool {
	if pairedRatio(s, p) <= tieBand {
		return false
	}
	if len(s.ns) != len(p.ns) || len(s.ns) < minSignRounds {
		return true
	}
	for i := range s.ns {
		if p.ns[i] >= s.ns[i] {
			return false
		}
	}
	return true
}

// outpaces reports whether rounds show peer p faster than signet's s
// (peerFaster) with the floor f of their group, nil when it has none, not
// beaten as well: a library faster than the primitive it calls is the
// machine's noise, not a faster library.
func outpaces(s, p, f *measurement) bool {
	if s == nil || p == nil {
		return false
	}
	return peerFaster(s, p) && (f == nil || !belowFloor(p, f))
}

// notConfirmed reports whether the confirmation pass measured signet's s
// and peer p again, complete, and did not show p faster (outpaces; with
// the floor f's second rounds as the control, when it has them). Without
// a complete second pass the first pass's verdict stands.
func notConfirmed(s, p, f *measurement) bool {
	sc, pc := s.confirmation(), p.confirmation()
	if sc == nil || pc == nil || len(sc.ns) != len(pc.ns) {
		return false
	}
	return !outpaces(sc, pc, f.confirmation())
}

// belowFloor reports whether m is faster than the floor f by more than
// tieBand, by their paired rounds.
func belowFloor(m, f *measurement) bool { return pairedRatio(m, f)*tieBand < 1 }

// floorOf returns the floor of m's group, nil when it has none.
func (r *report) floorOf(m *measurement) *measurement {
	return r.floors[groupKey(m.c, m.procs)]
}

// peersOf returns the peers' measurements of signet's case.
func (r *report) peersOf(m *measurement) []*measurement {
	var out []*measurement
	for _, p := range r.ms {
		if p.c.Lib == "signet" || p.c.Lib == "floor" || p.failure != "" || len(p.ns) == 0 {
			continue
		}
		if groupKey(p.c, p.procs) == groupKey(m.c, m.procs) {
			out = append(out, p)
		}
	}
	return out
}

// floorTimes is signet's time over its floor's on one case, paired by
// round (0 when either is missing).
func (r *report) floorTimes(format, alg, size, op string) float64 {
	s := r.find(format, alg, size, op, "signet", false, 1)
	if s == nil || s.failure != "" {
		return 0
	}
	return r.pairedFloorRatio(s)
}

// pairedFloorRatio is m's time over its floor's, paired by round as every
// ratio the targets judge (a slow spell of the machine between rounds
// cancels out); 0 without a floor.
func (r *report) pairedFloorRatio(m *measurement) float64 {
	f := r.floorOf(m)
	if f == nil || f.median() == 0 {
		return 0
	}
	return pairedRatio(m, f)
}

// claimsTargets states issue 18's targets for claims with their own
// fields, payload sizes, v4.local and key initialisation.
func (r *report) claimsTargets(row func(target, got string, ok bool)) {
	for _, op := range []string{"Sign", "Verify"} {
		for _, size := range []string{"small", "medium", "large", "verylarge"} {
			g := r.floorTimes("JWT", "HS256", size, op)
			if g == 0 {
				continue
			}
			floor := "the HMAC floor"
			if size != "small" {
				floor = "the floor of HMAC and base64url"
			}
			row(fmt.Sprintf("HS256 %s, payload %s, ≤ 3× %s", strings.ToLower(op), size, floor), ratioText(g, 3, 2), g <= 3)
		}
	}
	for _, t := range []struct {
		op   string
		want float64
	}{{"Sign", 3}, {"Verify", 4}} {
		if g := r.floorTimes("JWT", "HS256", "typed", t.op); g > 0 {
			row(fmt.Sprintf("HS256 %s of a user's struct (payload typed) ≤ %g× the floor", strings.ToLower(t.op), t.want), ratioText(g, t.want, 2), g <= t.want)
		}
		if g := r.speedup("JWT", "HS256", "typed", t.op, "golang-jwt"); g > 0 {
			row(fmt.Sprintf("HS256 %s of a user's struct (payload typed) ≥ 5× golang-jwt", strings.ToLower(t.op)), ratioText(g, 5, 1), g >= 5)
		}
	}
	for _, op := range []string{"Encrypt", "Decrypt"} {
		worst, at := 0.0, ""
		// The sizes (the studies'); "typed" is judged on JWT.
		for _, size := range []string{"tiny", "small", "medium", "large", "verylarge"} {
			if g := r.floorTimes("PASETO", "v4.local", size, op); g > worst {
				worst, at = g, size
			}
		}
		if worst > 0 {
			row("PASETO v4.local "+strings.ToLower(op)+" ≤ 1.5× its primitives at every size", "at most "+ratioText(worst, 1.5, 2)+" ("+at+")", worst <= 1.5)
		}
	}
	if g := r.floorTimes("JWT", "HS256", "", "KeyInit"); g > 0 {
		row("HS256 key initialisation ≤ 2× its floor", ratioText(g, 2, 2), g <= 2)
	}
}
