// Package published holds the figures of the four studies the lab
// reproduces, transcribed from their published text with their source:
// the JWT-vs-PASETO Go package (JWTvsPASETO), the Java-vs-Rust JWT
// sign+verify article (JavaVsRust), the Go JWT QPS-by-algorithm report
// (QPS) and the RFC 9421 library benchmarks (HTTPSig).
//
// The figures are as printed (a "~" the study put before a figure is
// dropped; the number is kept exactly). They were measured on other
// machines: the lab's report (cmd/lab, its study sections) and the HTTP
// lab's (cmd/load) put them beside this machine's as ratios between
// libraries or algorithms, never as absolute times. Nothing here is read
// from the files the studies came in: a clone of the repository has all
// it needs.
//
//	for _, row := range published.JWTvsPASETO.Rows {
//		fmt.Println(row.Op, row.Class, row.PASETO.Ns/row.JWT.Ns)
//	}
package published

// Source says where a study's figures come from.
type Source struct {
	Title   string // as the study titles itself
	URL     string // its address or repository, as the study gives it; "" when it gives none
	Machine string // the machine and set-up it states
	What    string // what it measured, in a sentence
}

// Fig is one benchmark figure: ns/op, B/op and allocs/op (0 where the
// study gives none).
type Fig struct {
	Ns     float64
	Bytes  float64
	Allocs float64
}
