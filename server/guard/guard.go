package guard

import (
	"context"
	"fmt"
	"log/slog"
	"net/http"
	"net/http/httputil"
	"net/url"
	"strings"
	"time"

	"github.com/signet-go/signet"
	"github.com/signet-go/signet/bearer"
	"github.com/signet-go/signet/internal/clip"
	"github.com/signet-go/signet/jwt"
)

// Defaults of Config.
const (
	// DefaultClaimsHeader is the header the verified claims are forwarded in.
	DefaultClaimsHeader = "X-Signet-Claims"
	// DefaultMaxTokenSize is the largest token read (DESIGN §7b: tokens
	// over 8 KiB are refused before parsing).
	DefaultMaxTokenSize = bearer.DefaultMaxSize
	// RequestIDHeader carries the request id to the upstream and back to
	// the client. An incoming one is kept when it is short and plain
	// (see requestID); else the guard makes one.
	RequestIDHeader = "X-Request-Id"
)

// Config is what a Guard checks and where it forwards. Upstream and Keys
// are required; the zero value of every other field is a safe default.
type Config struct {
	// Upstream is the service requests are forwarded to, once their token
	// is verified: its scheme and host, and a path prefix joined to the
	// request's path (httputil.ProxyRequest.SetURL).
	Upstream *url.URL
	// Keys verify the tokens: a *jwks.Remote (github.com/signet-go/signet/jwks),
	// a *signet.KeySet or a *signet.Key. When Keys also has a method
	// Ready() error, /readyz answers 503 while it returns an error; when
	// it has Stats() jwks.Stats, the stats are exported as metrics.
	Keys signet.Keys
	// Issuer, when set, must equal the iss claim.
	Issuer string
	// Audience names the audiences this service answers to: the aud
	// claim must hold at least one. When empty, a token that names an
	// audience is refused (RFC 7519 §4.1.3), as by jwt.Verify; set
	// IgnoreAudience to skip the check.
	Audience []string
	// IgnoreAudience skips the aud check (not with Audience).
	IgnoreAudience bool
	// Scopes must each be in the token's scope claim, a string of names
	// separated by spaces (U+0020 only, RFC 6749 §3.3), matched exactly;
	// else the answer is 403 insufficient_scope. The checks are package
	// bearer's (Middleware.Verify), as for a Go service.
	Scopes []string
	// AccessToken applies the RFC 9068 profile: typ at+jwt, and the
	// claims iss, aud, exp, sub, client_id, iat and jti required (Issuer
	// and Audience must then be set).
	AccessToken bool
	// Leeway allows for clock skew in exp, nbf and iat, at most
	// jwt.MaxLeeway; zero (the default) means none.
	Leeway time.Duration
	// MaxTokenSize is the largest token accepted, in bytes
	// (DefaultMaxTokenSize when zero, at most bearer.DefaultMaxSize, the
	// limit of bearer.Token); larger ones are refused unread.
	MaxTokenSize int
	// ClaimsHeader names the header the verified claims are forwarded in
	// (DefaultClaimsHeader when empty). Its value is the token's payload
	// segment: the claims JSON exactly as signed, base64url-encoded
	// without padding (RFC 7515 §2), which is header-safe whatever the
	// claims hold. Every copy of this header in the incoming request,
	// whatever its case, and with '_' for '-', is removed first (as a
	// trailer too).
	ClaimsHeader string
	// ForwardToken keeps the Authorization header in the forwarded
	// request. By default it is removed, as Envoy's jwt_authn does: the
	// upstream gets the verified claims, and a token it never sees cannot
	// leak from it. Set it for an upstream that verifies the token again.
	ForwardToken bool
	// CacheSize is the number of verified tokens remembered
	// (DefaultCacheSize when zero; negative: no cache).
	CacheSize int
	// CacheMaxAge bounds how long a verified token is remembered
	// (DefaultCacheMaxAge when zero); never past the token's exp.
	CacheMaxAge time.Duration
	// Realm is the realm of the WWW-Authenticate challenges (none when
	// empty).
	Realm string
	// Transport forwards the requests (a clone of http.DefaultTransport
	// with more idle connections per host when nil).
	Transport http.RoundTripper
	// Logger receives a JSON-friendly line per refused or failed request,
	// with its request id (never a token), and forwarded requests at
	// debug level; nil logs nothing.
	Logger *slog.Logger
	// Metrics receives the guard's metrics (a new NewMetrics() when nil).
	Metrics *Metrics
	// Now is the clock (time.Now when nil).
	Now func() time.Time
}

// Guard is a verifying reverse proxy: it verifies each request's Bearer
// token and forwards the request, with the verified claims in a header,
// to the upstream. Make one with New; it is safe for concurrent use.
type Guard struct {
	cfg     Config
	keys    signet.Keys
	policy  jwt.Policy
	cache   *cache
	proxy   *httputil.ReverseProxy
	metrics *Metrics
	log     *slog.Logger
	now     func() time.Time
	ids     *idSource
	ready   func() error
	cached  signet.CachedKeys // Keys, when it is one: cache entries are bound to its set
	// verifier makes every check of a token the cache does not hold.
	verifier *bearer.Middleware[jwt.Claims]
	scope    string // the required scopes, space-separated, for the 403 challenge
}

// New checks cfg and makes a Guard. Errors wrap signet.ErrMalformed (a
// missing or bad field) or signet.ErrUnsupported (a policy out of range).
func New(cfg Config) (*Guard, error) {
	if cfg.Upstream == nil || cfg.Upstream.Host == "" || (cfg.Upstream.Scheme != "http" && cfg.Upstream.Scheme != "https") {
		return nil, fmt.Errorf("%w: guard: Upstream must be an http or https URL with a host", signet.ErrMalformed)
	}
	if cfg.Keys == nil {
		return nil, fmt.Errorf("%w: guard: no Keys", signet.ErrMalformed)
	}
	if cfg.ClaimsHeader == "" {
		cfg.ClaimsHeader = DefaultClaimsHeader
	}
	if !validHeaderName(cfg.ClaimsHeader) {
		return nil, fmt.Errorf("%w: guard: ClaimsHeader %q is not a header name", signet.ErrMalformed, clip.String(cfg.ClaimsHeader))
	}
	cfg.ClaimsHeader = http.CanonicalHeaderKey(cfg.ClaimsHeader)
	if sameHeader(cfg.ClaimsHeader, "Authorization") || isSetHeader(cfg.ClaimsHeader) || isHopByHop(cfg.ClaimsHeader) {
		return nil, fmt.Errorf("%w: guard: ClaimsHeader %q is a header the proxy itself uses", signet.ErrMalformed, cfg.ClaimsHeader)
	}
	if cfg.MaxTokenSize == 0 {
		cfg.MaxTokenSize = DefaultMaxTokenSize
	}
	if cfg.MaxTokenSize < 0 || cfg.MaxTokenSize > bearer.DefaultMaxSize {
		return nil, fmt.Errorf("%w: guard: MaxTokenSize %d is not between 1 and %d", signet.ErrMalformed, cfg.MaxTokenSize, bearer.DefaultMaxSize)
	}
	if cfg.CacheMaxAge == 0 {
		cfg.CacheMaxAge = DefaultCacheMaxAge
	}
	if cfg.CacheMaxAge < 0 {
		return nil, fmt.Errorf("%w: guard: negative CacheMaxAge", signet.ErrMalformed)
	}
	if cfg.CacheSize == 0 {
		cfg.CacheSize = DefaultCacheSize
	}
	switch {
	case cfg.Leeway < 0 || cfg.Leeway > jwt.MaxLeeway:
		return nil, fmt.Errorf("%w: guard: Leeway %v is not between 0 and %v", signet.ErrUnsupported, cfg.Leeway, jwt.MaxLeeway)
	case cfg.IgnoreAudience && len(cfg.Audience) > 0:
		return nil, fmt.Errorf("%w: guard: IgnoreAudience with Audience", signet.ErrMalformed)
	}
	for _, a := range cfg.Audience {
		if a == "" {
			return nil, fmt.Errorf("%w: guard: an empty Audience name", signet.ErrMalformed)
		}
	}
	if cfg.AccessToken && (cfg.Issuer == "" || len(cfg.Audience) == 0) {
		return nil, fmt.Errorf("%w: guard: the access-token profile (RFC 9068) needs Issuer and Audience", signet.ErrMalformed)
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	if cfg.Logger == nil {
		cfg.Logger = slog.New(slog.DiscardHandler)
	}
	if cfg.Metrics == nil {
		cfg.Metrics = NewMetrics()
	}
	if cfg.Transport == nil {
		t := http.DefaultTransport.(*http.Transport).Clone()
		t.MaxIdleConnsPerHost = 64
		t.ResponseHeaderTimeout = time.Minute
		cfg.Transport = t
	}
	g := &Guard{
		cfg:  cfg,
		keys: cfg.Keys,
		policy: jwt.Policy{
			Issuer:         cfg.Issuer,
			Audience:       cfg.Audience,
			IgnoreAudience: cfg.IgnoreAudience,
			Leeway:         cfg.Leeway,
			MaxSize:        cfg.MaxTokenSize,
			Now:            cfg.Now,
		},
		metrics: cfg.Metrics,
		log:     cfg.Logger,
		now:     cfg.Now,
		ids:     newIDSource(),
		ready:   func() error { return nil },
		scope:   strings.Join(cfg.Scopes, " "),
	}
	// The checks of a token are package bearer's, one way for both: the
	// policy, the RFC 9068 profile (typ at+jwt, sub, client_id, iat,
	// jti) and the scopes (space-separated, exact names).
	mw, err := bearer.New[jwt.Claims](cfg.Keys, bearer.Options{
		Policy:      g.policy,
		AccessToken: cfg.AccessToken,
		Scopes:      cfg.Scopes,
	})
	if err != nil {
		return nil, fmt.Errorf("%w: guard: %w", signet.ErrMalformed, err)
	}
	g.verifier = mw
	if cfg.CacheSize > 0 {
		g.cache = newCache(cfg.CacheSize)
	}
	if r, ok := cfg.Keys.(interface{ Ready() error }); ok {
		g.ready = r.Ready
	}
	g.cached, _ = cfg.Keys.(signet.CachedKeys)
	g.proxy = &httputil.ReverseProxy{
		Rewrite:      g.rewrite,
		Transport:    cfg.Transport,
		ErrorHandler: g.upstreamError,
		ErrorLog:     slog.NewLogLogger(cfg.Logger.Handler(), slog.LevelWarn),
	}
	if err := g.metrics.watch(g); err != nil {
		return nil, err
	}
	return g, nil
}

// Metrics returns the metrics the guard feeds.
func (g *Guard) Metrics() *Metrics { return g.metrics }

// Ready reports whether the guard can verify tokens: nil, or the key
// source's error (wrapping signet.ErrUnavailable).
func (g *Guard) Ready() error { return g.ready() }

// state is what ServeHTTP hands to the proxy's hooks for one request.
type state struct {
	id     string
	claims string // the claims header value
	failed bool   // the upstream could not be reached, or broke off
}

type stateKey struct{}

// ServeHTTP verifies the request's Bearer token and forwards the request
// to the upstream, or answers with an RFC 6750 error: 401 (no token, or
// an invalid one, with a WWW-Authenticate challenge), 403
// insufficient_scope, 503 when the key source is unavailable, 502 when
// the upstream fails.
func (g *Guard) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	id := g.ids.requestID(r.Header.Get(RequestIDHeader))
	w.Header().Set(RequestIDHeader, id)
	if dotSegment(r.URL.EscapedPath()) {
		g.refuse(w, r, id, errDotSegment)
		return
	}
	token, err := bearer.Token(r)
	if err != nil {
		g.refuse(w, r, id, err)
		return
	}
	start := time.Now()
	v, hit, err := g.check(token)
	g.metrics.verified(hit, time.Since(start))
	if err != nil {
		g.refuse(w, r, id, err)
		return
	}
	st := &state{id: id, claims: v.header}
	start = time.Now()
	g.proxy.ServeHTTP(w, r.WithContext(context.WithValue(r.Context(), stateKey{}, st)))
	took := time.Since(start)
	switch {
	case !st.failed:
		g.metrics.request(ResultForwarded)
		g.metrics.upstream(took)
		if g.log.Enabled(r.Context(), slog.LevelDebug) {
			g.log.Debug("forwarded", "request_id", id, "method", r.Method, "path", clip.String(r.URL.Path), "sub", clip.String(v.subject), "cache", hit, "upstream_ms", took.Milliseconds())
		}
	case r.Context().Err() != nil:
		g.metrics.request(ResultCanceled)
	default:
		g.metrics.request(ResultUpstreamError)
	}
}

// rewrite makes the forwarded request. The proxy has already removed the
// hop-by-hop headers, those named by Connection included, so nothing the
// client sends can remove the claims header set here.
func (g *Guard) rewrite(pr *httputil.ProxyRequest) {
	st, _ := pr.In.Context().Value(stateKey{}).(*state)
	pr.SetURL(g.cfg.Upstream)
	h := pr.Out.Header
	// The proxy dropped the client's X-Forwarded-* in their canonical
	// spelling only: every header the guard sets is removed here in any
	// spelling first, before the guard sets it.
	for name := range h {
		if g.ownHeader(name) || (!g.cfg.ForwardToken && sameHeader(name, "Authorization")) {
			delete(h, name)
		}
	}
	// Nor as a trailer of a chunked body, whose names the client declares
	// (some upstreams fold trailers into the headers): neither a header
	// the guard sets nor Authorization is ever forwarded as one.
	for name := range pr.Out.Trailer {
		if g.ownHeader(name) || sameHeader(name, "Authorization") {
			delete(pr.Out.Trailer, name)
		}
	}
	pr.SetXForwarded()
	if st == nil {
		// Not reached through ServeHTTP: forward nothing unverified.
		pr.Out.Header.Del("Authorization")
		return
	}
	h[g.cfg.ClaimsHeader] = []string{st.claims}
	h[RequestIDHeader] = []string{st.id}
}

// setHeaders are the headers the guard sets on a forwarded request
// besides the claims header.
var setHeaders = [...]string{"X-Forwarded-For", "X-Forwarded-Host", "X-Forwarded-Proto", RequestIDHeader}

// ownHeader reports whether name is, to an upstream, one of the headers
// the guard sets (the claims header, X-Forwarded-For, -Host, -Proto,
// X-Request-Id): in any case, with '_' for '-' (see sameHeader).
func (g *Guard) ownHeader(name string) bool {
	return sameHeader(name, g.cfg.ClaimsHeader) || isSetHeader(name)
}

// isSetHeader reports whether name is one of setHeaders, in any spelling.
func isSetHeader(name string) bool {
	for _, s := range setHeaders {
		if sameHeader(name, s) {
			return true
		}
	}
	return false
}

// upstreamError answers 502 when the upstream cannot be reached or its
// answer breaks off.
func (g *Guard) upstreamError(w http.ResponseWriter, r *http.Request, err error) {
	st, _ := r.Context().Value(stateKey{}).(*state)
	id := ""
	if st != nil {
		st.failed = true
		id = st.id
	}
	if r.Context().Err() != nil {
		// The client went away; nobody reads an answer.
		g.log.Info("client canceled", "request_id", id, "method", r.Method, "path", clip.String(r.URL.Path))
		w.WriteHeader(http.StatusBadGateway)
		return
	}
	g.log.Warn("upstream failed", "request_id", id, "method", r.Method, "path", clip.String(r.URL.Path), "err", err)
	http.Error(w, "bad gateway: the upstream did not answer", http.StatusBadGateway)
}

// validHeaderName reports whether s is an HTTP field name (RFC 9110 §5.1:
// a token).
func validHeaderName(s string) bool {
	if s == "" || len(s) > 128 {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case 'a' <= c && c <= 'z', 'A' <= c && c <= 'Z', '0' <= c && c <= '9':
		case strings.IndexByte("!#$%&'*+-.^_`|~", c) >= 0:
		default:
			return false
		}
	}
	return true
}

// sameHeader reports whether the field names a and b are the same to an
// upstream: case-insensitively, with '_' and '-' alike (CGI, WSGI, Rack
// and PHP map both to '_', so X_Signet_Claims reaches them as
// X-Signet-Claims would).
func sameHeader(a, b string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := 0; i < len(a); i++ {
		x, y := a[i], b[i]
		if x == y {
			continue
		}
		if 'A' <= x && x <= 'Z' {
			x += 'a' - 'A'
		}
		if 'A' <= y && y <= 'Z' {
			y += 'a' - 'A'
		}
		if x == '_' {
			x = '-'
		}
		if y == '_' {
			y = '-'
		}
		if x != y {
			return false
		}
	}
	return true
}

// isHopByHop reports whether name is a hop-by-hop header (RFC 9110 §7.6.1),
// which the proxy removes.
func isHopByHop(name string) bool {
	for _, h := range [...]string{"Connection", "Proxy-Connection", "Keep-Alive", "Proxy-Authenticate",
		"Proxy-Authorization", "Te", "Trailer", "Transfer-Encoding", "Upgrade", "Host"} {
		if sameHeader(name, h) {
			return true
		}
	}
	return false
}
