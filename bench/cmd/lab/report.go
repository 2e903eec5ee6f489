package main

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/signet-go/signet/bench/lab"
)

// find returns the measurement of one case, or nil.
func (r *report) find(format, alg, size, op, lib string, parallel bool, procs int) *measurement {
	for _, m := range r.ms {
		c := m.c
		if c.Format == format && c.Alg == alg && c.Size == size && c.Op == op && c.Lib == lib && c.Parallel == parallel && m.procs == procs && m.failure == "" && len(m.ns) > 0 {
			return m
		}
	}
	return nil
}

// libs lists the libraries measured for a format, signet first, in the
// adapters' order, and the floor last.
func (r *report) libs(format string) []string {
	order := r.cfg.peers.Names(format)
	var out []string
	for _, l := range order {
		for _, m := range r.ms {
			if m.c.Format == format && m.c.Lib == l && !slices.Contains(out, l) {
				out = append(out, l)
			}
		}
	}
	return append(out, "floor")
}

// algsOf lists the algorithms measured for a format, in the lab's order.
func (r *report) algsOf(format string, all []string) []string {
	var out []string
	for _, a := range all {
		for _, m := range r.ms {
			if m.c.Format == format && m.c.Alg == a && m.c.Size == "" {
				out = append(out, a)
				break
			}
		}
	}
	return out
}

func fmtNs(ns float64) string {
	switch {
	case ns >= 1e6:
		return fmt.Sprintf("%.2f ms", ns/1e6)
	case ns >= 1e4:
		return fmt.Sprintf("%.1f µs", ns/1e3)
	case ns >= 1e3:
		return fmt.Sprintf("%.2f µs", ns/1e3)
	}
	return fmt.Sprintf("%.0f ns", ns)
}

// timeTable writes one table: rows are algorithms (or sizes), columns the
// libraries; a cell is ns/op and, for a peer, its time over signet's.
func (r *report) timeTable(b *strings.Builder, format, op string, rows []string, bySize bool, alg string) {
	libs := r.libs(format)
	fmt.Fprintf(b, "| %s | %s |\n|---|%s\n", map[bool]string{true: "size", false: "alg"}[bySize], strings.Join(libs, " | "), strings.Repeat("---:|", len(libs)))
	for _, row := range rows {
		a, size := row, ""
		if bySize {
			a, size = alg, row
		}
		sig := r.find(format, a, size, op, "signet", false, 1)
		cells := make([]string, 0, len(libs))
		any := false
		for _, l := range libs {
			m := r.find(format, a, size, op, l, false, 1)
			if m == nil {
				cells = append(cells, "—")
				continue
			}
			any = true
			cell := fmtNs(m.median())
			if l != "signet" && l != "floor" && sig != nil {
				cell += fmt.Sprintf(" (%.1f×)", m.median()/sig.median())
			}
			if l == "signet" {
				if fr := r.floorRatio(m); fr > 0 {
					cell = fmt.Sprintf("**%s** (%.2f× floor)", cell, fr)
				}
			}
			cells = append(cells, cell)
		}
		if any {
			fmt.Fprintf(b, "| %s | %s |\n", row, strings.Join(cells, " | "))
		}
	}
	b.WriteString("\n")
}

// memTable writes B/op and allocs/op per library.
func (r *report) memTable(b *strings.Builder, format string, ops, algs []string) {
	libs := r.libs(format)
	fmt.Fprintf(b, "| alg / op | %s |\n|---|%s\n", strings.Join(libs, " | "), strings.Repeat("---:|", len(libs)))
	for _, a := range algs {
		for _, op := range ops {
			cells := make([]string, 0, len(libs))
			any := false
			for _, l := range libs {
				m := r.find(format, a, "", op, l, false, 1)
				if m == nil {
					cells = append(cells, "—")
					continue
				}
				any = true
				cells = append(cells, fmt.Sprintf("%d B / %d", m.bytes, m.allocs))
			}
			if any {
				fmt.Fprintf(b, "| %s %s | %s |\n", a, op, strings.Join(cells, " | "))
			}
		}
	}
	b.WriteString("\n")
}

// parallelTable writes ops/s at GOMAXPROCS 1 and 2.
func (r *report) parallelTable(b *strings.Builder, format, alg string, ops []string) {
	libs := r.libs(format)
	fmt.Fprintf(b, "| op, GOMAXPROCS | %s |\n|---|%s\n", strings.Join(libs, " | "), strings.Repeat("---:|", len(libs)))
	for _, op := range ops {
		for _, procs := range []int{1, 2} {
			cells := make([]string, 0, len(libs))
			any := false
			for _, l := range libs {
				m := r.find(format, alg, "", op, l, true, procs)
				if m == nil {
					cells = append(cells, "—")
					continue
				}
				any = true
				cells = append(cells, fmt.Sprintf("%.0fk/s", 1e6/m.median()))
			}
			if any {
				fmt.Fprintf(b, "| %s %s, %d | %s |\n", alg, op, procs, strings.Join(cells, " | "))
			}
		}
	}
	b.WriteString("\n")
}

// writeMarkdown writes REPORT.md.
func (r *report) writeMarkdown(path string, charts []chart) error {
	var b strings.Builder
	e := r.env
	fmt.Fprintf(&b, "# signet lab report\n\n%s run of %s, finished %s.\n\n", r.cfg.mode, r.started.UTC().Format("2006-01-02 15:04 MST"), time.Now().UTC().Format("15:04 MST"))
	fmt.Fprintf(&b, "**Machine.** %s, %d logical CPUs, %.1f GiB, %s, %s.\n\n", e.CPU, e.Cores, e.MemGiB, e.OS, e.Go)
	b.WriteString("**Libraries.**")
	for _, d := range e.Deps {
		fmt.Fprintf(&b, " %s %s;", d[0], d[1])
	}
	b.WriteString("\n\n")
	writeSkipped(&b, r.cfg.skipped)
	if _, err := os.Stat(filepath.Join(filepath.Dir(path), "HTTP.md")); err == nil {
		b.WriteString("**The HTTP lab** (`make load`: signet serve, signet guard and the study's handlers under wrk, faults under load, a model of scale): [HTTP.md](HTTP.md).\n\n")
	}
	if r.cfg.section == "remote-keys" {
		r.remote.write(&b)
		return os.WriteFile(path, []byte(b.String()), 0o644)
	}
	fmt.Fprintf(&b, `## Method

Every library works through a small adapter (bench/lab) and signs and
verifies the same claims with the same keys. Each case runs in %d rounds
of %v (the rows the targets are judged on in %d); rounds are interleaved within a group (signet, each peer and the
floor, then again, each round rotated by one: A B C, B C A, …) so that a
slow spell of this shared machine falls on all of them alike, and the
table shows the **median** of the rounds. Targets and the fastest-row
count compare signet with a peer **round by round**: the median of the
ratios of their runs in the same round, seconds apart (a ratio of medians
would pair runs minutes apart). A peer counts as faster than signet in a
row only when the run shows it: by more than 3%% and in every round (a
sign test: noise alone orders four paired rounds one way with chance
1/16, five with 1/32); other rows where a peer's median is ahead are
listed as ties. The target asks signet to be fastest in every row, a tie
counting only where signet's median is within 3%% of its floor's (nobody
beats the primitive): other ties are listed as misses, with signet's
ratio to its floor; and to be first on B/op in every row. A run makes hundreds of such comparisons, and between
equals one in 32 comes out "faster in every round" by chance (one in 16
at four rounds), so a group where a peer looks faster is measured again
in as many fresh rounds (the **confirmation pass**): the peer counts as
faster only when the second pass shows it too, and what it does not
confirm is listed. The floor is the control: no library is faster than
the primitive it calls, so where a library beats its floor by more than
3%% the run cannot order that row's libraries and the row is a tie,
listed with the figure. The **floor** is the raw primitive on input of the same size
(JWT: the signing input of the same token, HMAC on a reused keyed state, plus base64url coding of the payload segment for the medium and larger payloads;
PASETO: the spec's mandatory cryptography; RFC 9421: the primitive over a
signature base of the same length, HMAC on a reused keyed state as
for JWT; docs/design.md defines each floor). A peer's cell shows its time and, in brackets, that time over
signet's; signet's shows its ratio to the floor. B/op and allocs/op are
exact. Verification always checks the signature, the algorithm and the
expiry, and decodes the claims. Forged: a token with one signature bit
flipped, which every library must refuse.

`, r.cfg.rounds, r.cfg.benchtime, max(r.cfg.rounds, r.cfg.targetRounds))
	r.writeTargets(&b)

	jwtAlgs := r.algsOf("JWT", lab.JWSAlgs)
	if len(jwtAlgs) > 0 {
		b.WriteString("## JWT (claims of ~200 bytes)\n\n")
		for _, op := range []string{"Sign", "Verify", "RoundTrip", "Forged"} {
			fmt.Fprintf(&b, "### %s\n\n", op)
			r.timeTable(&b, "JWT", op, jwtAlgs, false, "")
		}
		b.WriteString("### Key initialisation (binding the library to a key)\n\n")
		r.timeTable(&b, "JWT", "KeyInit", jwtAlgs, false, "")
		b.WriteString("### Key generation (signet's GenerateKey; floor: the standard library's generator)\n\n")
		r.timeTable(&b, "JWT", "KeyGen", jwtAlgs, false, "")
		b.WriteString("### Memory per operation (B/op / allocs/op)\n\n")
		r.memTable(&b, "JWT", []string{"Sign", "Verify"}, jwtAlgs)
		b.WriteString("### Payload size (HS256)\n\n")
		for _, op := range []string{"Sign", "Verify"} {
			fmt.Fprintf(&b, "%s:\n\n", op)
			r.timeTable(&b, "JWT", op, lab.Sizes, true, "HS256")
		}
		b.WriteString("### Concurrency (HS256, b.RunParallel)\n\n")
		r.parallelTable(&b, "JWT", "HS256", []string{"Sign", "Verify"})
	}
	pasetoAlgs := r.algsOf("PASETO", lab.Purposes)
	if len(pasetoAlgs) > 0 {
		b.WriteString("## PASETO\n\n")
		for _, op := range []string{"Encrypt", "Decrypt", "Sign", "Verify", "RoundTrip", "Forged"} {
			fmt.Fprintf(&b, "### %s\n\n", op)
			r.timeTable(&b, "PASETO", op, pasetoAlgs, false, "")
		}
		b.WriteString("### Memory per operation\n\n")
		r.memTable(&b, "PASETO", []string{"Encrypt", "Decrypt", "Sign", "Verify"}, pasetoAlgs)
		b.WriteString("### Payload size (v4.local)\n\n")
		for _, op := range []string{"Encrypt", "Decrypt"} {
			fmt.Fprintf(&b, "%s:\n\n", op)
			r.timeTable(&b, "PASETO", op, lab.Sizes, true, "v4.local")
		}
		b.WriteString("### Concurrency (v4.local)\n\n")
		r.parallelTable(&b, "PASETO", "v4.local", []string{"Encrypt", "Decrypt"})
	}
	r.writeJWE(&b)
	r.writeJWEvsPASETO(&b)
	hsAlgs := r.algsOf("HTTPSig", lab.HTTPSigAlgs)
	if len(hsAlgs) > 0 {
		b.WriteString("## HTTP Message Signatures (RFC 9421)\n\nA JSON POST covering @method, @authority, @path and content-type, with created and keyid.\n\n")
		for _, op := range []string{"Sign", "Verify"} {
			fmt.Fprintf(&b, "### %s\n\n", op)
			r.timeTable(&b, "HTTPSig", op, hsAlgs, false, "")
		}
		b.WriteString("### Memory per operation\n\n")
		r.memTable(&b, "HTTPSig", []string{"Sign", "Verify"}, hsAlgs)
		b.WriteString("### Concurrency (hmac-sha256)\n\n")
		r.parallelTable(&b, "HTTPSig", "hmac-sha256", []string{"Sign", "Verify"})
	}
	if err := r.writeXlang(&b); err != nil {
		return err
	}
	if len(charts) > 0 {
		b.WriteString("## Charts\n\n")
		for _, c := range charts {
			fmt.Fprintf(&b, "![%s](%s)\n\n", c.title, c.svg)
		}
	}
	r.writeSecurity(&b)
	r.remote.write(&b)
	r.writeStudies(&b)
	r.writeFailures(&b)
	return os.WriteFile(path, []byte(b.String()), 0o644)
}

// writeFailures lists cases that panicked (a library that failed mid-run).
func (r *report) writeFailures(b *strings.Builder) {
	var lines []string
	for _, m := range r.ms {
		if m.failure != "" {
			lines = append(lines, fmt.Sprintf("- %s: %s", m.c.Name(), m.failure))
		}
		if m.confirmFailure != "" {
			lines = append(lines, fmt.Sprintf("- %s, in the confirmation pass (the first pass's rounds stand): %s", m.c.Name(), m.confirmFailure))
		}
	}
	if len(lines) > 0 {
		b.WriteString("## Cases that failed during the run\n\n" + strings.Join(lines, "\n") + "\n\n")
	}
}
