package main

import (
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/signet-go/signet/bench/lab"
)

// The remote key sets section (lab.RunRemote): each library's remote JWKS
// cache against a hostile JWKS server, judged by signet's defaults.

// remoteKeys is the section's run: its size and results.
type remoteKeys struct {
	opts    lab.RemoteOptions
	results []lab.RemoteResult
}

// remoteOptions sizes the section per mode: the Target's 10,000 tokens in
// 10 s for --full, the same tokens in 5 s (twice the rate) for --quick.
func remoteOptions(mode string, progress io.Writer) lab.RemoteOptions {
	o := lab.RemoteOptions{Tokens: 10000, Duration: 10 * time.Second, Workers: 32, FetchDelay: 50 * time.Millisecond, MaxStale: time.Second, StartWait: 5 * time.Second, Progress: progress}
	if mode == "quick" {
		o.Duration, o.StartWait = 5*time.Second, 3*time.Second
	}
	return o
}

func runRemote(cfg config, progress io.Writer) (*remoteKeys, error) {
	o := remoteOptions(cfg.mode, progress)
	rs, err := lab.RunRemote(o)
	if err != nil {
		return nil, err
	}
	return &remoteKeys{opts: o, results: rs}, nil
}

// remoteRecord is one line of results.json for the section: suite
// "remote-keys", op the scenario, and its outcome with the figures
// (docs/design.md's p50_ms and p99_ms for the flood lookups' latency).
type remoteRecord struct {
	Suite  string `json:"suite"`
	Format string `json:"format"`
	Alg    string `json:"alg"`
	Op     string `json:"op"`
	Lib    string `json:"lib"`
	Lang   string `json:"lang"`
	lab.RemoteResult
	// Case duplicates Op inside RemoteResult; it is left out here.
	Case string `json:"case,omitempty"`
}

func (k *remoteKeys) records() []remoteRecord {
	if k == nil {
		return nil
	}
	out := make([]remoteRecord, 0, len(k.results))
	for _, r := range k.results {
		out = append(out, remoteRecord{Suite: "remote-keys", Format: "JWT", Alg: "ES256", Op: r.Case, Lib: r.Lib, Lang: "go", RemoteResult: r})
	}
	return out
}

// find returns lib's result for the scenario id.
func (k *remoteKeys) find(lib, id string) (lab.RemoteResult, bool) {
	for _, r := range k.results {
		if r.Lib == lib && r.Case == id {
			return r, true
		}
	}
	return lab.RemoteResult{}, false
}

// libs lists the libraries of the run in RemoteLibs' order.
func (k *remoteKeys) libs() []lab.RemoteLib {
	var out []lab.RemoteLib
	for _, l := range lab.RemoteLibs() {
		for _, r := range k.results {
			if r.Lib == l.Name() {
				out = append(out, l)
				break
			}
		}
	}
	return out
}

// fetches is "1 fetch" or "n fetches".
func fetches(n int64) string {
	if n == 1 {
		return "1 fetch"
	}
	return fmt.Sprintf("%d fetches", n)
}

// remoteCell is a table cell: the outcome and its figure.
func remoteCell(r lab.RemoteResult) string {
	out := map[string]string{lab.RemotePass: "pass", lab.RemoteFail: "**fail**", lab.RemoteNA: "n/a"}[r.Outcome]
	switch r.Case {
	case "kid-flood-fetches":
		out += fmt.Sprintf(": %s / %d tokens", fetches(r.Fetches), r.Tokens)
		if r.Accepted > 0 {
			out += fmt.Sprintf(", **%d accepted**", r.Accepted)
		}
	case "kid-flood-latency":
		out += fmt.Sprintf(": valid p99 %.2f ms (%.2f before); flood lookups held %d, max %.1f ms", r.ValidP99Ms, r.BaseP99Ms, r.Held, r.MaxMs)
		if r.ValidFailed > 0 {
			out += fmt.Sprintf(", **%d valid refused**", r.ValidFailed)
		}
	}
	return out
}

// targetRow is the Targets table's row for the flood, judged on signet's
// result.
func (k *remoteKeys) targetRow(row func(target, got string, ok bool)) {
	if k == nil {
		return
	}
	if r, ok := k.find("signet", "kid-flood-fetches"); ok {
		row(fmt.Sprintf("kid flood: %d tokens with random kids in %.0f s → ≤ ⌈T / 30 s⌉ + 1 = %d fetches", k.opts.Tokens, k.opts.Duration.Seconds(), r.Bound),
			fmt.Sprintf("%s (%d tokens sent)", fetches(r.Fetches), r.Tokens), r.Outcome == lab.RemotePass)
	}
	if r, ok := k.find("signet", "kid-flood-latency"); ok {
		row("kid flood: valid tokens keep their latency", fmt.Sprintf("p50/p99 %.2f/%.2f ms (before %.2f/%.2f)", r.ValidP50Ms, r.ValidP99Ms, r.BaseP50Ms, r.BaseP99Ms), r.Outcome == lab.RemotePass)
	}
}

// write adds the section to the report.
func (k *remoteKeys) write(b *strings.Builder) {
	if k == nil || len(k.results) == 0 {
		return
	}
	o := k.opts
	libs := k.libs()
	b.WriteString("## Remote key sets (JWKS caches)\n\n")
	fmt.Fprintf(b, `Each library's cache of a remote JWK Set, as an application sets it up
with the library's defaults (below), against a hostile JWKS server on
127.0.0.1 that counts the requests it receives and answers each after
%v (an identity provider's round trip). Tokens are ES256 with iss, aud
and exp; each verifier is configured for ES256, the issuer and the
audience. **Kid flood**: %d tokens with random kids, signed by an
attacker's key, sent over T = %v by %d concurrent verifiers while a
prober verifies a valid token every 5 ms; the fetches counted are those
the flood caused (not the start-up fetch), and the bound is signet's:
⌈T / 30 s⌉ + 1 = %d. A lookup "held" took at least the server's answer
time: it waited for a fetch. The outage-bound case sets a staleness bound
of %v where the library has one. Outcomes are judged by signet's
defaults (docs/design.md, 7b): a peer that fails a row does what its
documentation says; the row shows where it differs.

`, o.FetchDelay, o.Tokens, o.Duration, o.Workers, lab.FloodBound(o.Duration), o.MaxStale)
	b.WriteString("| case | ")
	for _, l := range libs {
		b.WriteString(l.Name() + " | ")
	}
	b.WriteString("\n|---|" + strings.Repeat("---|", len(libs)) + "\n")
	for _, c := range lab.RemoteCases {
		fmt.Fprintf(b, "| %s |", c.Title)
		for _, l := range libs {
			r, ok := k.find(l.Name(), c.ID)
			if !ok {
				b.WriteString(" — |")
				continue
			}
			fmt.Fprintf(b, " %s |", remoteCell(r))
		}
		b.WriteString("\n")
	}
	b.WriteString("\n**Fetches under the flood** (the JWKS server's count while it lasted): ")
	var counts []string
	for _, l := range libs {
		if r, ok := k.find(l.Name(), "kid-flood-fetches"); ok {
			counts = append(counts, fmt.Sprintf("%s %d for %d tokens in %.1f s", l.Name(), r.Fetches, r.Tokens, r.Seconds))
		}
	}
	b.WriteString(strings.Join(counts, "; ") + ".\n\n")
	b.WriteString(`Reading the table: few fetches under the flood are a pass only with the
rest of the column. A cache that never refetches on an unknown kid causes
no fetch, and fails the rotation row: a key rotated in is seen only at its
next scheduled refresh (minutes to hours later); one that refetches on
every miss turns each forged token into a request to the identity
provider and holds the caller for it. An outage row passes when the cached key keeps verifying;
the bound row asks whether the library can then stop, after a bound, and
say "unavailable" (a 503) rather than serve a stale set forever or call
every token invalid (a 401). Redirects and the 10 MiB body are refused by
signet's defaults (no redirects, a 1 MiB cap); a peer that follows or
reads them is marked, though its documentation allows it.

### What passes

`)
	for _, c := range lab.RemoteCases {
		fmt.Fprintf(b, "- **%s**: %s.\n", c.Title, c.Pass)
	}
	b.WriteString("\n### Each library's defaults, as run\n\n")
	for _, l := range libs {
		fmt.Fprintf(b, "- **%s**: %s.\n", l.Name(), l.Defaults())
	}
	b.WriteString("\n### Details\n\n")
	for _, l := range libs {
		fmt.Fprintf(b, "**%s**\n\n", l.Name())
		for _, c := range lab.RemoteCases {
			if r, ok := k.find(l.Name(), c.ID); ok {
				fmt.Fprintf(b, "- %s (%s): %s.\n", c.Title, r.Outcome, strings.TrimSuffix(r.Detail, "."))
			}
		}
		b.WriteString("\n")
	}
}
