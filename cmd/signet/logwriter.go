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
	written   *sync.Cond // signalled when a batch written outside mu is done
	out       io.Writer
	buf       []byte // the records gathered since the last batch
	spare     []byte // the other buffer, swapped in when a batch goes out
	writing   bool   // a batch is being written, outside mu
	buffering bool
	err       error // the last failed write of a batch, reported by the next Write
	stop      chan struct{}
	done      chan struct{}
}

func newLogWriter(out io.Writer) *logWriter {
	l := &logWriter{out: out}
	l.written = sync.NewCond(&l.mu)
	return l
}

// Write writes p at once, or while buffering appends an access record to
// the buffer. A full buffer goes out as a batch, written outside the lock
// so that the other requests go on gathering into the spare buffer; a
// request waits only when both are full (the destination does not keep
// up).
func (l *logWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if err := l.err; err != nil {
		l.err = nil
		return 0, err
	}
	if !l.buffering || !bytes.Contains(p, accessRecord) {
		// In order: what was gathered first, then p.
		if err := l.flushLocked(); err != nil {
			return 0, err
		}
		return l.out.Write(p)
	}
	for len(l.buf)+len(p) > logBufferMax && l.writing {
		l.written.Wait()
	}
	if len(l.buf)+len(p) > logBufferMax {
		l.sendLocked()
		if len(p) > logBufferMax {
			if err := l.flushLocked(); err != nil {
				return 0, err
			}
			return l.out.Write(p)
		}
	}
	l.buf = append(l.buf, p...)
	return len(p), nil
}

// sendLocked writes the gathered records as one batch, outside the lock,
// and swaps in the spare buffer. No batch may be in flight.
func (l *logWriter) sendLocked() {
	if len(l.buf) == 0 {
		return
	}
	batch := l.buf
	l.buf, l.spare = l.spare[:0], nil
	l.writing = true
	l.mu.Unlock()
	_, err := l.out.Write(batch)
	l.mu.Lock()
	l.writing = false
	l.spare = batch[:0]
	if err != nil && l.err == nil {
		l.err = err
	}
	l.written.Broadcast()
}

// flushLocked waits for a batch in flight, then writes what is gathered,
// holding the lock.
func (l *logWriter) flushLocked() error {
	for l.writing {
		l.written.Wait()
	}
	if err := l.err; err != nil {
		l.err = nil
		return err
	}
	if len(l.buf) == 0 {
		return nil
	}
	_, err := l.out.Write(l.buf)
	l.buf = l.buf[:0]
	return err
}

// buffer starts gathering access records, written every logFlushEvery.
// Calling it while buffering does nothing.
func (l *logWriter) buffer() {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.buffering {
		return
	}
	l.buffering = true
	if l.buf == nil {
		l.buf = make([]byte, 0, logBufferMax)
		l.spare = make([]byte, 0, logBufferMax)
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
			if !l.writing {
				l.sendLocked()
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
