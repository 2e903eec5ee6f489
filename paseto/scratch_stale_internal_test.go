package paseto

import (
	"bytes"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/signet-go/signet"
)

// TestIssueScratchNoStaleTail: when appendString grows a v4.local token's
// claims into a new array (unsafex.MakeNoZero, not cleared), the pool
// keeps that array as the state's scratch: its bytes past the claims,
// which the encoder never wrote, must be cleared too. Here they would be
// a freed buffer of an earlier Decrypt: another token's plaintext.
func TestIssueScratchNoStaleTail(t *testing.T) {
	now := time.Unix(1_800_000_000, 0)
	o := Options{Now: func() time.Time { return now }}
	type big struct {
		Claims
		Blob string `json:"blob"`
	}
	other := big{Claims: Claims{Subject: "s"}, Blob: strings.Repeat("OTHER-SECRET-", 270)}
	mine := big{Claims: Claims{Subject: "s"}, Blob: strings.Repeat("s", 3000)}
	// Heap reuse is up to the runtime: a few rounds, each with a new key
	// (a new pool, whose state's scratch must grow).
	for round := range 10 {
		key, err := signet.GenerateKey(signet.V4Local)
		if err != nil {
			t.Fatal(err)
		}
		tok, err := Encrypt(key, other, o)
		if err != nil {
			t.Fatal(err)
		}
		for range 100 {
			if _, err := Decrypt[big](key, tok, Policy{Now: o.Now}); err != nil {
				t.Fatal(err)
			}
		}
		runtime.GC()
		if _, err := Encrypt(key, mine, o); err != nil {
			t.Fatal(err)
		}
		p := v4Pool(key)
		st := p.get()
		full := st.msg[:cap(st.msg)]
		if i := bytes.IndexFunc(full, func(r rune) bool { return r != 0 }); i >= 0 {
			t.Fatalf("round %d: the scratch (len %d cap %d) holds %q at %d", round, len(st.msg), cap(st.msg), full[i:min(i+26, len(full))], i)
		}
		p.put(st)
	}
}
