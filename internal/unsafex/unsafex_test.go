package unsafex

import (
	"strings"
	"sync"
	"testing"
	"unsafe"
)

func TestString(t *testing.T) {
	if String(nil) != "" || String([]byte{}) != "" {
		t.Fatal("empty")
	}
	b := []byte("signet")
	s := String(b)
	if s != "signet" || unsafe.StringData(s) != &b[0] {
		t.Fatalf("%q is not a view of b", s)
	}
	// The invariant's limit: a write to b after the conversion changes the
	// string (and a substring of it), which Go assumes never happens. This
	// is why callers never write to a buffer they have viewed as a string.
	sub := s[1:3]
	b[1] = 'I'
	if s != "sIgnet" || sub != "Ig" {
		t.Fatalf("a write to the source does not show: %q %q", s, sub)
	}
	// A copy is immune to it.
	c := strings.Clone(s)
	b[0] = 'S'
	if c != "sIgnet" || s != "SIgnet" {
		t.Fatalf("copy %q, view %q", c, s)
	}
}

func TestBytes(t *testing.T) {
	if len(Bytes("")) != 0 {
		t.Fatal("empty")
	}
	s := strings.Repeat("ab", 4) // on the heap: not read-only
	b := Bytes(s)
	if string(b) != s || &b[0] != unsafe.StringData(s) {
		t.Fatal("not a view of s")
	}
	// Capacity is length: appending copies, and s is left alone.
	if cap(b) != len(s) {
		t.Fatalf("cap %d, len %d", cap(b), len(s))
	}
	grown := append(b, 'x')
	if &grown[0] == &b[0] || s != "abababab" {
		t.Fatal("append wrote past or into s")
	}
	// The invariant's limit: a write through the view changes s (writing
	// to a string literal's bytes would fault instead). This is why
	// callers only read the slice.
	b[0] = 'z'
	if s != "zbababab" {
		t.Fatalf("a write through the view does not show: %q", s)
	}
}

// TestConcurrentReaders: views read from many goroutines while nobody
// writes — the way verify and sign use them — are race-free (run with
// -race).
func TestConcurrentReaders(t *testing.T) {
	b := []byte(strings.Repeat("token.", 100))
	s := String(b)
	var wg sync.WaitGroup
	for range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			n := 0
			for range 100 {
				n += strings.Count(s, ".") + len(Bytes(s[:6]))
			}
			if n != 100*(100+6) {
				t.Errorf("read %d", n)
			}
		}()
	}
	wg.Wait()
}

// TestMakeNoZero: a buffer of its own, empty, with the capacity asked for,
// small or large; two never share memory.
func TestMakeNoZero(t *testing.T) {
	for _, n := range []int{0, 1, 511, 512, 4096, 1 << 20} {
		a, b := MakeNoZero(n), MakeNoZero(n)
		if len(a) != 0 || cap(a) < n {
			t.Fatalf("%d: len %d cap %d", n, len(a), cap(a))
		}
		if n == 0 {
			continue
		}
		a, b = a[:n], b[:n]
		for i := range a {
			a[i], b[i] = 1, 2
		}
		for i := range a {
			if a[i] != 1 || b[i] != 2 {
				t.Fatalf("%d: buffers share memory at %d", n, i)
			}
		}
	}
}
