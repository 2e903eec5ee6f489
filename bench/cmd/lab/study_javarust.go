package main

import (
	"fmt"
	"slices"
	"strings"

	"github.com/signet-go/signet/bench/published"
)

// rustLibs are the cross-language scenario's Rust programs: jsonwebtoken,
// the study's library, with each of its crypto backends.
var rustLibs = []string{"jsonwebtoken-rust_crypto", "jsonwebtoken-aws_lc_rs"}

// xrate returns the median JWT/s of a cross-language record, 0 when it
// was not measured.
func (r *report) xrate(lang, lib string, threads int) float64 {
	for _, rec := range r.xlang {
		if rec.Lang == lang && rec.Lib == lib && rec.Threads == threads && rec.Error == "" && rec.Skipped == "" && rec.OpsPerS > 0 {
			return rec.OpsPerS
		}
	}
	return 0
}

// xworkers returns the worker counts of the cross-language run: one, and
// the most (one per core).
func (r *report) xworkers() (one, most int) {
	one = 1
	for _, rec := range r.xlang {
		if rec.OpsPerS > 0 {
			most = max(most, rec.Threads)
		}
	}
	return one, most
}

// studyJavaRust is the Java-vs-Rust study's section, from the
// cross-language run (make xlang).
func (r *report) studyJavaRust() *studySection {
	st := published.JavaVsRust
	s := &studySection{title: "Java vs Rust: JWT sign + verify (pjgg)"}
	b := &s.body
	source(b, st.Source)
	jm, rm := median(st.JavaMs), median(st.RustMs)
	fmt.Fprintf(b, " It answers an article that found Rust %.1f× faster than Java with both on one thread; its own Java ran %d virtual threads (one per logical CPU) against Rust's one. This lab's cross-language scenario (bench/xlang) is the same loop — HS256, {sub, iat, exp}, 100,000 addresses — run at one worker and at one worker per core in Go, Rust, Java, Node and Python.\n\n", st.ArticleRustOverJava, st.JavaThreads)
	b.WriteString("| run | Java (jjwt, 32 threads), ms | Rust (jsonwebtoken, 1 thread), ms |\n|---|--:|--:|\n")
	for i := range st.JavaMs {
		fmt.Fprintf(b, "| %d | %s | %s |\n", i+1, thousands(st.JavaMs[i]), thousands(st.RustMs[i]))
	}
	fmt.Fprintf(b, "| median | %s (%s JWT/s) | %s (%s JWT/s) |\n\n", thousands(jm), thousands(float64(st.N)/jm*1000), thousands(rm), thousands(float64(st.N)/rm*1000))
	studyJavaOverRust := rm / jm

	one, most := r.xworkers()
	if most == 0 {
		b.WriteString("**The cross-language results are not in this run** (`make xlang` writes out/xlang/results.json, then `make report` includes them), so none of the study's claims is tested below.\n\n")
		for _, c := range []string{"the original article: Rust 5.2× faster than Java (one thread each)", "\"Java is beating Rust … 170,464 JWTs per second\"", "\"Java is 1.7 times faster than Rust. Winner: JAVA\""} {
			s.claim(c, untestable, "no cross-language results in this run (`make xlang`)")
		}
		return s
	}
	// This run's rates beside the study's.
	fmt.Fprintf(b, "| language, library | this run: JWT/s, 1 worker | this run: JWT/s, %d workers | ÷ jjwt, 1 worker | ÷ jjwt, %d workers |\n|---|--:|--:|--:|--:|\n", most, most)
	type lib struct{ lang, lib string }
	libs := []lib{{"go", "signet"}, {"go", "golang-jwt"}}
	for _, l := range rustLibs {
		libs = append(libs, lib{"rust", l})
	}
	libs = append(libs, lib{"java", "jjwt"}, lib{"node", "jose"}, lib{"python", "pyjwt"})
	for _, rec := range r.xlang { // any other program the run has
		if !slices.Contains(libs, lib{rec.Lang, rec.Lib}) && rec.OpsPerS > 0 {
			libs = append(libs, lib{rec.Lang, rec.Lib})
		}
	}
	java1, javaN := r.xrate("java", "jjwt", one), r.xrate("java", "jjwt", most)
	for _, l := range libs {
		a, n := r.xrate(l.lang, l.lib, one), r.xrate(l.lang, l.lib, most)
		if a == 0 && n == 0 {
			continue
		}
		fmt.Fprintf(b, "| %s %s | %s | %s | %s | %s |\n", l.lang, l.lib, rateOrDash(a), rateOrDash(n), ratioOrDash(a, java1), ratioOrDash(n, javaN))
	}
	b.WriteString("\n")

	// The claims.
	var rust1, rustN []float64 // Rust's rate over Java's, per backend
	var j1, jN []string
	for _, l := range rustLibs {
		if a := r.xrate("rust", l, one); a > 0 && java1 > 0 {
			rust1 = append(rust1, a/java1)
			j1 = append(j1, fmt.Sprintf("%s %.2f×", l, a/java1))
		}
		if n := r.xrate("rust", l, most); n > 0 && javaN > 0 {
			rustN = append(rustN, n/javaN)
			jN = append(jN, fmt.Sprintf("%s %.2f×", l, n/javaN))
		}
	}
	if len(rust1) == 0 {
		s.claim("The original article: \"Rust performs 5.2 times better than Java\" (both on one thread)", untestable, "the run has no Rust or no Java at one worker")
	} else {
		s.claim("The original article: \"Rust performs 5.2 times better than Java\" (both on one thread)", sizeVerdict(rust1, st.ArticleRustOverJava, st.ArticleRustOverJava),
			"Rust's JWT/s over jjwt's at one worker: "+strings.Join(j1, ", "))
	}
	beats := append(slices.Clone(rust1), rustN...)
	s.claim("\"Rust beats Java\" (the article's conclusion, at one worker and at one worker per core)", orderVerdict(beats),
		fmt.Sprintf("Rust's JWT/s over jjwt's: at 1 worker %s; at %d workers %s", strings.Join(j1, ", "), most, strings.Join(jN, ", ")))
	// The study's own set-up: Java on every core against Rust on one.
	var jr []float64
	var jrText []string
	for _, l := range rustLibs {
		if a := r.xrate("rust", l, one); a > 0 && javaN > 0 {
			jr = append(jr, javaN/a)
			jrText = append(jrText, fmt.Sprintf("%.2f× %s", javaN/a, l))
		}
	}
	setUp := fmt.Sprintf("jjwt at %d workers (%s JWT/s) over Rust at one worker: %s", most, rateOrDash(javaN), strings.Join(jrText, ", "))
	if len(jr) == 0 {
		setUp = "the run has no jjwt at one worker per core or no Rust at one worker"
	}
	s.claim(fmt.Sprintf("\"Java is beating Rust in terms of JWTs per second (170,464 JWTs per second)\" (jjwt on %d threads against Rust on one)", st.JavaThreads), orderVerdict(jr),
		setUp+fmt.Sprintf("; the study's machine had %d logical CPUs, this one %d, so the same set-up gives Java fewer cores to win with", st.JavaThreads, most))
	s.claim(fmt.Sprintf("\"Java is 1.7 times faster than Rust\" (by its own medians: %.2f×)", studyJavaOverRust), sizeVerdict(jr, st.JavaOverRust, st.JavaOverRust), setUp)
	s.claim("\"Winner: JAVA\" — on equal terms (each on every core, which neither study ran)", orderVerdict(inverse(rustN)),
		fmt.Sprintf("jjwt's JWT/s over Rust's at %d workers each: %s", most, span(inverse(rustN), times)))
	s.claim("\"you will get almost the same performance on a Raspberry Pi with a single core\"", untestable, "no such machine here")
	if sg := r.xrate("go", "signet", most); sg > 0 {
		fmt.Fprintf(b, "signet, beside them: %s JWT/s at %d workers, %s jjwt's and %s Rust's (jsonwebtoken-rust_crypto).\n\n", rateOrDash(sg), most, ratioOrDash(sg, javaN), ratioOrDash(sg, r.xrate("rust", rustLibs[0], most)))
	}
	return s
}

// rateOrDash formats a rate in JWT/s, "—" when not measured.
func rateOrDash(v float64) string {
	if v <= 0 {
		return "—"
	}
	return thousands(v)
}

// ratioOrDash is a over b as a factor, "—" when either is missing.
func ratioOrDash(a, b float64) string {
	if a <= 0 || b <= 0 {
		return "—"
	}
	return fmt.Sprintf("%.2f×", a/b)
}
