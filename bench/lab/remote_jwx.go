package lab

import (
	"context"
	"time"

	"github.com/lestrrat-go/httprc/v3"
	"github.com/lestrrat-go/jwx/v3/jwk"
	jjwt "github.com/lestrrat-go/jwx/v3/jwt"
)

// jwxRemote is jwx v3's jwk.Cache (on httprc v3) with its defaults: the
// URL registered (Register waits for the first fetch), a jwk.CachedSet
// handed to jwt.Parse with jwt.WithKeySet, as jwx's documentation shows.
type jwxRemote struct{}

func (jwxRemote) Name() string { return "jwx" }
func (jwxRemote) Defaults() string {
	return "refresh from max-age/Expires clamped to [15 min, 30 d] (15 min without), no refetch on an unknown kid (the application calls Refresh), fetch timeout 30 s, body cap 10 MiB, redirects followed (up to 5), whole set refused on one unparseable key, Register waits for the first good fetch (bounded only by its context)"
}
func (jwxRemote) StaleBound() bool { return false }

func (jwxRemote) Open(ctx context.Context, url string, cfg RemoteConfig) (RemoteSet, error) {
	life, stop := context.WithCancel(context.Background())
	c, err := jwk.NewCache(life, httprc.NewClient())
	if err != nil {
		stop()
		return nil, err
	}
	s := &jwxSet{cache: c, url: url, stop: stop, cfg: cfg}
	if err := c.Register(ctx, url); err != nil {
		s.Close()
		return nil, err
	}
	set, err := c.CachedSet(url)
	if err != nil {
		s.Close()
		return nil, err
	}
	s.set = set
	return s, nil
}

type jwxSet struct {
	cache *jwk.Cache
	url   string
	set   jwk.Set
	stop  context.CancelFunc
	cfg   RemoteConfig
}

func (s *jwxSet) Verify(_ context.Context, token string) error {
	_, err := jjwt.Parse([]byte(token), jjwt.WithKeySet(s.set), jjwt.WithIssuer(s.cfg.Issuer), jjwt.WithAudience(s.cfg.Audience), jjwt.WithRequiredClaim("exp"))
	return err
}

func (s *jwxSet) Refresh(ctx context.Context) error {
	_, err := s.cache.Refresh(ctx, s.url)
	return err
}

func (s *jwxSet) Close() error {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	err := s.cache.Shutdown(ctx)
	s.stop()
	return err
}
