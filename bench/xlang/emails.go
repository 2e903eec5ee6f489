package xlang

import (
	"encoding/json"
	"math/rand/v2"
	"os"
	"strconv"
	"strings"
)

// EmailsSeed is the seed of the scenario's address list: the same list on
// every machine, without committing it.
const EmailsSeed = 20261122

// Emails makes n distinct addresses from seed: a name of two to four
// syllables, often with a dot and a second name, sometimes a number, at
// one of a few domains, as a list of users' addresses looks.
func Emails(n int, seed uint64) []string {
	syll := []string{"an", "bel", "car", "da", "el", "fi", "gor", "ha", "is", "jo", "ka", "li", "mo", "na", "or", "pe", "qui", "ra", "si", "to", "ul", "va", "wen", "xi", "yo", "zu"}
	domains := []string{"example.com", "example.org", "example.net", "mail.example", "corp.example.com", "students.example.edu"}
	r := rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15))
	name := func(b *strings.Builder) {
		for range 2 + r.IntN(3) {
			b.WriteString(syll[r.IntN(len(syll))])
		}
	}
	seen := make(map[string]bool, n)
	out := make([]string, 0, n)
	var b strings.Builder
	for len(out) < n {
		b.Reset()
		name(&b)
		if r.IntN(3) > 0 {
			b.WriteByte('.')
			name(&b)
		}
		if r.IntN(2) == 0 {
			b.WriteString(strconv.Itoa(r.IntN(1000)))
		}
		b.WriteByte('@')
		b.WriteString(domains[r.IntN(len(domains))])
		if s := b.String(); !seen[s] {
			seen[s] = true
			out = append(out, s)
		}
	}
	return out
}

// WriteEmails writes Emails(n, EmailsSeed) to path as a JSON array.
func WriteEmails(path string, n int) error {
	data, err := json.Marshal(Emails(n, EmailsSeed))
	if err != nil {
		return err
	}
	return os.WriteFile(path, data, 0o644)
}
