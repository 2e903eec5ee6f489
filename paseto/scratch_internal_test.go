package paseto

import (
	"bytes"
	"strings"
	"testing"
	"time"

	"github.com/signet-go/signet"
)

// TestIssueScratchCleared: v4.local claims are encoded into a pooled
// state's scratch (issueV4Local); after the token, or an encoding error,
// no byte of the plaintext is left in it, and a later token of another
// size decrypts to its own claims.
func TestIssueScratchCleared(t *testing.T) {
	key, err := signet.GenerateKey(signet.V4Local)
	if err != nil {
		t.Fatal(err)
	}
	now := time.Unix(1_800_000_000, 0)
	o := Options{Now: func() time.Time { return now }}
	scratchClear := func(when string) {
		t.Helper()
		p := v4Pool(key)
		st := p.get()
		defer p.put(st)
		if i := bytes.IndexFunc(st.msg[:cap(st.msg)], func(r rune) bool { return r != 0 }); i >= 0 {
			t.Fatalf("%s: the scratch (len %d cap %d) holds %q at %d", when, len(st.msg), cap(st.msg), st.msg[i:min(i+16, cap(st.msg))], i)
		}
	}
	type big struct {
		Claims
		Blob string `json:"blob"`
	}
	for _, size := range []int{10, 3000, 40 << 10, 100 << 10} { // the last one is above maxPooledMsg
		c := big{Claims: Claims{Subject: "secret-subject"}, Blob: strings.Repeat("s", size)}
		tok, err := Encrypt(key, c, o)
		if err != nil {
			t.Fatal(err)
		}
		scratchClear("after a token")
		got, err := Decrypt[big](key, tok, Policy{Now: o.Now, MaxSize: 1 << 20})
		if err != nil || got.Blob != c.Blob || got.Subject != "secret-subject" {
			t.Fatalf("size %d: %v", size, err)
		}
	}
	// An error while encoding: a Map with a value encoding/json refuses,
	// after members it has written.
	_, err = Encrypt(key, Map{"a": strings.Repeat("secret", 100), "z": func() {}}, o)
	if err == nil {
		t.Fatal("a func value was encoded")
	}
	scratchClear("after an error")
}
