package oauth

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"net/netip"
	"net/url"
	"strconv"
	"strings"
	"sync/atomic"
	"time"
	"unsafe"

	"github.com/signet-go/signet"
	"github.com/signet-go/signet/internal/jsonx"
	"github.com/signet-go/signet/server/internal/statuswriter"
	"github.com/signet-go/signet/server/storage"
)

// The paths the Handler serves (DESIGN §7), all advertised by discovery
// but the health checks.
const (
	PathToken      = "/oauth2/token"
	PathIntrospect = "/oauth2/introspect"
	PathRevoke     = "/oauth2/revoke"
	PathMetadata   = "/.well-known/oauth-authorization-server"
	PathJWKS       = "/.well-known/jwks.json"
	PathHealth     = "/healthz"
	PathReady      = "/readyz"
)

// KeySource gives the service its keys: the key that signs access tokens
// now, and the keys that verify them (those published, so that a token
// signed by a key just retired still verifies). The service's key
// manager implements it; it must be safe for concurrent use.
type KeySource interface {
	// Signer returns the active private key, with its key ID (kid) set.
	Signer(ctx context.Context) (*signet.Key, error)
	// Verifier returns the keys tokens of this service verify with.
	Verifier(ctx context.Context) (signet.Keys, error)
}

// Format is the access token format.
type Format string

// The access token formats.
const (
	// FormatJWT: RFC 9068 JWT access tokens (typ at+jwt). The default.
	FormatJWT Format = "jwt"
	// FormatPASETO: PASETO v4.public tokens with the same claims (exp and
	// iat as RFC 3339 times, aud a single string, the kid in the footer
	// as {"kid":…}); the signer must be a v4.public key.
	FormatPASETO Format = "paseto"
)

// Config is what New builds a Server from.
type Config struct {
	// Issuer is the service's issuer identifier (RFC 8414 §2): an http
	// or https URL without path, query or fragment, e.g.
	// "https://auth.example.com". It is the iss of every token and the
	// base of every advertised endpoint. Required.
	Issuer string
	// Clients are the registered clients. Required; replace them at run
	// time with Server.SetClients.
	Clients *Clients
	// Store keeps revocations and used client-assertion ids. Required.
	Store storage.Store
	// Keys sign and verify access tokens. Required.
	Keys KeySource
	// Format is the access token format; "" means FormatJWT.
	Format Format
	// JWKS, when set, serves PathJWKS (the key manager's handler).
	JWKS http.Handler
	// Now is the clock; nil means time.Now.
	Now func() time.Time
	// Logger receives one JSON-ready record per request (request id,
	// method, path, status, client id, error code, duration), never a
	// token or secret; nil logs nothing.
	Logger *slog.Logger
	// Observer is told each request's outcome and every store error, for
	// metrics (see the metrics package); nil observes nothing.
	Observer Observer
	// SourceAddr is the address a request's failed authentications are
	// counted by (see FailureBurst); nil means the host of
	// http.Request.RemoteAddr. Behind a load balancer or proxy that is
	// the proxy's address, shared by every client: there, set SourceAddr
	// to read the client's address as the proxy reports it, but only
	// from a proxy that overwrites what the client sent (the last hop it
	// appended to X-Forwarded-For, say), never the client's own header.
	// An invalid Addr counts as one source shared by all such requests.
	SourceAddr func(r *http.Request) netip.Addr
}

// Server is the token service's HTTP layer. Make one with New; it is
// safe for concurrent use.
type Server struct {
	issuer        string
	tokenEndpoint string
	realm         string
	issJSON       []byte // {"iss":…
	store         storage.Store
	keys          KeySource
	format        Format
	jwks          http.Handler
	now           func() time.Time
	log           *slog.Logger
	limiter       *limiter
	obs           Observer
	hdr           atomic.Pointer[signingHeader] // the signing key's JWT header

	state atomic.Pointer[state]

	reqPrefix string
	reqSeq    atomic.Uint64
	handler   http.Handler
}

// state is what changes when the clients are replaced.
type state struct {
	clients  *Clients
	metadata []byte
}

// New checks cfg and makes a Server.
func New(cfg Config) (*Server, error) {
	if err := checkIssuer(cfg.Issuer); err != nil {
		return nil, err
	}
	if cfg.Clients == nil || cfg.Store == nil || cfg.Keys == nil {
		return nil, fmt.Errorf("%w: oauth.Config needs Clients, Store and Keys", signet.ErrMalformed)
	}
	s := &Server{
		issuer:        cfg.Issuer,
		tokenEndpoint: cfg.Issuer + PathToken,
		realm:         cfg.Issuer,
		store:         cfg.Store,
		keys:          cfg.Keys,
		format:        cfg.Format,
		jwks:          cfg.JWKS,
		now:           cfg.Now,
		log:           cfg.Logger,
		obs:           cfg.Observer,
	}
	if s.obs == nil {
		s.obs = nopObserver{}
	}
	switch s.format {
	case "":
		s.format = FormatJWT
	case FormatJWT, FormatPASETO:
	default:
		return nil, fmt.Errorf("%w: access token format %q (jwt or paseto)", signet.ErrUnsupported, cfg.Format)
	}
	if s.now == nil {
		s.now = time.Now
	}
	if s.log == nil {
		s.log = slog.New(slog.DiscardHandler)
	}
	s.issJSON = jsonx.AppendString([]byte(`{"iss":`), s.issuer)
	s.limiter = newLimiter(s.now, cfg.SourceAddr)
	var p [6]byte
	rand.Read(p[:])
	s.reqPrefix = hex.EncodeToString(p[:]) + "-"
	s.SetClients(cfg.Clients)
	s.handler = s.routes()
	return s, nil
}

// checkIssuer: RFC 8414 §2 (https, no query or fragment); http is allowed
// for development, and no path, so that the paths of DESIGN §7 are the
// endpoints.
func checkIssuer(iss string) error {
	u, err := url.Parse(iss)
	if err != nil || (u.Scheme != "https" && u.Scheme != "http") || u.Host == "" ||
		u.Path != "" || u.RawQuery != "" || u.Fragment != "" || u.User != nil ||
		strings.ContainsAny(iss, "\"\\?# ") || !validClientID(iss) {
		return fmt.Errorf("%w: issuer %q must be an http(s) URL without path, query or fragment", signet.ErrMalformed, iss)
	}
	return nil
}

// SetClients replaces the registered clients (on SIGHUP, say): requests
// that started use the old set, later ones the new.
func (s *Server) SetClients(c *Clients) {
	s.state.Store(&state{clients: c, metadata: s.metadata(c)})
}

// Clients returns the registered clients.
func (s *Server) Clients() *Clients { return s.state.Load().clients }

// Handler returns the handler serving every path of DESIGN §7 but
// /metrics: PathToken, PathIntrospect, PathRevoke, PathMetadata,
// PathJWKS (when Config.JWKS is set), PathHealth and PathReady. Each
// request gets an X-Request-Id and one log record.
func (s *Server) Handler() http.Handler { return s.handler }

func (s *Server) routes() http.Handler {
	token := s.post(epToken, s.token)
	introspect := s.post(epIntrospect, s.introspect)
	revoke := s.post(epRevoke, s.revoke)
	metadata := s.get(s.serveMetadata)
	health := s.get(s.healthz)
	ready := s.get(s.readyz)
	// The paths are exact: a switch finds one in a few compares where
	// http.ServeMux cleans, matches and looks up each request's path.
	return s.logged(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case PathToken:
			token(w, r)
		case PathIntrospect:
			introspect(w, r)
		case PathRevoke:
			revoke(w, r)
		case PathMetadata:
			metadata(w, r)
		case PathHealth:
			health(w, r)
		case PathReady:
			ready(w, r)
		case PathJWKS:
			if s.jwks != nil {
				s.jwks.ServeHTTP(w, r)
				return
			}
			http.NotFound(w, r)
		default:
			http.NotFound(w, r)
		}
	}))
}

// outcome is what a handler tells the log about its request.
type outcome struct {
	client string
	code   string // the RFC 6749 error code, if any
	reason string // why, for the operator (never a secret)
}

type outcomeKey struct{}

// note records what happened in the request's outcome (for the log).
func note(r *http.Request, client, code, reason string) {
	if o, ok := r.Context().Value(outcomeKey{}).(*outcome); ok {
		if client != "" {
			o.client = client
		}
		o.code, o.reason = code, reason
	}
}

// logged gives each request an id (X-Request-Id) and writes one record
// when it ends. Only the path is logged, never the query, a header or
// the body.
func (s *Server) logged(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		id := s.requestID()
		w.Header()["X-Request-Id"] = id.v[:]
		if !s.log.Enabled(r.Context(), slog.LevelInfo) {
			next.ServeHTTP(w, r)
			return
		}
		start := time.Now()
		o := &outcome{}
		sw := &statuswriter.Writer{ResponseWriter: w}
		next.ServeHTTP(sw, r.WithContext(context.WithValue(r.Context(), outcomeKey{}, o)))
		attrs := []slog.Attr{
			slog.String("request_id", id.v[0]),
			slog.String("method", r.Method),
			slog.String("path", clipLog(r.URL.Path)),
			slog.Int("status", sw.Status),
			slog.Duration("duration", time.Since(start)),
		}
		if o.client != "" {
			attrs = append(attrs, slog.String("client_id", clipLog(o.client)))
		}
		if o.code != "" {
			attrs = append(attrs, slog.String("error", o.code))
		}
		if o.reason != "" {
			attrs = append(attrs, slog.String("reason", o.reason))
		}
		level := slog.LevelInfo
		if sw.Status >= 500 {
			level = slog.LevelError
		}
		s.log.LogAttrs(r.Context(), level, "request", attrs...)
	})
}

// requestID is a request's id and the header value that holds it, made
// in one allocation: the service's random prefix and a sequence number.
type requestID struct {
	v [1]string
	b [40]byte // 12 hex digits, "-", at most 20 digits
}

func (s *Server) requestID() *requestID {
	id := new(requestID)
	b := strconv.AppendUint(append(id.b[:0], s.reqPrefix...), s.reqSeq.Add(1), 10)
	id.v[0] = unsafe.String(unsafe.SliceData(b), len(b)) // b is not written again
	return id
}

// clipLog bounds what a request can put in a log record.
func clipLog(s string) string {
	if len(s) > 128 {
		return s[:128] + "…"
	}
	return s
}

// post wraps an endpoint that takes only POST (RFC 6749 §3.2, RFC 7662
// §2.1, RFC 7009 §2.1).
func (s *Server) post(ep endpoint, h http.HandlerFunc) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodPost {
			w.Header().Set("Allow", http.MethodPost)
			writeError(w, s.realm, &oauthError{status: http.StatusMethodNotAllowed, code: ErrInvalidRequest, desc: "use POST"})
			note(r, "", ErrInvalidRequest, "method")
			s.observe(ep, ErrInvalidRequest)
			return
		}
		h(w, r)
	}
}

func (s *Server) get(h http.HandlerFunc) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodGet && r.Method != http.MethodHead {
			w.Header().Set("Allow", "GET, HEAD")
			http.Error(w, "method not allowed", http.StatusMethodNotAllowed)
			return
		}
		h(w, r)
	}
}

func (s *Server) healthz(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	w.Write([]byte("ok\n"))
}

// readyTimeout bounds the checks of /readyz.
const readyTimeout = 2 * time.Second

func (s *Server) readyz(w http.ResponseWriter, r *http.Request) {
	ctx, cancel := context.WithTimeout(r.Context(), readyTimeout)
	defer cancel()
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	k, err := s.keys.Signer(ctx)
	if err == nil && (k == nil || !k.CanSign()) {
		err = errors.New("no signing key")
	}
	if err != nil {
		note(r, "", "", "no signing key")
		http.Error(w, "not ready: no signing key", http.StatusServiceUnavailable)
		return
	}
	if err := s.store.Ping(ctx); err != nil {
		s.obs.StoreError(StoreOpPing)
		note(r, "", "", "store unavailable")
		http.Error(w, "not ready: store unavailable", http.StatusServiceUnavailable)
		return
	}
	w.Write([]byte("ready\n"))
}
