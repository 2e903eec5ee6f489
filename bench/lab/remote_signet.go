package lab

import (
	"context"
	"errors"

	"github.com/signet-go/signet"
	"github.com/signet-go/signet/jwks"
	"github.com/signet-go/signet/jwt"
)

// signetRemote is signet's jwks.Remote with its defaults, handed to
// jwt.Verify as its signet.Keys.
type signetRemote struct{}

func (signetRemote) Name() string { return "signet" }
func (signetRemote) Defaults() string {
	return "refresh from max-age/Expires clamped to [5 min, 24 h] (15 min without) at 80 %, unknown kid: one refetch per 30 s cooldown, shared, other misses answered at once, fetch timeout 5 s, body cap 1 MiB, no redirects, unusable keys skipped, stale set served 24 h then unavailable, start-up waits at most 10 s for the first fetch then retries with backoff"
}
func (signetRemote) StaleBound() bool { return true }

func (signetRemote) Open(ctx context.Context, url string, cfg RemoteConfig) (RemoteSet, error) {
	r, err := jwks.New(ctx, url, jwks.Options{Algorithms: []signet.Algorithm{signet.Algorithm(cfg.Alg)}, MaxStale: cfg.MaxStale})
	if err != nil {
		return nil, err
	}
	return &signetSet{r: r, p: jwt.Policy{Issuer: cfg.Issuer, Audience: []string{cfg.Audience}}}, nil
}

type signetSet struct {
	r *jwks.Remote
	p jwt.Policy
}

func (s *signetSet) Verify(_ context.Context, token string) error {
	_, err := jwt.Verify[jwt.Claims](s.r, token, s.p)
	return err
}

func (s *signetSet) Refresh(ctx context.Context) error { return s.r.Refresh(ctx) }
func (s *signetSet) Close() error                      { return s.r.Close() }

// SkippedKeys is the keys the set left out, over all fetches.
func (s *signetSet) SkippedKeys() uint64 { return s.r.Stats().SkippedKeys }

// Unavailable tells an unavailable key source (503) from an invalid token.
func (s *signetSet) Unavailable(err error) bool { return errors.Is(err, signet.ErrUnavailable) }
