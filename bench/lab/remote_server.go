package lab

import (
	"bytes"
	"net/http"
	"net/http/httptest"
	"sync"
	"sync/atomic"
	"time"
)

// jwksServer is the hostile JWK Set server of the remote scenarios: it
// listens on 127.0.0.1, counts the requests it receives (fetches), answers
// each after delay (a real identity provider's round trip) and serves
// whatever the scenario sets: a set, a 500, a redirect, a huge body.
type jwksServer struct {
	srv     *httptest.Server
	delay   time.Duration
	fetches atomic.Int64

	mu       sync.Mutex
	body     []byte
	status   int    // 0 or 200: the body; else this status
	location string // a redirect's target, with status 302
	pad      int    // bytes of padding after the set (a huge body)
	closed   bool
}

func newJWKSServer(body []byte, delay time.Duration) *jwksServer {
	s := &jwksServer{body: body, delay: delay}
	s.srv = httptest.NewServer(http.HandlerFunc(s.serve))
	return s
}

// URL is the set's address.
func (s *jwksServer) URL() string { return s.srv.URL + "/.well-known/jwks.json" }

// Fetches is the number of requests received so far.
func (s *jwksServer) Fetches() int64 { return s.fetches.Load() }

// set replaces what the server answers.
func (s *jwksServer) set(body []byte, status int, location string, pad int) {
	s.mu.Lock()
	s.body, s.status, s.location, s.pad = body, status, location, pad
	s.mu.Unlock()
}

// fail makes every later request a 500.
func (s *jwksServer) fail() { s.set(nil, http.StatusInternalServerError, "", 0) }

// Close stops the server: later requests meet a refused connection.
func (s *jwksServer) Close() {
	s.mu.Lock()
	done := s.closed
	s.closed = true
	s.mu.Unlock()
	if !done {
		s.srv.CloseClientConnections()
		s.srv.Close()
	}
}

func (s *jwksServer) serve(w http.ResponseWriter, r *http.Request) {
	s.fetches.Add(1)
	if s.delay > 0 {
		t := time.NewTimer(s.delay)
		select {
		case <-t.C:
		case <-r.Context().Done():
			t.Stop()
			return
		}
	}
	s.mu.Lock()
	body, status, location, pad := s.body, s.status, s.location, s.pad
	s.mu.Unlock()
	switch {
	case location != "":
		http.Redirect(w, r, location, http.StatusFound)
	case status != 0 && status != http.StatusOK:
		http.Error(w, "identity provider down", status)
	case pad > 0:
		// A valid set with pad bytes of whitespace before its closing
		// brace: JSON that parses, only when read to its end, and longer
		// than any JWK Set should be.
		w.Header().Set("Content-Type", "application/json")
		open := bytes.TrimRight(body, " \n")
		w.Write(open[:len(open)-1])
		chunk := bytes.Repeat([]byte{' '}, 64<<10)
		for n := 0; n < pad; n += len(chunk) {
			if _, err := w.Write(chunk[:min(len(chunk), pad-n)]); err != nil {
				return
			}
		}
		w.Write([]byte("}"))
	default:
		w.Header().Set("Content-Type", "application/jwk-set+json")
		w.Write(body)
	}
}
