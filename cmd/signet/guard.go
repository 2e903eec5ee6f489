package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log"
	"log/slog"
	"net"
	"net/http"
	"net/url"
	"os"
	"strings"
	"time"

	"github.com/signet-go/signet"
	"github.com/signet-go/signet/internal/clip"
	"github.com/signet-go/signet/jwks"
	"github.com/signet-go/signet/jwt"
	"github.com/signet-go/signet/server/guard"
)

// Timeouts and limits of the guard's HTTP servers. They are longer than
// serve's: the guard stands in front of services whose answers may take
// their time (the upstream's own answer is bounded by the transport's
// ResponseHeaderTimeout, one minute).
const (
	guardReadHeaderTimeout = 5 * time.Second
	guardReadTimeout       = 2 * time.Minute
	guardWriteTimeout      = 2 * time.Minute
	guardIdleTimeout       = 2 * time.Minute
	guardMaxHeaderBytes    = 64 << 10 // a token of 8 KiB and the rest of the headers
	guardShutdownTimeout   = 10 * time.Second
)

// defaultRemoteAlgorithms are the algorithms a remote key set is read
// for when no --alg is given: the asymmetric JWS algorithm most used for
// each key type (RSA, EC P-256, Ed25519). One per key type, so that a
// published key without "alg" (Entra ID publishes RSA keys so) is bound
// to it; others (PS256, ES384, …) need --alg.
var defaultRemoteAlgorithms = []signet.Algorithm{signet.RS256, signet.ES256, signet.EdDSA}

const guardSynopsis = `guard --upstream URL (--jwks-url URL | --key F | --jwks F) [--addr 127.0.0.1:8081]
             [--iss S] [--aud S]... [--any-aud] [--scope S]... [--claims-header NAME]
             [--admin-addr ADDR] [--alg ALG]... [--access-token] [--forward-token]
             [--leeway D] [--cache N]`

// guardHooks connect guard to its process and to tests.
type guardHooks struct {
	// hup delivers SIGHUP: fetch the remote key set now (nil: never).
	hup <-chan os.Signal
	// ready, when set, is called once the guard listens.
	ready func(*guardInstance)
	// remote, when set, adjusts the options of the remote key set (tests
	// shorten its refresh and cooldown to follow a fast rotation).
	remote func(*jwks.Options)
}

// guardInstance is a running guard, as the ready hook sees it.
type guardInstance struct {
	addr      string // the bound host:port of --addr
	adminAddr string // the bound host:port of --admin-addr, or ""
}

// guardConfig is the command line of guard, checked.
type guardConfig struct {
	upstream        *url.URL
	jwksURL         string
	keyFile         string
	jwksFile        string
	algs            []signet.Algorithm
	addr, adminAddr string
	maxStale        time.Duration // --jwks-max-stale
	guard           guard.Config
}

// runGuard runs "signet guard" for main: SIGTERM and SIGINT stop it
// gracefully, SIGHUP refreshes the remote key set.
func runGuard(args []string, stdout, stderr io.Writer, signals func(context.Context) (context.Context, <-chan os.Signal, func())) int {
	ctx, hup, stop := signals(context.Background())
	defer stop()
	return guardMain(ctx, args, stdout, stderr, guardHooks{hup: hup})
}

// guardMain runs the guard until ctx is done, then shuts it down
// gracefully and returns the exit code: 0 after a clean stop, 1 when it
// could not start or stopped on an error, 2 for a usage error.
func guardMain(ctx context.Context, args []string, stdout, stderr io.Writer, hooks guardHooks) int {
	c := &cli{stdout: stdout, stderr: stderr, now: time.Now}
	cfg, err := c.guardFlags(args)
	if err != nil {
		if errors.Is(err, errHelp) {
			return exitOK
		}
		return c.report(err)
	}
	lw := newLogWriter(stderr)
	logger := slog.New(slog.NewJSONHandler(lw, nil))
	if err := runGuardService(ctx, cfg, logger, lw, hooks); err != nil {
		return c.report(err)
	}
	return exitOK
}

// guardFlags parses and checks the command line of guard.
func (c *cli) guardFlags(args []string) (*guardConfig, error) {
	cmd := newCommand("guard", guardSynopsis)
	fs := cmd.fs
	upstream := fs.String("upstream", "", "the `URL` of the service to forward verified requests to (http or https)")
	jwksURL := fs.String("jwks-url", "", "the issuer's JWK Set `URL` (https; http only to loopback), kept fresh in the background")
	keyPath := fs.String("key", "", "a public key `file` (JWK or PEM) to verify with, instead of --jwks-url")
	jwksPath := fs.String("jwks", "", "a JWK Set `file` to verify with, instead of --jwks-url")
	addr := fs.String("addr", "127.0.0.1:8081", "`host:port` to listen on")
	adminAddr := fs.String("admin-addr", "", "`host:port` for /healthz, /readyz and /metrics (default: on --addr, where they shadow the upstream's)")
	iss := fs.String("iss", "", "required issuer (iss claim)")
	aud, anyAud := audienceFlags(cmd)
	var scopes scopeList
	fs.Var(&scopes, "scope", "required scope `S` (repeatable, or space-separated): the token's scope claim must hold every one, else 403")
	claimsHeader := fs.String("claims-header", guard.DefaultClaimsHeader, "`NAME` of the header the verified claims are forwarded in (base64url of the claims JSON as signed)")
	var algs algList
	fs.Var(&algs, "alg", "with --jwks-url: an `ALG` tokens may use (repeatable; default RS256, ES256, EdDSA); with --key: the key's algorithm when the file does not name it")
	accessToken := fs.Bool("access-token", false, "require the RFC 9068 access-token profile: typ at+jwt, sub, client_id, iat, jti (needs --iss and --aud)")
	forwardToken := fs.Bool("forward-token", false, "keep the Authorization header in forwarded requests (removed by default)")
	leeway := fs.Duration("leeway", 0, fmt.Sprintf("clock skew allowed for exp, nbf and iat, at most %v", jwt.MaxLeeway))
	cacheSize := fs.Int("cache", guard.DefaultCacheSize, "how many verified tokens to remember (0: verify every request)")
	maxStale := fs.Duration("jwks-max-stale", jwks.DefaultMaxStale, "how long the last key set fetched from --jwks-url keeps serving while fetches fail; then 503 until one succeeds")
	pos, set, err := c.parse(cmd, args)
	if err != nil {
		return nil, err
	}
	sources := 0
	for _, s := range []string{*jwksURL, *keyPath, *jwksPath} {
		if s != "" {
			sources++
		}
	}
	switch {
	case len(pos) > 0:
		return nil, cmd.usageErr("unexpected argument %q", clip.String(pos[0]))
	case *upstream == "":
		return nil, cmd.usageErr("--upstream is required")
	case sources != 1:
		return nil, cmd.usageErr("give exactly one of --jwks-url, --key and --jwks")
	case *jwksPath != "" && len(algs) > 0:
		return nil, cmd.usageErr("--alg applies to --jwks-url and --key; a JWK Set file names each key's algorithm")
	case *keyPath != "" && len(algs) > 1:
		return nil, cmd.usageErr("--key takes one --alg")
	case len(*aud) > 0 && *anyAud:
		return nil, cmd.usageErr("give --aud or --any-aud, not both")
	case *accessToken && (*iss == "" || len(*aud) == 0):
		return nil, cmd.usageErr("--access-token needs --iss and --aud (RFC 9068 requires both claims)")
	case *leeway < 0 || *leeway > jwt.MaxLeeway:
		return nil, cmd.usageErr("--leeway must be between 0 and %v", jwt.MaxLeeway)
	case *cacheSize < 0:
		return nil, cmd.usageErr("--cache must be 0 or more")
	case *maxStale <= 0:
		return nil, cmd.usageErr("--jwks-max-stale must be positive")
	case set["jwks-max-stale"] && *jwksURL == "":
		return nil, cmd.usageErr("--jwks-max-stale applies to --jwks-url")
	}
	if err := cmd.emptyCheckErr("iss"); err != nil {
		return nil, err
	}
	up, err := url.Parse(*upstream)
	if err != nil || (up.Scheme != "http" && up.Scheme != "https") || up.Host == "" {
		return nil, cmd.usageErr("--upstream %q is not an http or https URL with a host", clip.String(*upstream))
	}
	for i, a := range algs {
		if algs[i], err = cmd.jwsAlg(string(a), true); err != nil {
			return nil, err
		}
		if a = algs[i]; *jwksURL != "" && a.Symmetric() {
			return nil, cmd.usageErr("--alg %s uses a shared secret, which never comes from a published key set", a)
		}
	}
	cfg := &guardConfig{upstream: up, jwksURL: *jwksURL, keyFile: *keyPath, jwksFile: *jwksPath,
		algs: algs, addr: *addr, adminAddr: *adminAddr, maxStale: *maxStale}
	if *jwksURL != "" && len(algs) == 0 {
		cfg.algs = defaultRemoteAlgorithms
	}
	size := *cacheSize
	if size == 0 {
		size = -1 // guard.Config: negative means no cache
	}
	cfg.guard = guard.Config{
		Upstream:       up,
		Issuer:         *iss,
		Audience:       *aud,
		IgnoreAudience: *anyAud,
		Scopes:         scopes,
		AccessToken:    *accessToken,
		Leeway:         *leeway,
		ClaimsHeader:   *claimsHeader,
		ForwardToken:   *forwardToken,
		CacheSize:      size,
	}
	if set["claims-header"] && *claimsHeader == "" {
		return nil, cmd.usageErr("--claims-header needs a header name")
	}
	return cfg, nil
}

// runGuardService loads the keys, listens, serves until ctx is done and
// shuts down. Errors before serving are returned (exit 1, or 2 for a
// usage error).
func runGuardService(ctx context.Context, cfg *guardConfig, logger *slog.Logger, lw *logWriter, hooks guardHooks) error {
	var (
		keys   signet.Keys
		remote *jwks.Remote
		err    error
	)
	switch {
	case cfg.jwksURL != "":
		opts := jwks.Options{Algorithms: cfg.algs, MaxStale: cfg.maxStale}
		if hooks.remote != nil {
			hooks.remote(&opts)
		}
		if remote, err = jwks.New(ctx, cfg.jwksURL, opts); err != nil {
			return &usageError{msg: "guard: --jwks-url: " + err.Error()}
		}
		defer remote.Close()
		if err := remote.Ready(); err != nil {
			logger.Warn("jwks: no key set yet; requests get 503 and /readyz answers 503 until a fetch succeeds", "url", cfg.jwksURL, "err", err)
		}
		keys = remote
	case cfg.keyFile != "":
		alg := signet.Algorithm("")
		if len(cfg.algs) == 1 {
			alg = cfg.algs[0]
		}
		if keys, err = loadJWSKey(cfg.keyFile, alg, secretNone); err != nil {
			return err
		}
	default:
		if keys, err = loadKeySet(cfg.jwksFile); err != nil {
			return err
		}
	}
	gc := cfg.guard
	gc.Keys = keys
	gc.Logger = logger
	g, err := guard.New(gc)
	if err != nil {
		return &usageError{msg: "guard: " + err.Error()}
	}
	if len(gc.Audience) == 0 && !gc.IgnoreAudience {
		logger.Warn("no --aud: tokens that name an audience (most access tokens) are refused; give --aud, or --any-aud")
	}

	ln, err := net.Listen("tcp", cfg.addr)
	if err != nil {
		return fmt.Errorf("guard: listen on %s: %w", cfg.addr, err)
	}
	defer ln.Close()
	main := g.Handler()
	listeners := []net.Listener{ln}
	inst := &guardInstance{addr: ln.Addr().String()}
	errorLog := slog.NewLogLogger(logger.Handler(), slog.LevelWarn)
	servers := []*http.Server{newGuardServer(main, errorLog)}
	if cfg.adminAddr != "" {
		adminLn, err := net.Listen("tcp", cfg.adminAddr)
		if err != nil {
			return fmt.Errorf("guard: listen on %s (--admin-addr): %w", cfg.adminAddr, err)
		}
		defer adminLn.Close()
		// Every path of the main listener goes to the upstream.
		servers[0].Handler = g
		servers = append(servers, newGuardServer(g.AdminHandler(), errorLog))
		listeners = append(listeners, adminLn)
		inst.adminAddr = adminLn.Addr().String()
	}
	group := startServers(servers, listeners)
	group.log = lw
	source := cfg.jwksURL
	if source == "" {
		source = cfg.keyFile + cfg.jwksFile
	}
	logger.Info("signet guard: listening", "addr", inst.addr, "admin_addr", inst.adminAddr,
		"upstream", cfg.upstream.Redacted(), "keys", source, "algs", fmt.Sprint(cfg.algs),
		"iss", gc.Issuer, "aud", strings.Join(gc.Audience, ","), "scope", strings.Join(gc.Scopes, " "),
		"claims_header", http.CanonicalHeaderKey(gc.ClaimsHeader), "forward_token", gc.ForwardToken)
	if hooks.ready != nil {
		hooks.ready(inst)
	}

	onHUP := func() {
		if remote == nil {
			logger.Info("SIGHUP: nothing to reload (keys from a file)")
			return
		}
		rctx, cancel := context.WithTimeout(context.Background(), jwks.DefaultFetchTimeout)
		defer cancel()
		if err := remote.Refresh(rctx); err != nil {
			logger.Warn("SIGHUP: key set refresh failed; the keys held keep serving", "err", err)
		} else {
			logger.Info("SIGHUP: key set refreshed")
		}
	}
	return group.run(ctx, "guard", hooks.hup, onHUP, guardShutdownTimeout, logger)
}

// newGuardServer is an http.Server with the guard's timeouts and limits.
func newGuardServer(h http.Handler, errorLog *log.Logger) *http.Server {
	return &http.Server{
		Handler:           h,
		ReadHeaderTimeout: guardReadHeaderTimeout,
		ReadTimeout:       guardReadTimeout,
		WriteTimeout:      guardWriteTimeout,
		IdleTimeout:       guardIdleTimeout,
		MaxHeaderBytes:    guardMaxHeaderBytes,
		ErrorLog:          errorLog,
	}
}
