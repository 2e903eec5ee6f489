package published

// QPSFigure is one requests/s figure of the Go JWT QPS report, with where
// it stands.
type QPSFigure struct {
	Table string // "ch1": chapter 1's table, the headline; "4.1", "4.2": later sections'
	Alg   string // the lab's name: HS256, RS256, EdDSA (the study's "Ed25519")
	QPS   float64
	Note  string
}

// OpsFigure is one row of the report's §4.3 table: signatures and
// verifications per second of one algorithm (Node.js crypto, not Go).
type OpsFigure struct {
	Alg            string
	Sign, Verify   float64
	KeyLengthNoted string
}

// ConnFigure is one row of §4.1's table: HS256 under wrk with Conns
// connections.
type ConnFigure struct {
	Conns, QPS, LatencyMs, CPUPercent float64
}

// QPSStudy is the Go JWT performance report: golang-jwt behind an HTTP
// handler that issues a token per request, under wrk.
type QPSStudy struct {
	Source Source
	// Figures are its requests/s. Chapter 1 is its headline: golang-jwt/jwt,
	// a handler issuing a token per request, wrk with 10 connections for
	// 30 s, the mean of 5 runs, an Intel Core i7-11800H, Go 1.21. The
	// other tables are its later sections', with other (or unstated)
	// set-ups: the study's own figures for HS256 differ by more than 2×
	// between them.
	Figures []QPSFigure
	// RS256Drop is chapter 1's "RS256 … performance down about 67%"
	// (against HS256); RS256Drop42 §4.2's "throughput down about 65%".
	RS256Drop, RS256Drop42 float64
	// Connections is §4.1's HS256 table: wrk connections → QPS (and mean
	// latency, ms), "4 cores, 8 GB".
	Connections []ConnFigure
	// Ops is §4.3's table (Node.js v18 crypto, a Xeon E5-2680 v4).
	Ops []OpsFigure
	// GOGCP99Drop is §3.2's claim: GOMAXPROCS = NumCPU and GOGC = 20
	// lowered P99 latency by about 35 %.
	GOGCP99Drop float64
}

// QPS is the report "Go语言JWT性能测试报告:不同算法对QPS的影响分析" (Go JWT
// performance test report: the effect of the algorithm on QPS).
var QPS = QPSStudy{
	Source: Source{
		Title:   "Go语言JWT性能测试报告:不同算法对QPS的影响分析 (Go JWT performance test report: the effect of the algorithm on QPS)",
		URL:     "", // a blog post; the text names no address
		Machine: "Intel Core i7-11800H (8 cores, server not pinned), Go 1.21, wrk with 10 connections for 30 s, the mean of 5 runs (chapter 1)",
		What:    "requests/s of an HTTP handler issuing a golang-jwt token per request, by algorithm (HS256, RS256, Ed25519)",
	},
	Figures: []QPSFigure{
		{"ch1", "HS256", 18420, "ch. 1 table: issue endpoint, wrk -c10 30 s, mean of 5, i7-11800H, Go 1.21"},
		{"ch1", "RS256", 6150, "ch. 1 table (the text: \"about 67% lower\")"},
		{"ch1", "EdDSA", 12300, "ch. 1 table, as \"Ed25519\""},
		{"4.1", "HS256", 8120, "§4.1: 100 connections, \"4 cores, 8 GB\"; 8,350 at 500 and 8,200 at 1,000 connections"},
		{"4.2", "HS256", 12100, "§4.2: mean response 8.2 ms; set-up not stated (its code sample is Python)"},
		{"4.2", "RS256", 4200, "§4.2: mean response 23.7 ms (\"throughput down about 65%\")"},
	},
	RS256Drop:   0.67,
	RS256Drop42: 0.65,
	Connections: []ConnFigure{
		{100, 8120, 12.3, 68}, {500, 8350, 45.6, 89}, {1000, 8200, 98.2, 95},
	},
	Ops: []OpsFigure{
		{"HS256", 78432, 79105, "256-bit"},
		{"RS256", 1532, 387, "2048-bit"},
		{"ES256", 4621, 1032, "256-bit"},
	},
	GOGCP99Drop: 0.35,
}

// QPSOf returns the study's requests/s of alg in table ("ch1", "4.2"), 0
// when it has none.
func (s QPSStudy) QPSOf(table, alg string) float64 {
	for _, f := range s.Figures {
		if f.Table == table && f.Alg == alg {
			return f.QPS
		}
	}
	return 0
}
