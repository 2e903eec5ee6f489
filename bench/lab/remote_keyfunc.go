package lab

import (
	"context"
	"sync/atomic"

	"github.com/MicahParks/keyfunc/v3"
	gjwt "github.com/golang-jwt/jwt/v5"
)

// keyfuncRemote is keyfunc v3 (on jwkset) with golang-jwt v5: the
// defaults of keyfunc.NewDefaultCtx, through NewDefaultOverrideCtx only
// to keep refresh errors off the lab's log (the handler counts them), and
// the request's context handed to KeyfuncCtx.
type keyfuncRemote struct{}

func (keyfuncRemote) Name() string { return "keyfunc" }
func (keyfuncRemote) Defaults() string {
	return "refresh every 1 h (ticker), unknown kid: one refetch per 5 min (rate.Limiter, waits up to 1 min), fetch timeout 1 min, no body cap, redirects followed (http.DefaultClient), first fetch's failure not an error"
}
func (keyfuncRemote) StaleBound() bool { return false }

func (keyfuncRemote) Open(ctx context.Context, url string, cfg RemoteConfig) (RemoteSet, error) {
	life, stop := context.WithCancel(context.Background())
	s := &keyfuncSet{stop: stop}
	quiet := func(string) func(context.Context, error) {
		return func(context.Context, error) { s.refreshErrors.Add(1) }
	}
	k, err := keyfunc.NewDefaultOverrideCtx(life, []string{url}, keyfunc.Override{RefreshErrorHandlerFunc: quiet})
	if err != nil {
		stop()
		return nil, err
	}
	s.k = k
	s.parser = gjwt.NewParser(gjwt.WithValidMethods([]string{cfg.Alg}), gjwt.WithIssuer(cfg.Issuer), gjwt.WithAudience(cfg.Audience), gjwt.WithExpirationRequired())
	return s, nil
}

type keyfuncSet struct {
	k             keyfunc.Keyfunc
	parser        *gjwt.Parser
	stop          context.CancelFunc
	refreshErrors atomic.Int64
}

func (s *keyfuncSet) Verify(ctx context.Context, token string) error {
	_, err := s.parser.Parse(token, s.k.KeyfuncCtx(ctx))
	return err
}

func (s *keyfuncSet) Refresh(context.Context) error { return ErrNoRefresh }

func (s *keyfuncSet) Close() error {
	s.stop()
	return nil
}
