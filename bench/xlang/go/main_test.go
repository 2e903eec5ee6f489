package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

const testSecret = "0123456789012345678901234567890123456789"

// BenchmarkScenario is one iteration of the scenario per op, for
// profiling the Go libraries (the cross-language runner times whole
// processes instead).
func BenchmarkScenario(b *testing.B) {
	for _, name := range []string{"signet", "golang-jwt"} {
		b.Run(name, func(b *testing.B) {
			sc, err := libraries[name].scenario([]byte(testSecret))
			if err != nil {
				b.Fatal(err)
			}
			b.ReportAllocs()
			for i := 0; b.Loop(); i++ {
				if err := sc.once("user"+string(rune('a'+i%26))+"@example.com", time.Now().Unix()); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

func TestBenchMode(t *testing.T) {
	dir := t.TempDir()
	emails := filepath.Join(dir, "emails.json")
	if err := os.WriteFile(emails, []byte(`["a@example.com","b@example.com","c@example.com"]`), 0o600); err != nil {
		t.Fatal(err)
	}
	t.Setenv("JWT_SECRET", testSecret)
	for name := range libraries {
		var out bytes.Buffer
		if err := run([]string{name, "bench", "--emails", emails, "--n", "1000", "--threads", "2"}, nil, &out); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		var r benchResult
		if err := json.Unmarshal(out.Bytes(), &r); err != nil {
			t.Fatalf("%s: %v in %q", name, err, out.String())
		}
		if r.Lib != name || r.Lang != "go" || r.N != 1000 || r.Threads != 2 || r.ElapsedNs <= 0 || r.LibVersion == "unknown" {
			t.Errorf("%s: %+v", name, r)
		}
	}
}

func TestInteropRoundTrip(t *testing.T) {
	req := `{"cases":[{"id":"s","op":"sign","alg":"HS256","key":{"secret_b64url":"MDEyMzQ1Njc4OTAxMjM0NTY3ODkwMTIzNDU2Nzg5MDE"},"claims":{"sub":"x","exp":4102444800}}]}`
	for name := range libraries {
		var out bytes.Buffer
		if err := run([]string{name, "interop"}, strings.NewReader(req), &out); err != nil {
			t.Fatal(err)
		}
		var resp struct{ Results []interopResult }
		if err := json.Unmarshal(out.Bytes(), &resp); err != nil || len(resp.Results) != 1 || resp.Results[0].Token == "" {
			t.Fatalf("%s sign: %v %s", name, err, out.String())
		}
		tok := resp.Results[0].Token
		for _, verifier := range []string{"signet", "golang-jwt"} {
			for _, tc := range []struct {
				token string
				ok    bool
			}{{tok, true}, {tok[:len(tok)-2] + "AA", false}} {
				v := `{"cases":[{"id":"v","op":"verify","alg":"HS256","key":{"secret_b64url":"MDEyMzQ1Njc4OTAxMjM0NTY3ODkwMTIzNDU2Nzg5MDE"},"token":"` + tc.token + `"}]}`
				out.Reset()
				if err := run([]string{verifier, "interop"}, strings.NewReader(v), &out); err != nil {
					t.Fatal(err)
				}
				var vr struct{ Results []interopResult }
				if err := json.Unmarshal(out.Bytes(), &vr); err != nil || len(vr.Results) != 1 || vr.Results[0].OK == nil {
					t.Fatalf("%s verify: %v %s", verifier, err, out.String())
				}
				if got := *vr.Results[0].OK; got != tc.ok {
					t.Errorf("%s signed, %s verified %v, want %v: %s", name, verifier, got, tc.ok, out.String())
				}
				if tc.ok && vr.Results[0].Claims["sub"] != "x" {
					t.Errorf("%s signed, %s: claims %v", name, verifier, vr.Results[0].Claims)
				}
			}
		}
	}
}
