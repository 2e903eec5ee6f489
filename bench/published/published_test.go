package published

import (
	"slices"
	"testing"
)

// The transcriptions are complete: every row has every library's figure,
// every payload row a lab payload class, and the figures the reports
// derive from them are the study's own.
func TestTranscriptions(t *testing.T) {
	sizes := []string{"tiny", "small", "medium", "large", "verylarge"}
	for _, row := range JWTvsPASETO.Rows {
		if !slices.Contains(sizes, row.Size) || row.JWT.Ns == 0 || row.PASETO.Ns == 0 || row.JWT.Allocs == 0 || row.PASETO.Bytes == 0 {
			t.Errorf("JWT vs PASETO row %+v incomplete", row)
		}
	}
	if n := len(JWTvsPASETO.Rows); n != 13 {
		t.Errorf("JWT vs PASETO: %d rows, the study has 5 sign, 5 parse and 3 round-trip", n)
	}
	for _, row := range HTTPSig.Rows {
		for _, l := range HTTPSig.Libs {
			if f := row.Figs[l]; f.Ns == 0 || f.Bytes == 0 || f.Allocs == 0 {
				t.Errorf("RFC 9421 %s %s: no figure of %s", row.Alg, row.Op, l)
			}
		}
	}
	// The study's "2-2.7x faster" on HMAC signing is its own table's
	// 5,071 / 2,580 to 6,931 / 2,580.
	for _, row := range HTTPSig.Rows {
		if row.Alg == "hmac-sha256" && row.Op == "Sign" {
			f := row.Figs["forcebit"].Ns
			if lo, hi := row.Figs["yaronf"].Ns/f, row.Figs["common-fate"].Ns/f; lo < 1.9 || hi > 2.7 {
				t.Errorf("HMAC sign ratios %.2f–%.2f", lo, hi)
			}
		}
	}
	if len(JavaVsRust.JavaMs) != 5 || len(JavaVsRust.RustMs) != 5 {
		t.Error("Java vs Rust: five runs each")
	}
	if QPS.QPSOf("ch1", "HS256") != 18420 || QPS.QPSOf("ch1", "EdDSA") != 12300 || QPS.QPSOf("ch1", "ES256") != 0 {
		t.Error("QPSOf")
	}
	if d := 1 - QPS.QPSOf("ch1", "RS256")/QPS.QPSOf("ch1", "HS256"); d < QPS.RS256Drop-0.01 || d > QPS.RS256Drop+0.01 {
		t.Errorf("ch. 1's RS256 drop %.3f, the text says %.2f", d, QPS.RS256Drop)
	}
}
