package load

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"
)

// Bounds of the SIGTERM fault: how many requests are held in flight
// across the signal, how long after their handlers started the signal
// goes, and how long after it their bodies are finished.
const (
	inflightRequests = 4
	inflightSettle   = 50 * time.Millisecond
	inflightHold     = 300 * time.Millisecond
	// sigtermExitBound bounds the wait for the process to exit (serve
	// waits up to 10 s for requests in flight).
	sigtermExitBound = 15 * time.Second
	// sigtermTail is how long wrk runs on after t.Before: the signal,
	// the exit, and wrk's connections refused.
	sigtermTail = 2 * time.Second
)

// prepareSIGTERM: signet serve --data under wrk on the token endpoint
// while the probe gets and revokes tokens; requests are held in flight
// (headers read, body not finished: tokens and revocations) when SIGTERM
// arrives, and finished after it. Then serve starts again on the same
// data. Targets: every request in flight completes (200), wrk sees no
// socket error but the closes of its connections (at most one read error
// each; connection refused once the process is gone is counted apart),
// the process exits 0, and nothing is lost: the key ring is the same,
// every revocation acknowledged before the exit holds, every token issued
// verifies and introspects active unless revoked.
func prepareSIGTERM(ctx context.Context, env *Env, t FaultTiming) (fr *faultRun, err error) {
	fr = &faultRun{}
	defer fr.closeOnError(&err)
	d := faultLoadDuration(FaultSIGTERM, t)
	w, err := newFaultWorld(env, "sigterm")
	if err != nil {
		return nil, err
	}
	data := filepath.Join(w.dir, "data")
	srv, err := w.startServe(ctx, serveOpts{name: "serve-data", data: data})
	if err != nil {
		return nil, err
	}
	fr.cleanup(func() { srv.Stop() })
	addr := strings.TrimPrefix(srv.base, "http://")

	p := newProbeClient()
	fr.cleanup(p.close)
	_, kidsBefore, err := fetchKids(ctx, p, srv.base)
	if err != nil {
		return nil, err
	}
	// Tokens for the revocations held in flight.
	var toRevoke []string
	for range inflightRequests / 2 {
		_, tok, err := p.token(ctx, srv.base)
		if err != nil {
			return nil, err
		}
		toRevoke = append(toRevoke, tok)
	}
	spec, countsFile, err := withFaultScript(w.dir, tokenWrk(srv.base, t.Connect, d))
	if err != nil {
		return nil, err
	}

	tally := newStatusTally()
	var (
		mu          sync.Mutex
		issued      []string            // tokens issued (200) to the probe
		revoked     = map[string]bool{} // revocations acknowledged (200)
		start       time.Time
		completed   int
		heldFails   []string
		heldToks    []string
		exitCode    = -1
		exitErr     error
		exitedAfter time.Duration
		probeErrors int64 // the probe's transport errors before the signal
	)
	fr.wrk = spec
	fr.during = func(done <-chan struct{}) error {
		start = time.Now()
		stopProbe := make(chan struct{})
		probeDone := make(chan struct{})
		go func() {
			defer close(probeDone)
			probe(stopProbe, func() {
				x, tok, err := p.token(ctx, srv.base)
				tally.add(x, err)
				if err != nil || tok == "" {
					return
				}
				mu.Lock()
				issued = append(issued, tok)
				n := len(issued)
				mu.Unlock()
				if n%2 == 0 {
					x, err := p.revoke(ctx, srv.base, tok)
					tally.add(x, err)
					if err == nil && x.status == http.StatusOK {
						mu.Lock()
						revoked[tok] = true
						mu.Unlock()
					}
				}
			})
		}()
		var stopOnce sync.Once
		stopTheProbe := func() {
			stopOnce.Do(func() {
				close(stopProbe)
				<-probeDone
			})
		}
		defer stopTheProbe()

		sleepCtx(ctx, t.Before)
		// Requests in flight: their handlers run, the body's last byte held.
		var held []*heldRequest
		defer func() {
			for _, h := range held {
				h.conn.Close()
			}
		}()
		for i := range inflightRequests {
			var h *heldRequest
			var err error
			if i%2 == 0 {
				h, err = holdRequest(addr, pathToken, url.Values{"grant_type": {"client_credentials"}}, faultClientA, faultSecretA)
			} else {
				h, err = holdRequest(addr, pathRevoke, url.Values{"token": {toRevoke[i/2]}}, faultClientA, faultSecretA)
			}
			if err != nil {
				return fmt.Errorf("a request held in flight: %w", err)
			}
			held = append(held, h)
		}
		sleepCtx(ctx, inflightSettle)
		// The probe's own rounds end before the signal: its requests in
		// flight across it are the held ones.
		stopTheProbe()
		probeErrors = tally.transportErrors()
		if err := srv.Signal(syscall.SIGTERM); err != nil {
			return err
		}
		signalled := time.Now()
		sleepCtx(ctx, inflightHold)
		for i, h := range held {
			status, body, err := h.finish()
			tally.add(answer{status: status}, err)
			switch {
			case err != nil:
				heldFails = append(heldFails, err.Error())
			case status != http.StatusOK:
				heldFails = append(heldFails, fmt.Sprintf("%d %s", status, body))
			default:
				completed++
				if i%2 == 0 {
					var m struct {
						AccessToken string `json:"access_token"`
					}
					if json.Unmarshal(body, &m) == nil && m.AccessToken != "" {
						heldToks = append(heldToks, m.AccessToken)
					}
				} else {
					mu.Lock()
					revoked[toRevoke[i/2]] = true
					mu.Unlock()
				}
			}
		}
		select {
		case <-srv.Done():
			_, exitErr = srv.Exited()
			exitCode = exitCodeOf(exitErr)
		case <-time.After(sigtermExitBound):
			exitErr = fmt.Errorf("still running %v after SIGTERM", sigtermExitBound)
		}
		exitedAfter = time.Since(signalled)
		return nil
	}
	fr.check = func(wr WrkResult) (FaultResult, error) {
		r := FaultResult{RecoveryMS: -1, Duration: time.Since(start),
			What: fmt.Sprintf("signet serve --data under wrk -c%d on the token endpoint (%v) and a Go probe getting and revoking tokens; SIGTERM %v in with %d requests held in flight (their handlers running: 100 Continue sent; bodies finished %v after the signal); then a restart on the same data",
				t.Connect, d, t.Before, inflightRequests, inflightHold)}
		counts, err := readFaultCounts(countsFile)
		if err != nil {
			return r, err
		}
		r.addWrk(wr)
		tally.into(&r)

		// Restart on the same data: nothing lost.
		again, err := w.startServe(ctx, serveOpts{name: "serve-data-again", data: data, addr: addr})
		if err != nil {
			return r, fmt.Errorf("restart: %w", err)
		}
		defer again.Stop()
		_, kidsAfter, err := fetchKids(ctx, p, again.base)
		if err != nil {
			return r, err
		}
		cache := newJWKSCache(again.base, p.hc)
		all := append(slices.Clone(issued), heldToks...)
		var lostRevocations, notVerified, notActive, checked int
		var firstLost []string
		for tok := range revoked {
			x, err := p.introspect(ctx, again.base, tok)
			if err != nil || x.status != http.StatusOK || x.active() {
				lostRevocations++
				if len(firstLost) < 3 {
					firstLost = append(firstLost, fmt.Sprintf("revoked token: %d %v %v", x.status, x.body, err))
				}
			}
		}
		for _, tok := range all {
			if revoked[tok] {
				continue
			}
			checked++
			if _, err := cache.verify(ctx, tok); err != nil {
				notVerified++
				if len(firstLost) < 3 {
					firstLost = append(firstLost, "token: "+err.Error())
				}
				continue
			}
			if x, err := p.introspect(ctx, again.base, tok); err != nil || !x.active() {
				notActive++
			}
		}
		r.Verified, r.FailedVerifications = int64(checked-notVerified), int64(notVerified)
		r.RevokedActive = int64(lostRevocations)

		r.check("requests in flight at SIGTERM completed", completed == inflightRequests,
			"%d of %d answered 200 %v", completed, inflightRequests, heldFails)
		r.check("exit status 0", exitErr == nil && exitCode == 0, "exit %d %v, %v after SIGTERM", exitCode, exitErr, exitedAfter.Round(time.Millisecond))
		r.check("wrk: no request lost: at most one close per connection, no timeout", counts.Read <= int64(spec.Connections) && counts.Timeout == 0,
			"read errors %d (≤ %d connections: a request written as the server closed its idle connection, never read by it), timeouts %d; "+
				"write %d and connect %d errors: connections refused once the listener had closed (wrk counts a refused non-blocking connect as a write error), requests never sent",
			counts.Read, spec.Connections, counts.Timeout, counts.Write, counts.Connect)
		r.check("every answer 200", only(wr.Statuses, http.StatusOK) && r.Status503 == 0 && r.Other5xx == 0 && r.Other == 0,
			"wrk %s; probe %s", statusesString(wr.Statuses), tally)
		r.check("probe: no transport error before the signal", probeErrors == 0, "%d", probeErrors)
		r.check("the key ring survives the restart", slices.Equal(kidsBefore, kidsAfter), "before %v, after %v", kidsBefore, kidsAfter)
		r.check("every acknowledged revocation holds after the restart", lostRevocations == 0,
			"%d revocations, %d lost %v", len(revoked), lostRevocations, firstLost)
		r.check("every token issued verifies and is active after the restart", checked > 0 && notVerified == 0 && notActive == 0,
			"%d tokens: %d do not verify, %d inactive", checked, notVerified, notActive)
		r.note("wrk: %d requests, about %.0f tokens/s until the signal; the process exited %v after SIGTERM",
			wr.Requests, float64(wr.Requests)/t.Before.Seconds(), exitedAfter.Round(time.Millisecond))
		return r, nil
	}
	return fr, nil
}

// heldRequest is a form POST in flight: its handler runs and waits for
// the body's last byte.
type heldRequest struct {
	conn net.Conn
	br   *bufio.Reader
	last []byte
}

// holdRequest sends a POST of form to path at addr, with HTTP Basic
// client authentication and Expect: 100-continue, waits for the server's
// 100 Continue (sent when the handler starts reading the body: the
// request is in flight, its connection active), then sends all of the
// body but its last byte.
func holdRequest(addr, path string, form url.Values, id, secret string) (*heldRequest, error) {
	body := form.Encode()
	c, err := net.DialTimeout("tcp", addr, faultRequestBound)
	if err != nil {
		return nil, err
	}
	c.SetDeadline(time.Now().Add(faultRequestBound + sigtermExitBound))
	head := "POST " + path + " HTTP/1.1\r\nHost: " + addr +
		"\r\nAuthorization: " + basicAuth(id, secret) +
		"\r\nContent-Type: application/x-www-form-urlencoded\r\nExpect: 100-continue\r\nContent-Length: " +
		strconv.Itoa(len(body)) + "\r\n\r\n"
	h := &heldRequest{conn: c, br: bufio.NewReader(c), last: []byte(body[len(body)-1:])}
	if _, err := io.WriteString(c, head); err != nil {
		c.Close()
		return nil, err
	}
	res, err := http.ReadResponse(h.br, nil)
	if err != nil {
		c.Close()
		return nil, fmt.Errorf("waiting for 100 Continue: %w", err)
	}
	if res.StatusCode != http.StatusContinue {
		c.Close()
		return nil, fmt.Errorf("waiting for 100 Continue: %s", res.Status)
	}
	if _, err := io.WriteString(c, body[:len(body)-1]); err != nil {
		c.Close()
		return nil, err
	}
	return h, nil
}

// finish sends the last byte and reads the answer.
func (h *heldRequest) finish() (int, []byte, error) {
	defer h.conn.Close()
	if _, err := h.conn.Write(h.last); err != nil {
		return 0, nil, fmt.Errorf("finishing the body: %w", err)
	}
	res, err := http.ReadResponse(h.br, nil)
	if err != nil {
		return 0, nil, fmt.Errorf("reading the answer: %w", err)
	}
	defer res.Body.Close()
	b, err := io.ReadAll(io.LimitReader(res.Body, 1<<20))
	return res.StatusCode, b, err
}

// fetchKids returns the JWKS of base and its key IDs.
func fetchKids(ctx context.Context, p *probeClient, base string) ([]byte, []string, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, base+pathJWKS, nil)
	if err != nil {
		return nil, nil, err
	}
	res, err := p.hc.Do(req)
	if err != nil {
		return nil, nil, err
	}
	defer res.Body.Close()
	b, err := io.ReadAll(io.LimitReader(res.Body, 1<<20))
	if err != nil {
		return nil, nil, err
	}
	if res.StatusCode != http.StatusOK {
		return nil, nil, fmt.Errorf("JWKS: %d", res.StatusCode)
	}
	kids, err := kidsOf(b)
	return b, kids, err
}

// exitCodeOf is the exit status behind a Wait error (0 for nil, -1 for
// a signal or another error).
func exitCodeOf(err error) int {
	var ee *exec.ExitError
	switch {
	case err == nil:
		return 0
	case errors.As(err, &ee):
		return ee.ExitCode()
	}
	return -1
}
