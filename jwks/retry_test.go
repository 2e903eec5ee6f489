package jwks_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/signet-go/signet"
	"github.com/signet-go/signet/jwks"
)

// TestForeignFetchFailureRetried: a fetch the background loop did not
// start (a kid miss, Refresh) that fails schedules a retry with backoff,
// as a failed background fetch does; the loop does not sleep on until
// the refresh the last success asked for. Before, with a long max-age and
// a MaxStale shorter than it, one transient failure of such a fetch left
// the Remote unavailable past MaxStale (every Select ErrUnavailable, so
// no miss could refetch either) until that refresh, hours after the key
// server had recovered.
func TestForeignFetchFailureRetried(t *testing.T) {
	for _, how := range []string{"miss", "Refresh"} {
		t.Run(how, func(t *testing.T) {
			clk := newClock()
			a := genKey(t, signet.ES256, "a")
			srv := newKeyServer(t, a)
			srv.header.Set("Cache-Control", "max-age=86400") // next refresh ~19 h away
			r := start(t, srv.url(), jwks.Options{Now: clk.Now, MaxStale: time.Hour})
			mustSelect(t, r, "a", signet.ES256)

			srv.setMode(fail500)
			switch how {
			case "miss":
				if _, err := r.Select("b", signet.ES256); !errors.Is(err, signet.ErrKeyNotFound) {
					t.Fatalf("miss: %v", err)
				}
			default:
				if err := r.Refresh(context.Background()); !errors.Is(err, signet.ErrUnavailable) {
					t.Fatalf("Refresh: %v", err)
				}
			}
			if st := r.Stats(); st.FetchErrors != 1 {
				t.Fatalf("stats %+v, want one failed fetch", st)
			}
			srv.setMode(serve)
			// The retry is due about 1 s (±20 %) after the failure by the
			// Remote's clock; the real wait follows that clock.
			clk.Advance(2 * time.Second)
			deadline := time.Now().Add(30 * time.Second) // generous: "retried at all"
			for r.Stats().LastSuccess.Before(clk.Now()) {
				if time.Now().After(deadline) {
					t.Fatalf("no successful retry after the failed fetch: %+v", r.Stats())
				}
				time.Sleep(10 * time.Millisecond)
			}
			clk.Advance(2 * time.Hour) // past MaxStale, counted from the failure
			if err := r.Ready(); err != nil {
				t.Fatalf("Ready: %v", err)
			}
			mustSelect(t, r, "a", signet.ES256)
		})
	}
}
