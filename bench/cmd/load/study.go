package main

import (
	"bytes"
	"fmt"
)

// studyFigure is one figure of the study reproduced (the Go JWT QPS
// article in the project's seeds), transcribed with where it stands.
type studyFigure struct {
	table string // "ch1": chapter 1's table (the chart uses these)
	alg   string
	qps   float64
	note  string
}

// studySource names the study.
const studySource = "\"Go语言JWT性能测试报告:不同算法对QPS的影响分析\" (Go JWT performance test report: the effect of the algorithm on QPS), the third study of the project's seeds"

// studyFigures are the study's requests/s, as printed. Chapter 1 is its
// headline: golang-jwt/jwt, a handler issuing a token per request, wrk
// with 10 connections for 30 s, the mean of 5 runs, an Intel Core
// i7-11800H, Go 1.21. The other tables are its later sections', with
// other (or unstated) set-ups: the study's own figures for HS256 differ
// by more than 2× between them.
var studyFigures = []studyFigure{
	{"ch1", "HS256", 18420, "ch. 1 table: issue endpoint, wrk -c10 30 s, mean of 5, i7-11800H, Go 1.21"},
	{"ch1", "RS256", 6150, "ch. 1 table (the text: \"about 67% lower\")"},
	{"ch1", "EdDSA", 12300, "ch. 1 table, as \"Ed25519\""},
	{"4.1", "HS256", 8120, "§4.1: 100 connections, \"4 cores, 8 GB\"; 8,350 at 500 and 8,200 at 1,000 connections"},
	{"4.2", "HS256", 12100, "§4.2: mean response 8.2 ms; set-up not stated (its code sample is Python)"},
	{"4.2", "RS256", 4200, "§4.2: mean response 23.7 ms (\"throughput down about 65%\")"},
}

// studySection writes the study's figures beside this run's.
func (r *report) studySection(b *bytes.Buffer) {
	fmt.Fprintf(b, "## The study's figures beside this run\n\n")
	fmt.Fprintf(b, "Source: %s. Its figures are transcribed as printed; its machine had 8 cores and did not pin the server (ours: one core for the server, one for wrk), so compare ratios, not requests/s. Its §4.3 (Node.js signing rates) and §4.4 (AES payload sizes) measure other things and are left out.\n\n", studySource)
	fmt.Fprintf(b, "| alg | study req/s | where | this run: golang-jwt issue | signet issue | signet / golang-jwt | study's alg / its HS256 | ours (signet) alg / HS256 |\n|---|--:|---|--:|--:|--:|--:|--:|\n")
	var hsStudy float64
	for _, f := range studyFigures {
		if f.table == "ch1" && f.alg == "HS256" {
			hsStudy = f.qps
		}
	}
	var hsOurs float64
	if m := r.find("issue/HS256/signet"); m != nil && m.Rounds > 0 {
		hsOurs = m.RPS
	}
	for _, f := range studyFigures {
		gj, sg := r.rps("issue/"+f.alg+"/golang-jwt"), r.rps("issue/"+f.alg+"/signet")
		rel := "–"
		if f.table == "ch1" && hsStudy > 0 {
			rel = fmt.Sprintf("%.2f", f.qps/hsStudy)
		}
		ours := "–"
		if f.table == "ch1" && hsOurs > 0 && sg > 0 {
			ours = fmt.Sprintf("%.2f", sg/hsOurs)
		}
		fmt.Fprintf(b, "| %s | %s | %s | %s | %s | %s | %s | %s |\n", f.alg, fmtRPS(f.qps), f.note, orDash(gj, fmtRPS), orDash(sg, fmtRPS), ratioOrDash(sg, gj), rel, ours)
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
