package main

import (
	"bytes"
	"fmt"

	"github.com/signet-go/signet/bench/published"
)

// studySource names the study.
var studySource = "\"" + published.QPS.Source.Title + "\", the third study of the project's seeds"

// studyFigures are the study's requests/s, as printed (package published
// holds the transcription, which the lab's report uses too).
var studyFigures = published.QPS.Figures

// studySection writes the study's figures beside this run's.
func (r *report) studySection(b *bytes.Buffer) {
	fmt.Fprintf(b, "## The study's figures beside this run\n\n")
	fmt.Fprintf(b, "Source: %s. Its figures are transcribed as printed; its machine had 8 cores and did not pin the server (ours: one core for the server, one for wrk), so compare ratios, not requests/s. Its §4.3 (Node.js signing rates) and §4.4 (AES payload sizes) measure other things and are left out.\n\n", studySource)
	fmt.Fprintf(b, "| alg | study req/s | where | this run: golang-jwt issue | signet issue | signet / golang-jwt | study's alg / its HS256 | ours (signet) alg / HS256 |\n|---|--:|---|--:|--:|--:|--:|--:|\n")
	var hsStudy float64
	for _, f := range studyFigures {
		if f.Table == "ch1" && f.Alg == "HS256" {
			hsStudy = f.QPS
		}
	}
	var hsOurs float64
	if m := r.find("issue/HS256/signet"); m != nil && m.Rounds > 0 {
		hsOurs = m.RPS
	}
	for _, f := range studyFigures {
		gj, sg := r.rps("issue/"+f.Alg+"/golang-jwt"), r.rps("issue/"+f.Alg+"/signet")
		rel := "–"
		if f.Table == "ch1" && hsStudy > 0 {
			rel = fmt.Sprintf("%.2f", f.QPS/hsStudy)
		}
		ours := "–"
		if f.Table == "ch1" && hsOurs > 0 && sg > 0 {
			ours = fmt.Sprintf("%.2f", sg/hsOurs)
		}
		fmt.Fprintf(b, "| %s | %s | %s | %s | %s | %s | %s | %s |\n", f.Alg, fmtRPS(f.QPS), f.Note, orDash(gj, fmtRPS), orDash(sg, fmtRPS), ratioOrDash(sg, gj), rel, ours)
	}
	fmt.Fprintln(b)
}

// rps returns a scenario's median requests/s, 0 when not measured.
func (r *report) rps(name string) float64 {
	if m := r.find(name); m != nil && m.Rounds > 0 {
		return m.RPS
	}
	return 0
}

func orDash(v float64, f func(float64) string) string {
	if v <= 0 {
		return "–"
	}
	return f(v)
}

func ratioOrDash(a, b float64) string {
	if a <= 0 || b <= 0 {
		return "–"
	}
	return fmt.Sprintf("%.2f", a/b)
}
