package main

import (
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/signet-go/signet/bench/lab"
)

// The studies' own libraries (bench/studies) are peers like the others,
// but their modules come from a module proxy beside the clone
// (../shared/goproxy), not from go.mod: the lab is built with them by
// `go build -modfile=studies.mod -tags studies` (scripts/lab.sh), and
// without them otherwise. A run without them says so, with the reason,
// in REPORT.md, results.json and on stderr.

// skippedPeer is a library the run left out, and why.
type skippedPeer struct {
	Format, Lib, Reason string
}

// studiesLibs are the studies' libraries by format: what a build
// without them leaves out.
func studiesLibs() []skippedPeer {
	return []skippedPeer{{Format: "JWT", Lib: "mateothegreat"}, {Format: "PASETO", Lib: "mateothegreat"}, {Format: "HTTPSig", Lib: "forcebit"}}
}

// runPeers returns the run's libraries, DefaultPeers and the studies'
// when built with them, and the peers left out. skipped is the
// --skipped flag, "names: reason" (scripts/lab.sh, when the studies'
// build failed or their proxy is absent): the reason given for leaving
// them out, instead of the build's own.
func runPeers(skipped string) (lab.Peers, []skippedPeer, error) {
	extra, why := studiesPeers()
	peers := lab.DefaultPeers().Add(extra)
	if skipped != "" {
		if why == "" {
			return peers, nil, fmt.Errorf("--skipped %q: this build includes the studies' libraries", skipped)
		}
		_, reason, ok := strings.Cut(skipped, ": ")
		if !ok || strings.TrimSpace(reason) == "" {
			return peers, nil, fmt.Errorf("--skipped %q: want \"names: reason\"", skipped)
		}
		why = strings.TrimSpace(reason)
	}
	if why == "" {
		return peers, nil, nil
	}
	out := studiesLibs()
	for i := range out {
		out[i].Reason = why
	}
	return peers, out, nil
}

// skippedText is one line naming the skipped peers, by library, with
// their formats and reasons: "forcebit (HTTPSig), mateothegreat (JWT,
// PASETO): built without the studies' modules".
func skippedText(s []skippedPeer) string {
	var reasons []string
	for _, p := range s {
		if !slices.Contains(reasons, p.Reason) {
			reasons = append(reasons, p.Reason)
		}
	}
	return libsText(s) + ": " + strings.Join(reasons, "; ")
}

// libsText names peers by library, with their formats: "forcebit
// (HTTPSig), mateothegreat (JWT, PASETO)".
func libsText(s []skippedPeer) string {
	var libs []string
	formats := map[string][]string{}
	for _, p := range s {
		if _, ok := formats[p.Lib]; !ok {
			libs = append(libs, p.Lib)
		}
		formats[p.Lib] = append(formats[p.Lib], p.Format)
	}
	slices.Sort(libs)
	var parts []string
	for _, l := range libs {
		parts = append(parts, fmt.Sprintf("%s (%s)", l, strings.Join(formats[l], ", ")))
	}
	return strings.Join(parts, ", ")
}

// writeSkipped writes REPORT.md's line on the peers the run left out
// (nothing when it left none out).
func writeSkipped(w io.Writer, s []skippedPeer) {
	if len(s) == 0 {
		return
	}
	fmt.Fprintf(w, "**Peers skipped.** %s (scripts/lab.sh builds them with `../shared/goproxy`; bench/README.md).\n\n", skippedText(s))
}

// skippedRecords are results.json's records of the skipped peers: suite
// "lab-skipped", the format and library, the reason in error.
func skippedRecords(s []skippedPeer) []record {
	var out []record
	for _, p := range s {
		out = append(out, record{Suite: "lab-skipped", Format: p.Format, Lib: p.Lib, Lang: "go", Error: p.Reason})
	}
	return out
}
