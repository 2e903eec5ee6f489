package xlang

import (
	"slices"
	"strings"
	"testing"
)

func TestEmailsDeterministic(t *testing.T) {
	a, b := Emails(5000, EmailsSeed), Emails(5000, EmailsSeed)
	if !slices.Equal(a, b) {
		t.Fatal("same seed, different lists")
	}
	if slices.Equal(a, Emails(5000, EmailsSeed+1)) {
		t.Fatal("another seed, same list")
	}
	seen := map[string]bool{}
	for _, e := range a {
		local, domain, ok := strings.Cut(e, "@")
		if !ok || local == "" || !strings.Contains(domain, ".") || seen[e] {
			t.Fatalf("bad or repeated address %q", e)
		}
		seen[e] = true
	}
}

func TestSummarizeAndReport(t *testing.T) {
	run := func(n int, ns int64) Run {
		return Run{Out: Output{N: n, ElapsedNs: ns, LibVersion: "v1", Runtime: "rt"}}
	}
	recs := []Record{
		Summarize("go", "signet", 2, 1000, false, []Run{run(1000, 400_000), run(1000, 500_000), run(1000, 600_000)}),
		Summarize("rust", "jsonwebtoken-rust_crypto", 2, 1000, false, []Run{run(1000, 1_000_000)}),
		{Suite: "xlang", Lang: "java", Lib: "jjwt", Skipped: "java: missing toolchain: mvn"},
	}
	if s := recs[0]; s.OpsPerS != 2e6 || s.MinOpsPerS != 1666667 || s.MaxOpsPerS != 2.5e6 || s.Runs != 3 {
		t.Fatalf("summary %+v", s)
	}
	tg := Targets(recs)
	if len(tg) != 3 || !tg[0].Met || tg[1].Met || tg[2].Met || !strings.Contains(tg[2].Got, "not measured") {
		t.Fatalf("targets %+v", tg)
	}
	md := Markdown(recs, "", "")
	for _, want := range []string{"| go | signet | v1 |", "2.00×", "skipped, java: missing toolchain: mvn"} {
		if !strings.Contains(md, want) {
			t.Errorf("report lacks %q:\n%s", want, md)
		}
	}
}

// Rank puts signet first and the target peers next, in the targets' order.
func TestRank(t *testing.T) {
	order := []struct{ lang, lib string }{
		{"go", "signet"},
		{"rust", "jsonwebtoken-rust_crypto"},
		{"rust", "jsonwebtoken-aws_lc_rs"},
		{"java", "jjwt"},
		{"go", "golang-jwt"},
	}
	for i := 1; i < len(order); i++ {
		if Rank(order[i-1].lang, order[i-1].lib) >= Rank(order[i].lang, order[i].lib) {
			t.Errorf("%s ranks no earlier than %s", order[i-1].lib, order[i].lib)
		}
	}
	if Rank("node", "jose") != Rank("python", "pyjwt") {
		t.Error("libraries without a target should share the last rank")
	}
}
