package jwks

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"time"

	"github.com/signet-go/signet"
	"github.com/signet-go/signet/jwk"
)

// maxETag is the longest ETag echoed in If-None-Match.
const maxETag = 1024

// fetch gets the set once and installs the outcome as the new state. Only
// one fetch runs at a time (see startLocked). force asks caches on the way
// for a fresh copy (a kid miss, Refresh).
func (r *Remote) fetch(ctx context.Context, force bool) error {
	r.fetches.Add(1)
	prev := r.state.Load()
	set, h, status, err := r.get(ctx, prev, force)
	now := r.cfg.Now()
	if err == nil && status == http.StatusNotModified {
		r.notModified.Add(1)
		set = prev.set
	}
	if err != nil && ctx.Err() != nil {
		// Close cut the fetch short: no verdict on the key server, and
		// no failure that would make the set held go stale.
		return fmt.Errorf("%w: jwks: the Remote is closed: %w", signet.ErrUnavailable, err)
	}
	if err != nil {
		r.fetchErrors.Add(1)
		r.failures++
		failingSince := prev.failingSince
		if failingSince.IsZero() {
			failingSince = now
		}
		unavailable := prev.unavailable
		if prev.set != nil {
			unavailable = fmt.Errorf("%w: jwks: fetches of %s failing since %s, longer than MaxStale (%v); last error: %v",
				signet.ErrUnavailable, r.cfg.url, failingSince.UTC().Format(time.RFC3339), r.cfg.MaxStale, err)
		}
		r.state.Store(&state{
			set:          prev.set,
			lastSuccess:  prev.lastSuccess,
			failingSince: failingSince,
			due:          now.Add(backoff(r.failures, random())),
			lastErr:      err,
			unavailable:  unavailable,
		})
		return err
	}
	r.failures = 0
	r.state.Store(&state{
		set:         set,
		lastSuccess: now,
		due:         now.Add(refreshIn(r.cfg.freshness(h, now), random())),
		unavailable: prev.unavailable,
	})
	return nil
}

// get makes the request and reads the answer: a new set (200), or nil
// with status 304 when the set held is current.
func (r *Remote) get(ctx context.Context, prev *state, force bool) (*signet.KeySet, http.Header, int, error) {
	ctx, cancel := context.WithTimeout(ctx, r.cfg.FetchTimeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, r.cfg.url, nil)
	if err != nil {
		return nil, nil, 0, fmt.Errorf("%w: jwks: %v", signet.ErrUnavailable, err)
	}
	req.Header.Set("Accept", acceptHeader)
	req.Header.Set("User-Agent", userAgent)
	if force {
		req.Header.Set("Cache-Control", "no-cache")
	}
	sentETag := prev.set != nil && r.etag != ""
	if sentETag {
		req.Header.Set("If-None-Match", r.etag)
	}
	resp, err := r.client.Do(req)
	if err != nil {
		return nil, nil, 0, fmt.Errorf("%w: jwks: GET %s: %w", signet.ErrUnavailable, r.cfg.url, unwrapURLError(err))
	}
	defer resp.Body.Close()
	switch {
	case resp.StatusCode == http.StatusNotModified && sentETag:
		if etag := resp.Header.Get("ETag"); etag != "" && len(etag) <= maxETag {
			r.etag = etag
		}
		return nil, resp.Header, resp.StatusCode, nil
	case resp.StatusCode != http.StatusOK:
		return nil, nil, 0, fmt.Errorf("%w: jwks: GET %s: status %d (only 200, or 304 to a conditional request, is accepted; redirects are not followed)",
			signet.ErrUnavailable, r.cfg.url, resp.StatusCode)
	case resp.ContentLength > r.cfg.MaxSize:
		return nil, nil, 0, fmt.Errorf("%w: jwks: GET %s: %w: body of %d bytes, limit %d",
			signet.ErrUnavailable, r.cfg.url, signet.ErrTooLarge, resp.ContentLength, r.cfg.MaxSize)
	}
	body, err := io.ReadAll(io.LimitReader(resp.Body, r.cfg.MaxSize+1))
	if err != nil {
		return nil, nil, 0, fmt.Errorf("%w: jwks: GET %s: reading the body: %w", signet.ErrUnavailable, r.cfg.url, unwrapURLError(err))
	}
	if int64(len(body)) > r.cfg.MaxSize {
		return nil, nil, 0, fmt.Errorf("%w: jwks: GET %s: %w: body over the limit of %d bytes",
			signet.ErrUnavailable, r.cfg.url, signet.ErrTooLarge, r.cfg.MaxSize)
	}
	set, rep, err := jwk.ReadSet(body, r.cfg.Algorithms)
	if err != nil {
		return nil, nil, 0, fmt.Errorf("%w: jwks: GET %s: %w", signet.ErrUnavailable, r.cfg.url, err)
	}
	r.skip.Add(uint64(len(rep.Skipped)))
	if set.Len() == 0 {
		why := ""
		if len(rep.Skipped) > 0 {
			why = fmt.Sprintf(" (first skipped: %v)", rep.Skipped[0].Err)
		}
		return nil, nil, 0, fmt.Errorf("%w: jwks: GET %s: the set has no usable key for %v%s",
			signet.ErrUnavailable, r.cfg.url, r.cfg.Algorithms, why)
	}
	if r.etag = resp.Header.Get("ETag"); len(r.etag) > maxETag {
		r.etag = "" // not echoed: a conditional request is an optimisation
	}
	return set, resp.Header, resp.StatusCode, nil
}

// unwrapURLError drops the *url.Error layer, which repeats the URL.
func unwrapURLError(err error) error {
	var u *url.Error
	if errors.As(err, &u) {
		return u.Err
	}
	return err
}
