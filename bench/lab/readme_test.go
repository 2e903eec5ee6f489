package lab

import (
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// TestREADMEPeers pins the peers the README names for each format to the
// lab's adapters: a peer added or dropped without the README fails here.
func TestREADMEPeers(t *testing.T) {
	b, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	text := strings.Join(strings.Fields(string(b)), " ")
	m := regexp.MustCompile(`runs signet against (.+?) \(JWT\), (.+?) \(PASETO\), (.+?) \(JWE\), (.+?) \(RFC 9421\)`).FindStringSubmatch(text)
	if m == nil {
		t.Fatal("README.md no longer lists the lab's peers as \"runs signet against … (JWT), … (PASETO), … (JWE), … (RFC 9421)\": update this test with the text")
	}
	split := regexp.MustCompile(`, (?:and )?| and `)
	var jwtLibs, pasetoLibs, jweLibs, httpsigLibs []string
	for _, l := range JWTLibs() {
		jwtLibs = append(jwtLibs, l.Name())
	}
	for _, l := range PASETOLibs() {
		pasetoLibs = append(pasetoLibs, l.Name())
	}
	for _, l := range JWELibs() {
		jweLibs = append(jweLibs, l.Name())
	}
	for _, l := range HTTPSigLibs() {
		httpsigLibs = append(httpsigLibs, l.Name())
	}
	for i, libs := range [][]string{jwtLibs, pasetoLibs, jweLibs, httpsigLibs} {
		format := []string{"JWT", "PASETO", "JWE", "RFC 9421"}[i]
		named := split.Split(m[i+1], -1)
		peers := slices.DeleteFunc(slices.Clone(libs), func(s string) bool { return s == "signet" })
		slices.Sort(named)
		slices.Sort(peers)
		if !slices.Equal(named, peers) {
			t.Errorf("README.md names the %s peers %q; the lab has %q", format, named, peers)
		}
	}
}
