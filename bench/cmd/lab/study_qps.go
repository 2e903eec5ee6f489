package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"strings"

	"github.com/signet-go/signet/bench/published"
)

// httpRecord is what the QPS study's section reads of an HTTP lab record
// (cmd/load, suite "http"; docs/design.md, "The lab's output").
type httpRecord struct {
	Suite    string  `json:"suite"`
	Scenario string  `json:"scenario"`
	OpsPerS  float64 `json:"ops_per_s"`
	P99Ms    float64 `json:"p99_ms"`
	Error    string  `json:"error"`
}

// readHTTP loads the HTTP lab's records (make load) from the results.json
// at path, which this run then rewrites keeping them (keptSuites): none
// when the file or the records are absent.
func (r *report) readHTTP(path string) error {
	data, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	var recs []httpRecord
	if err := json.Unmarshal(data, &recs); err != nil {
		return fmt.Errorf("%s: not a JSON array of records (%v): move it away or fix it", path, err)
	}
	for _, rec := range recs {
		if rec.Suite == "http" && rec.Scenario != "" {
			r.http = append(r.http, rec)
		}
	}
	return nil
}

// rps returns an HTTP scenario's median requests/s, 0 when not measured.
func (r *report) rps(scenario string) float64 {
	if rec := r.httpRec(scenario); rec != nil {
		return rec.OpsPerS
	}
	return 0
}

func (r *report) httpRec(scenario string) *httpRecord {
	for i, rec := range r.http {
		if rec.Scenario == scenario && rec.Error == "" && rec.OpsPerS > 0 {
			return &r.http[i]
		}
	}
	return nil
}

// qpsLibs are the libraries of the HTTP lab's study rows the section
// shows: golang-jwt (the study's library) and signet.
var qpsLibs = []string{"golang-jwt", "signet"}

// studyQPS is the Go JWT QPS study's section, from the HTTP lab's records
// when this out directory has them, and from the lab's own rows for its
// §4.3 (signing and verification rates by algorithm).
func (r *report) studyQPS() *studySection {
	st := published.QPS
	s := &studySection{title: "Go JWT QPS by algorithm (golang-jwt under wrk)"}
	b := &s.body
	source(b, st.Source)
	b.WriteString(" This run's figures are the HTTP lab's (`make load`, HTTP.md): the study's handler shape, one core for the server and one for wrk, 10 connections.\n\n")
	hasHTTP := r.rps("issue/HS256/golang-jwt") > 0 || r.rps("issue/HS256/signet") > 0
	if !hasHTTP {
		b.WriteString("**The HTTP lab's results are not in this out directory**: `make load` measures them (HTTP.md and the `http` records of results.json); then `make report` puts them here. The claims on requests/s are untested below.\n\n")
	}
	b.WriteString("| alg | study req/s | study ÷ its HS256 |")
	for _, lib := range qpsLibs {
		fmt.Fprintf(b, " this run: %s issue req/s | ÷ HS256 |", lib)
	}
	b.WriteString("\n|---|--:|--:|" + strings.Repeat("--:|--:|", len(qpsLibs)) + "\n")
	for _, f := range st.Figures {
		if f.Table != "ch1" {
			continue
		}
		fmt.Fprintf(b, "| %s | %s | %.2f× |", f.Alg, thousands(f.QPS), f.QPS/st.QPSOf("ch1", "HS256"))
		for _, lib := range qpsLibs {
			v, hs := r.rps("issue/"+f.Alg+"/"+lib), r.rps("issue/HS256/"+lib)
			fmt.Fprintf(b, " %s | %s |", rateOrDash(v), ratioOrDash(v, hs))
		}
		b.WriteString("\n")
	}
	b.WriteString("\n")
	// §4.3 beside the lab's own rows (no HTTP needed).
	b.WriteString("Its §4.3 measured signing and verification rates of Node.js's crypto by algorithm; beside it, the lab's JWT rows here (Go, the default payload), as rates relative to HS256:\n\n")
	b.WriteString("| alg | study sign/s | study verify/s | study sign, verify ÷ HS256 |")
	for _, lib := range qpsLibs {
		fmt.Fprintf(b, " %s sign/s, verify/s | ÷ HS256 |", lib)
	}
	b.WriteString("\n|---|--:|--:|--:|" + strings.Repeat("--:|--:|", len(qpsLibs)) + "\n")
	hsOps := st.Ops[0]
	for _, o := range st.Ops {
		fmt.Fprintf(b, "| %s | %s | %s | %.3f, %.3f |", o.Alg, thousands(o.Sign), thousands(o.Verify), o.Sign/hsOps.Sign, o.Verify/hsOps.Verify)
		for _, lib := range qpsLibs {
			sg, vf := r.opsPerS(o.Alg, "Sign", lib), r.opsPerS(o.Alg, "Verify", lib)
			hsS, hsV := r.opsPerS("HS256", "Sign", lib), r.opsPerS("HS256", "Verify", lib)
			rel := "—"
			if sg > 0 && vf > 0 && hsS > 0 && hsV > 0 {
				rel = fmt.Sprintf("%.3f, %.3f", sg/hsS, vf/hsV)
			}
			fmt.Fprintf(b, " %s, %s | %s |", rateOrDash(sg), rateOrDash(vf), rel)
		}
		b.WriteString("\n")
	}
	b.WriteString("\n")

	// The claims on requests/s.
	order := func(lib string) (string, []float64, bool) {
		hs, ed, rs := r.rps("issue/HS256/"+lib), r.rps("issue/EdDSA/"+lib), r.rps("issue/RS256/"+lib)
		if hs == 0 || ed == 0 || rs == 0 {
			return "", nil, false
		}
		return fmt.Sprintf("%s: HS256 %s > Ed25519 %s > RS256 %s req/s", lib, thousands(hs), thousands(ed), thousands(rs)), []float64{hs / ed, ed / rs}, true
	}
	const orderClaim = "Requests/s by algorithm: HS256 > Ed25519 > RS256 (18,420 > 12,300 > 6,150)"
	if !hasHTTP {
		s.claim(orderClaim, untestable, "no HTTP lab results in this out directory (`make load`)")
	} else {
		var figs []float64
		var texts []string
		for _, lib := range qpsLibs {
			if t, f, ok := order(lib); ok {
				figs = append(figs, f...)
				texts = append(texts, t)
			}
		}
		s.claim(orderClaim, orderVerdict(figs), strings.Join(texts, "; "))
	}
	drop := func(claim string, claimed float64) {
		if !hasHTTP {
			s.claim(claim, untestable, "no HTTP lab results in this out directory (`make load`)")
			return
		}
		var figs []float64
		var texts []string
		for _, lib := range qpsLibs {
			hs, rs := r.rps("issue/HS256/"+lib), r.rps("issue/RS256/"+lib)
			if hs > 0 && rs > 0 {
				figs = append(figs, 1-rs/hs)
				texts = append(texts, fmt.Sprintf("%s %s lower (%s vs %s req/s)", lib, pct(1-rs/hs), thousands(rs), thousands(hs)))
			}
		}
		s.claim(claim, pctVerdict(figs, claimed, claimed), "RS256's issue requests/s against HS256's: "+strings.Join(texts, "; "))
	}
	drop(fmt.Sprintf("\"RS256 … performance down about 67%%\" against HS256 (ch. 1: %s vs %s req/s)", thousands(st.QPSOf("ch1", "RS256")), thousands(st.QPSOf("ch1", "HS256"))), st.RS256Drop)
	if hasHTTP {
		var figs []float64
		var texts []string
		for _, lib := range qpsLibs {
			hs, ed := r.rps("issue/HS256/"+lib), r.rps("issue/EdDSA/"+lib)
			if hs > 0 && ed > 0 {
				figs = append(figs, ed/hs)
				texts = append(texts, fmt.Sprintf("%s %.2f", lib, ed/hs))
			}
		}
		v := sizeVerdict(inverse(figs), st.QPSOf("ch1", "HS256")/st.QPSOf("ch1", "EdDSA"), st.QPSOf("ch1", "HS256")/st.QPSOf("ch1", "EdDSA"))
		s.claim("Ed25519 at 0.67 of HS256's requests/s (ch. 1: 12,300 vs 18,420; \"a good balance of security and performance\")", v, "Ed25519's issue requests/s over HS256's: "+strings.Join(texts, ", "))
	} else {
		s.claim("Ed25519 at 0.67 of HS256's requests/s (ch. 1: 12,300 vs 18,420)", untestable, "no HTTP lab results in this out directory (`make load`)")
	}
	drop("§4.2: RS256 \"throughput down about 65%\" (4,200 vs 12,100 req/s; mean response 23.7 vs 8.2 ms)", st.RS256Drop42)
	s.claim("§4.1: HS256 requests/s level from 100 to 1,000 connections (8,120, 8,350, 8,200; latency 12.3 → 98.2 ms)", untestable,
		"the HTTP lab drives wrk with 10 connections only, one core each for server and wrk")

	// §4.3: ES256 against RSA, and HS256 against both.
	var es []float64
	var esText []string
	for _, lib := range qpsLibs {
		for _, op := range []string{"Sign", "Verify"} {
			e, rs := r.opsPerS("ES256", op, lib), r.opsPerS("RS256", op, lib)
			if e > 0 && rs > 0 {
				es = append(es, e/rs)
				esText = append(esText, fmt.Sprintf("%s %s %.2f×", lib, strings.ToLower(op), e/rs))
			}
		}
	}
	const esClaim = "§4.3: ES256 \"significantly better than RSA\" in operations per second (Node.js: sign 4,621 vs 1,532, 3.0×; verify 1,032 vs 387, 2.7×)"
	if len(es) == 0 {
		s.claim(esClaim, untestable, "this run measured no JWT ES256 and RS256 rows (the lab ran with --format)")
	} else {
		s.claim(esClaim, orderVerdict(es), "ES256's rate over RS256's in the lab's JWT rows: "+strings.Join(esText, ", ")+
			" (RSA verification uses a small public exponent and is fast; the study's RSA verifying 4× slower than it signs is not what RSA does)")
	}
	// §3.2, §4.4, the rest.
	gogc := "the HTTP lab runs GOGC 100, 200 and off, not 20"
	if a, c := r.httpRec("issue/HS256/golang-jwt"), r.httpRec("issue/HS256/golang-jwt/gogc200"); a != nil && c != nil && a.P99Ms > 0 {
		gogc += fmt.Sprintf("; nearest here, golang-jwt HS256 issue P99 %.3f ms at GOGC 100, %.3f ms at 200", a.P99Ms, c.P99Ms)
	}
	s.claim("§3.2: GOMAXPROCS = NumCPU and GOGC = 20 lowered P99 by about 35 %", untestable, gogc)
	pay := "the study encrypted 1 KB–1 MB payloads with AES (8,200 → 120 TPS), not tokens"
	if sm, lg := r.rps("issue/HS256/golang-jwt"), r.rps("issue/HS256/golang-jwt/large"); sm > 0 && lg > 0 {
		pay += fmt.Sprintf("; nearest here, golang-jwt HS256 issue %s req/s small, %s large (%.1f× fewer)", thousands(sm), thousands(lg), sm/lg)
	}
	s.claim("§4.4: throughput falls about 68× from 1 KB to 1 MB payloads", untestable, pay)
	s.claim("§2.5 (Protobuf 60 % smaller and 3× faster than JSON; context switches) and ch. 5 (circuit breakers, 380 → 120 ms, 47 → 9 min)", untestable, "not measurements of tokens")
	return s
}

// opsPerS returns the lab's operations per second of a JWT case on the
// default payload, 0 when not measured.
func (r *report) opsPerS(alg, op, lib string) float64 {
	if m := r.find("JWT", alg, "", op, lib, false, 1); m != nil && m.median() > 0 {
		return 1e9 / m.median()
	}
	return 0
}
