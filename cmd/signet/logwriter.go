package main

import (
	"bytes"
	"io"
	"sync"
	"time"
)

// logFlushEvery is how long a log record may wait in a logWriter's buffer
// while the servers run.
const logFlushEvery = 200 * time.Millisecond

// logBufferMax is the most a logWriter holds before it writes.
const logBufferMax = 64 << 10

// accessRecord marks the records a logWriter may hold back: the
// per-request records of package oauth at level INFO (slog's JSONHandler
// writes time, level and msg first). Warnings, errors and every other
// message go out at once.
var accessRecord = []byte(`"level":"INFO","msg":"request",`)

// A logWriter is the destination of serve's and guard's JSON logs. It
// writes each record at once until buffer is called, as the servers start;
// from then on it gathers the access records (accessRecord) and writes
// them together every logFlushEvery or when logBufferMax is reached, so
// that a request's record costs a copy rather than a write system call
// (about 2 µs of the token endpoint's CPU per request). Any other record
// writes what was gathered, then itself, at once, so the order holds and
// operational messages are never late. direct flushes and returns to
// writing at once, as shutdown begins; a crash can lose at most the last
// logFlushEvery of access records. Safe for concurrent use; records are
// never interleaved.
type logWriter struct {
	mu        sync.Mutex
	out       io.Writer
	buf       []byte
	buffering bool
	err       error // the last failed write of buffered records, reported by the next Write
	stop      chan struct{}
	done      chan struct{}
}

func newLogWriter(out io.Writer) *logWriter { return &logWriter{out: out} }

// Write writes p at once, or while buffering appends it to the buffer
// (writing the buffer first when p would overflow it).
func (l *logWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if !l.buffering {
		return l.out.Write(p)
	}
	if err := l.err; err != nil {
		l.err = nil
		return 0, err
	}
	if !bytes.Contains(p, accessRecord) {
		if err := l.flushLocked(); err != nil {
			return 0, err
		}
		return l.out.Write(p)
	}
	if len(l.buf)+len(p) > logBufferMax {
		if err := l.flushLocked(); err != nil {
			return 0, err
		}
		if len(p) > logBufferMax {
			return l.out.Write(p)
		}
	}
	l.buf = append(l.buf, p...)
	return len(p), nil
}

func (l *logWriter) flushLocked() error {
	if len(l.buf) == 0 {
		return nil
	}
	_, err := l.out.Write(l.buf)
	l.buf = l.buf[:0]
	return err
}

// buffer starts gathering records, written every logFlushEvery. Calling
// it while buffering does nothing.
func (l *logWriter) buffer() {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.buffering {
		return
	}
	l.buffering = true
	if l.buf == nil {
		l.buf = make([]byte, 0, logBufferMax)
	}
	l.stop, l.done = make(chan struct{}), make(chan struct{})
	go l.flushLoop(l.stop, l.done)
}

func (l *logWriter) flushLoop(stop, done chan struct{}) {
	defer close(done)
	t := time.NewTicker(logFlushEvery)
	defer t.Stop()
	for {
		select {
		case <-stop:
			return
		case <-t.C:
			l.mu.Lock()
			if err := l.flushLocked(); err != nil {
				l.err = err
			}
			l.mu.Unlock()
		}
	}
}

// direct writes what is buffered and returns to writing each record at
// once. Calling it when not buffering does nothing.
func (l *logWriter) direct() error {
	l.mu.Lock()
	if !l.buffering {
		l.mu.Unlock()
		return nil
	}
	l.buffering = false
	stop, done := l.stop, l.done
	err := l.flushLocked()
	l.mu.Unlock()
	close(stop)
	<-done
	return err
}
