package main

import (
	"bytes"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"
)

// lockedBuffer is a bytes.Buffer safe for the flusher and the test.
type lockedBuffer struct {
	mu     sync.Mutex
	b      bytes.Buffer
	writes int
	fail   error
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.fail != nil {
		return 0, l.fail
	}
	l.writes++
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// TestLogWriter: records go out at once before buffer and after direct;
// while buffering they are gathered (fewer writes than records), and
// direct writes every one of them, whole and in order, also from
// concurrent writers and past the buffer's size.
func TestLogWriter(t *testing.T) {
	out := &lockedBuffer{}
	l := newLogWriter(out)
	fmt.Fprintln(l, "start")
	if out.String() != "start\n" {
		t.Fatalf("before buffer: %q", out.String())
	}
	l.buffer()
	l.buffer() // a second call changes nothing
	var wg sync.WaitGroup
	const writers, each = 8, 500
	for w := range writers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range each {
				fmt.Fprintf(l, "w%d-%04d %s %s\n", w, i, strings.Repeat("x", 60), accessRecord)
			}
		}()
	}
	wg.Wait()
	if err := l.direct(); err != nil {
		t.Fatal(err)
	}
	fmt.Fprintln(l, "end")
	lines := strings.Split(strings.TrimSuffix(out.String(), "\n"), "\n")
	if len(lines) != writers*each+2 || lines[0] != "start" || lines[len(lines)-1] != "end" {
		t.Fatalf("%d lines, first %q, last %q", len(lines), lines[0], lines[len(lines)-1])
	}
	next := map[string]int{}
	for _, ln := range lines[1 : len(lines)-1] {
		var w, i int
		var rest string
		if n, err := fmt.Sscanf(ln, "w%d-%04d %s", &w, &i, &rest); n != 3 || err != nil || rest != strings.Repeat("x", 60) || !strings.HasSuffix(ln, " "+string(accessRecord)) {
			t.Fatalf("a record cut or mixed: %q", ln)
		}
		k := fmt.Sprint(w)
		if i != next[k] {
			t.Fatalf("writer %d: record %d after %d", w, i, next[k]-1)
		}
		next[k]++
	}
	if out.writes >= writers*each {
		t.Errorf("%d writes for %d records: nothing was gathered", out.writes, writers*each)
	}
	if err := l.direct(); err != nil { // not buffering: nothing to do
		t.Fatal(err)
	}
}

// TestLogWriterError: a failed write of buffered records is returned, by
// direct or by the next Write.
func TestLogWriterError(t *testing.T) {
	out := &lockedBuffer{}
	l := newLogWriter(out)
	l.buffer()
	fmt.Fprintf(l, "%s\n", accessRecord)
	boom := errors.New("disk full")
	out.mu.Lock()
	out.fail = boom
	out.mu.Unlock()
	if err := l.direct(); !errors.Is(err, boom) {
		t.Fatalf("direct: %v, want %v", err, boom)
	}
	if _, err := l.Write(make([]byte, 10)); !errors.Is(err, boom) {
		t.Fatalf("a direct write: %v, want %v", err, boom)
	}
}

// TestLogWriterOthersAtOnce: while buffering, a record that is not an
// access record is written at once, after the access records before it.
func TestLogWriterOthersAtOnce(t *testing.T) {
	out := &lockedBuffer{}
	l := newLogWriter(out)
	l.buffer()
	defer l.direct()
	fmt.Fprintf(l, "{%s\"n\":1}\n", accessRecord)
	if out.String() != "" {
		t.Fatalf("an access record written at once: %q", out.String())
	}
	fmt.Fprintln(l, `{"level":"ERROR","msg":"clients: reload failed"}`)
	want := fmt.Sprintf("{%s\"n\":1}\n", accessRecord) + `{"level":"ERROR","msg":"clients: reload failed"}` + "\n"
	if out.String() != want {
		t.Fatalf("got %q, want %q", out.String(), want)
	}
}

// blockingWriter holds every Write until release is closed, telling
// started when one begins.
type blockingWriter struct {
	started chan struct{}
	release chan struct{}
	mu      sync.Mutex
	b       bytes.Buffer
}

func (w *blockingWriter) Write(p []byte) (int, error) {
	w.started <- struct{}{}
	<-w.release
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.b.Write(p)
}

// TestLogWriterSlowDestination: while a full batch is being written to a
// destination that does not answer, other requests' access records are
// still taken (into the spare buffer) without waiting for it.
func TestLogWriterSlowDestination(t *testing.T) {
	out := &blockingWriter{started: make(chan struct{}, 4), release: make(chan struct{})}
	l := newLogWriter(out)
	l.buffer()
	rec := []byte(fmt.Sprintf("%s %s\n", accessRecord, strings.Repeat("y", 200)))
	n := 0
	for len(rec)*(n+1) <= logBufferMax {
		l.Write(rec)
		n++
	}
	sent := make(chan struct{})
	go func() { l.Write(rec); close(sent) }() // overflows: its goroutine writes the batch
	<-out.started                             // the batch's write has begun and is held
	for range 10 {
		if _, err := l.Write(rec); err != nil { // returns although the batch is held
			t.Fatal(err)
		}
	}
	close(out.release)
	<-sent
	if err := l.direct(); err != nil {
		t.Fatal(err)
	}
	out.mu.Lock()
	defer out.mu.Unlock()
	if got := strings.Count(out.b.String(), "\n"); got != n+11 {
		t.Fatalf("%d records written, want %d", got, n+11)
	}
}
