package attacks_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/signet-go/signet"
	"github.com/signet-go/signet/attacks"
)

// readText reads a file of the repository, relative to this package.
func readText(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	// The documents wrap lines anywhere: compare with single spaces.
	return strings.Join(strings.Fields(string(b)), " ")
}

// stated returns the numbers the first match of pattern captures in text,
// failing t when the text no longer says it.
func stated(t *testing.T, doc, text, pattern string) []int {
	t.Helper()
	m := regexp.MustCompile(pattern).FindStringSubmatch(text)
	if m == nil {
		t.Fatalf("%s no longer says %q: update this test with the text", doc, pattern)
	}
	var out []int
	for _, s := range m[1:] {
		n, err := strconv.Atoi(s)
		if err != nil {
			t.Fatalf("%s: %q in %q", doc, s, m[0])
		}
		out = append(out, n)
	}
	return out
}

// checkCount fails t when a document states another count than the one
// the repository holds.
func checkCount(t *testing.T, doc, what string, stated, actual int) {
	t.Helper()
	if stated != actual {
		t.Errorf("%s says %d %s; the repository holds %d: update the document (or the data)", doc, stated, what, actual)
	}
}

// jsonCount is the length of the array at key of the JSON object in each
// file, added up.
func jsonCount(t *testing.T, key string, files ...string) int {
	t.Helper()
	n := 0
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		var obj map[string]json.RawMessage
		if err := json.Unmarshal(b, &obj); err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		var items []json.RawMessage
		if err := json.Unmarshal(obj[key], &items); err != nil {
			t.Fatalf("%s: %s: %v", f, key, err)
		}
		n += len(items)
	}
	return n
}

// TestREADMECounts pins the counts the README, attacks/README.md and
// bench/README.md state (attack cases and controls, published vectors,
// algorithms) to the corpus, testdata and algorithm tables they describe:
// changing either without the other fails here.
func TestREADMECounts(t *testing.T) {
	cases, err := attacks.Load(".")
	if err != nil {
		t.Fatal(err)
	}
	type tally struct{ cases, controls int }
	byFormat := map[string]*tally{attacks.JWT: {}, attacks.PASETO: {}, attacks.HTTPSig: {}, attacks.JWE: {}}
	controls := 0
	for _, c := range cases {
		byFormat[c.Format].cases++
		if c.Expect == attacks.Accept {
			byFormat[c.Format].controls++
			controls++
		}
	}

	const readme = "README.md"
	root := readText(t, "../README.md")
	n := stated(t, readme, root, "the attack corpus \\(`attacks/`: (\\d+) cases")
	checkCount(t, readme, "attack cases", n[0], len(cases))
	n = stated(t, readme, root, `signet refuses all (\d+) attacks with the intended error and accepts the (\d+) controls`)
	checkCount(t, readme, "attacks", n[0], len(cases)-controls)
	checkCount(t, readme, "controls", n[1], controls)

	paseto := jsonCount(t, "tests", "../testdata/paseto/v3.json", "../testdata/paseto/v4.json")
	n = stated(t, readme, root, `All (\d+) official PASETO v3/v4 vectors`)
	checkCount(t, readme, "PASETO vectors", n[0], paseto)
	paserkFiles, err := filepath.Glob("../testdata/paserk/*.json")
	if err != nil || len(paserkFiles) == 0 {
		t.Fatalf("PASERK vectors: %v", err)
	}
	n = stated(t, readme, root, `all (\d+) PASERK k3/k4 vectors`)
	checkCount(t, readme, "PASERK vectors", n[0], jsonCount(t, "tests", paserkFiles...))

	var rfc9421 struct {
		Vectors []struct {
			ExpectedValid bool `json:"expected_valid"`
		} `json:"vectors"`
	}
	b, err := os.ReadFile("../testdata/rfc9421/vectors.json")
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, &rfc9421); err != nil {
		t.Fatal(err)
	}
	valid := 0
	for _, v := range rfc9421.Vectors {
		if v.ExpectedValid {
			valid++
		}
	}
	n = stated(t, readme, root, `all (\d+) signatures \((\d+) verify, the (\d+) altered messages fail\)`)
	checkCount(t, readme, "RFC 9421 signatures", n[0], len(rfc9421.Vectors))
	checkCount(t, readme, "RFC 9421 signatures that verify", n[1], valid)
	checkCount(t, readme, "RFC 9421 altered messages", n[2], len(rfc9421.Vectors)-valid)
	n = stated(t, readme, root, `the (\d+) component cases of §2`)
	checkCount(t, readme, "RFC 9421 component cases", n[0], jsonCount(t, "cases", "../testdata/rfc9421/components.json"))

	n = stated(t, readme, root, "Interop with npm `jose` [0-9.]+ \\(`interop/`\\): for all (\\d+) algorithms")
	checkCount(t, readme, "JWS algorithms", n[0], len(signet.JWSAlgorithms()))
	words := map[string]int{"four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8}
	m := regexp.MustCompile("`http-message-signatures` [0-9.]+, both ways, all (\\w+) algorithms").FindStringSubmatch(root)
	if m == nil {
		t.Fatalf("%s no longer states the RFC 9421 interop's algorithms", readme)
	}
	checkCount(t, readme, "RFC 9421 algorithms ("+m[1]+")", words[m[1]], len(signet.HTTPSigAlgorithms()))

	const corpusDoc = "attacks/README.md"
	corpus := readText(t, "README.md")
	for format, file := range attacks.Files {
		n = stated(t, corpusDoc, corpus, "\\| `"+regexp.QuoteMeta(file)+"` \\| [^|]+ \\| (\\d+) \\| (\\d+) \\|")
		checkCount(t, corpusDoc, file+" cases", n[0], byFormat[format].cases)
		checkCount(t, corpusDoc, file+" controls", n[1], byFormat[format].controls)
	}

	const labDoc = "bench/README.md"
	lab := readText(t, "../bench/README.md")
	n = stated(t, labDoc, lab, "The attack corpus \\(`../attacks/`, (\\d+) cases")
	checkCount(t, labDoc, "attack cases", n[0], len(cases))
}
