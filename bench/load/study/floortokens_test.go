package study

import (
	"bytes"
	"crypto/rand"
	"errors"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/signet-go/signet"
)

// TestFloorLibrary: the floor library answers in signet's shapes (the
// same status, headers and body for /hello, /check and a refusal, /issue a
// token of the same length that signet's /check accepts), checks signet's
// and golang-jwt's tokens, and refuses with 401 a forged token, a token of
// another algorithm, garbage and a missing header: it really verifies.
func TestFloorLibrary(t *testing.T) {
	for _, alg := range FloorAlgs {
		floor := mustNew(t, LibFloor, alg, "small")
		if floor.Lib() != LibFloor || floor.Alg() != alg {
			t.Errorf("%s: Lib %q Alg %q", alg, floor.Lib(), floor.Alg())
		}
		sig := mustNew(t, LibSignet, alg, "small")
		fh, sh := Handler(floor), Handler(sig)
		if a, b := serve(fh, "/hello", ""), serve(sh, "/hello", ""); a.Body.String() != b.Body.String() || !equalHeaders(a.Header(), b.Header()) {
			t.Errorf("%s: /hello %q, signet's %q", alg, a.Body, b.Body)
		}
		fi, si := serve(fh, "/issue", ""), serve(sh, "/issue", "")
		ftok, stok := issued(t, fi), issued(t, si)
		if len(ftok) != len(stok) || !equalHeaders(fi.Header(), si.Header()) {
			t.Errorf("%s: /issue %q (%v), signet's %q (%v)", alg, ftok, fi.Header(), stok, si.Header())
		}
		if w := serve(sh, "/check", "Bearer "+ftok); w.Code != http.StatusOK {
			t.Errorf("%s: the floor's token refused by signet: %d %q", alg, w.Code, w.Body)
		}
		toks := []string{stok}
		for _, lib := range Libs(alg) {
			if lib != LibSignet {
				tok, err := mustNew(t, lib, alg, "small").Issue(time.Now(), UserID)
				if err != nil {
					t.Fatal(err)
				}
				toks = append(toks, tok)
			}
		}
		for _, tok := range toks {
			a, b := serve(fh, "/check", "Bearer "+tok), serve(sh, "/check", "Bearer "+tok)
			if a.Code != http.StatusOK || a.Body.String() != b.Body.String() || !equalHeaders(a.Header(), b.Header()) {
				t.Errorf("%s: /check %d %q %v, signet's %d %q %v", alg, a.Code, a.Body, a.Header(), b.Code, b.Body, b.Header())
			}
		}
		other := "HS256"
		if alg == "HS256" {
			other = "ES256"
		}
		wrongAlg, err := mustNew(t, LibSignet, other, "small").Issue(time.Now(), UserID)
		if err != nil {
			t.Fatal(err)
		}
		// A token signed by another key of the same algorithm.
		k2, err := NewKeys()
		if err != nil {
			t.Fatal(err)
		}
		otherKey, err := New(LibSignet, alg, "small", k2)
		if err != nil {
			t.Fatal(err)
		}
		wrongKey, err := otherKey.Issue(time.Now(), UserID)
		if err != nil {
			t.Fatal(err)
		}
		refusal := serve(sh, "/check", "Bearer "+forge(t, stok))
		for name, auth := range map[string]string{
			"forged":       "Bearer " + forge(t, stok),
			"forged floor": "Bearer " + forge(t, ftok),
			"other key":    "Bearer " + wrongKey,
			"other alg":    "Bearer " + wrongAlg,
			"missing":      "",
			"garbage":      "Bearer not.a.token",
			"no dot":       "Bearer token",
			"bad base64":   "Bearer " + stok[:strings.LastIndexByte(stok, '.')+1] + "!!",
		} {
			w := serve(fh, "/check", auth)
			if w.Code != http.StatusUnauthorized || w.Body.String() != refusal.Body.String() || !equalHeaders(w.Header(), refusal.Header()) {
				t.Errorf("%s %s: %d %q %v, signet refuses %q %v", alg, name, w.Code, w.Body, w.Header(), refusal.Body, refusal.Header())
			}
		}
		for name, tok := range map[string]string{"forged": forge(t, stok), "other key": wrongKey, "other alg": wrongAlg} {
			if _, err := floor.Check(tok); !errors.Is(err, ErrRefused) {
				t.Errorf("%s %s: Check error %v, want ErrRefused", alg, name, err)
			}
		}
	}
	for _, alg := range []string{"v4.local", "RS512"} {
		if _, err := New(LibFloor, alg, "small", keys(t)); !errors.Is(err, signet.ErrUnsupported) {
			t.Errorf("floor %s: %v, want ErrUnsupported", alg, err)
		}
	}
	if _, err := New(LibFloor, "ES256", "huge", keys(t)); !errors.Is(err, signet.ErrUnsupported) {
		t.Errorf("floor of an unknown class: %v", err)
	}
}

// TestFloorConcurrent: the floor is safe for concurrent use (run with
// -race): issues and checks from several goroutines all succeed.
func TestFloorConcurrent(t *testing.T) {
	for _, alg := range []string{"HS256", "ES256"} {
		floor := mustNew(t, LibFloor, alg, "small")
		good, err := mustNew(t, LibSignet, alg, "small").Issue(time.Now(), UserID)
		if err != nil {
			t.Fatal(err)
		}
		var wg sync.WaitGroup
		errs := make(chan error, 8*50)
		for range 8 {
			wg.Go(func() {
				for range 50 {
					if _, err := floor.Issue(time.Now(), UserID); err != nil {
						errs <- err
					}
					if _, err := floor.Check(good); err != nil {
						errs <- err
					}
				}
			})
		}
		wg.Wait()
		close(errs)
		for err := range errs {
			t.Errorf("%s: %v", alg, err)
		}
	}
}

// TestFloorTokensFile: the floor's /check tokens file is signet's: n
// distinct tokens, each checked by the floor.
func TestFloorTokensFile(t *testing.T) {
	floor := mustNew(t, LibFloor, "EdDSA", "small")
	path := filepath.Join(t.TempDir(), "tokens.txt")
	if err := WriteTokens(path, floor, 4, time.Now()); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Fields(string(data))
	if len(lines) != 4 || len(slices.Compact(slices.Sorted(slices.Values(lines)))) != 4 {
		t.Fatalf("%d lines, want 4 distinct", len(lines))
	}
	for i, l := range lines {
		if _, err := floor.Check(l); err != nil {
			t.Errorf("token %d: %v", i, err)
		}
	}
}

// TestDERP256: the hand-written DER form is encoding/asn1's (derSig) for
// random signatures and the edge cases (leading zeros, top bit set, zero),
// and anything but 64 bytes is refused.
func TestDERP256(t *testing.T) {
	cases := [][]byte{make([]byte, 64), bytes.Repeat([]byte{0xff}, 64)}
	edge := make([]byte, 64)
	edge[2], edge[32] = 0x80, 0x7f
	cases = append(cases, edge)
	for range 200 {
		b := make([]byte, 64)
		rand.Read(b)
		cases = append(cases, b)
	}
	for _, c := range cases {
		want, err := derSig(c)
		if err != nil {
			t.Fatal(err)
		}
		got, ok := derP256(c)
		if !ok || !bytes.Equal(got, want) {
			t.Errorf("%x: %x, want %x", c, got, want)
		}
	}
	for _, n := range []int{0, 63, 65, 96} {
		if _, ok := derP256(make([]byte, n)); ok {
			t.Errorf("%d bytes accepted", n)
		}
	}
}
