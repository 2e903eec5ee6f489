package main

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"crypto/tls"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log"
	"log/slog"
	"net"
	"net/http"
	"net/netip"
	"net/url"
	"os"
	"path/filepath"
	"time"

	"github.com/redis/go-redis/v9"
	"github.com/signet-go/signet"
	"github.com/signet-go/signet/server/keys"
	"github.com/signet-go/signet/server/metrics"
	"github.com/signet-go/signet/server/oauth"
	"github.com/signet-go/signet/server/storage"
	"github.com/signet-go/signet/server/storage/boltstore"
	"github.com/signet-go/signet/server/storage/redisstore"
)

// Timeouts and limits of the token service's HTTP servers. The request
// bodies are bounded by the oauth package (oauth.MaxBodySize).
const (
	serveReadHeaderTimeout = 5 * time.Second
	serveReadTimeout       = 10 * time.Second
	serveWriteTimeout      = 15 * time.Second
	serveIdleTimeout       = 60 * time.Second
	serveMaxHeaderBytes    = 16 << 10
	// serveShutdownTimeout bounds the wait for in-flight requests on
	// SIGTERM; connections still open after it are closed.
	serveShutdownTimeout = 10 * time.Second
	// serveRefreshTimeout bounds the first load of the key ring: a store
	// that does not answer by then does not stop the start (/readyz
	// answers 503 until the key loop loads the ring).
	serveRefreshTimeout = 10 * time.Second
	// serveReload is how often the key loop reloads the ring from the
	// store (keys.Config.Reload): so how soon an outage stops issuing and
	// introspecting (503) and how soon the service resumes once the store
	// answers again. One small read per second and instance.
	serveReload = time.Second
)

// kekEnv is the environment variable holding the key-encryption key.
const kekEnv = "SIGNET_KEK"

// redisPasswordEnv is the environment variable holding the Redis password,
// kept off the command line, which every local user can read (ps).
const redisPasswordEnv = "SIGNET_REDIS_PASSWORD"

const serveSynopsis = `serve --clients F [--addr 127.0.0.1:8080] [--issuer URL] [--data DIR | --redis URL]
             [--kek-file F] [--alg ES256] [--format jwt|paseto] [--rotate 168h]
             [--tls-cert F --tls-key F] [--admin-addr ADDR]
  signet serve --dev [--addr 127.0.0.1:8080]`

// serveHooks connect serve to its process: main passes the SIGHUP
// channel, tests a ready callback and an environment of their own.
type serveHooks struct {
	// hup delivers SIGHUP: reload the clients file (nil: never).
	hup <-chan os.Signal
	// ready, when set, is called once the service listens.
	ready func(*instance)
	// getenv reads the environment (os.Getenv when nil).
	getenv func(string) string
	// redisTimeout bounds each Redis operation (redisstore.DefaultTimeout
	// when zero, as in main). Tests on a loaded machine raise it, so that
	// a slow but working Redis is not taken for an outage.
	redisTimeout time.Duration
}

// instance is a running service, as the ready hook sees it.
type instance struct {
	addr      string // the bound host:port of --addr
	adminAddr string // the bound host:port of --admin-addr, or ""
	issuer    string
	// reload re-reads the clients file, as SIGHUP does.
	reload func() error
}

// serveConfig is the command line of serve, checked.
type serveConfig struct {
	dev                bool
	clients            string
	addr, adminAddr    string
	issuer             string
	data, redisURL     string
	kekFile            string
	alg                signet.Algorithm
	format             oauth.Format
	rotate             time.Duration
	tlsCert, tlsKey    string
	kekFromEnvironment string
	trustedProxies     []netip.Prefix
	// redisPasswordOnArgv: --redis holds a password (logged as a warning).
	redisPasswordOnArgv bool
}

// runServe runs "signet serve" for main: SIGTERM and SIGINT stop it
// gracefully, SIGHUP reloads the clients file.
func runServe(args []string, stdout, stderr io.Writer, signals func(context.Context) (context.Context, <-chan os.Signal, func())) int {
	ctx, hup, stop := signals(context.Background())
	defer stop()
	return serve(ctx, args, stdout, stderr, serveHooks{hup: hup})
}

// serve runs the token service until ctx is done, then shuts it down
// gracefully and returns the exit code: 0 after a clean stop, 1 when it
// could not start or stopped on an error, 2 for a usage error.
func serve(ctx context.Context, args []string, stdout, stderr io.Writer, hooks serveHooks) int {
	c := &cli{stdout: stdout, stderr: stderr, now: time.Now}
	if hooks.getenv == nil {
		hooks.getenv = os.Getenv
	}
	cfg, err := c.serveFlags(args, hooks.getenv)
	if err != nil {
		if errors.Is(err, errHelp) {
			return exitOK
		}
		return c.report(err)
	}
	lw := newLogWriter(stderr)
	logger := slog.New(slog.NewJSONHandler(lw, nil))
	if err := runService(ctx, cfg, stdout, logger, lw, hooks); err != nil {
		return c.report(err)
	}
	return exitOK
}

// serveFlags parses and checks the command line of serve.
func (c *cli) serveFlags(args []string, getenv func(string) string) (*serveConfig, error) {
	cmd := newCommand("serve", serveSynopsis)
	fs := cmd.fs
	dev := fs.Bool("dev", false, "an in-memory instance with one generated client, printed with a curl line (for trying it out)")
	clients := fs.String("clients", "", "the clients `file` (JSON; reloaded on SIGHUP)")
	addr := fs.String("addr", "127.0.0.1:8080", "`host:port` to listen on")
	issuer := fs.String("issuer", "", "the issuer `URL` (default http://ADDR, https:// with --tls-cert)")
	data := fs.String("data", "", "`directory` of the embedded store (signet.db) and, without --kek-file or SIGNET_KEK, of the key-encryption key (kek)")
	redisURL := fs.String("redis", "", "the shared store: redis://[user@]host:port/db (needs --kek-file or SIGNET_KEK, the same for every instance; the password from SIGNET_REDIS_PASSWORD, not the command line, which ps shows)")
	kekFile := fs.String("kek-file", "", "`file` holding the key-encryption key (a k4.local PASERK, mode 0600); else SIGNET_KEK")
	alg := fs.String("alg", string(keys.DefaultAlgorithm), "signing `algorithm`: a JWS algorithm, or v4.public (implied by --format paseto)")
	format := fs.String("format", string(oauth.FormatJWT), "access token `format`: jwt (RFC 9068) or paseto (v4.public)")
	rotate := fs.String("rotate", "168h", "how long each signing key signs before the next takes over (a Go `duration`: 168h, 90s; under 30m the JWKS max-age is half of it)")
	tlsCert := fs.String("tls-cert", "", "TLS certificate `file` (PEM; with --tls-key)")
	tlsKey := fs.String("tls-key", "", "TLS private key `file` (PEM; with --tls-cert)")
	adminAddr := fs.String("admin-addr", "", "`host:port` for /healthz and /readyz (default: on --addr)")
	var trusted []netip.Prefix
	fs.Func("trusted-proxy", "a proxy's address or `CIDR` (repeatable): requests from it count failed authentications by the client address it appends to X-Forwarded-For", func(v string) error {
		p, err := netip.ParsePrefix(v)
		if err != nil {
			a, aerr := netip.ParseAddr(v)
			if aerr != nil {
				return fmt.Errorf("not an address or CIDR: %q", v)
			}
			p = netip.PrefixFrom(a, a.BitLen())
		}
		if p.Bits() == 0 {
			return fmt.Errorf("%q trusts every address: any client could then name its own source", v)
		}
		trusted = append(trusted, p.Masked())
		return nil
	})
	pos, set, err := c.parse(cmd, args)
	if err != nil {
		return nil, err
	}
	if len(pos) > 0 {
		return nil, cmd.usageErr("unexpected argument %q", pos[0])
	}
	cfg := &serveConfig{dev: *dev, clients: *clients, addr: *addr, adminAddr: *adminAddr, issuer: *issuer,
		data: *data, redisURL: *redisURL, kekFile: *kekFile, tlsCert: *tlsCert, tlsKey: *tlsKey, trustedProxies: trusted}
	if cfg.dev {
		for _, f := range []string{"clients", "data", "redis", "kek-file"} {
			if set[f] {
				return nil, cmd.usageErr("--dev takes no --%s: it keeps everything in memory", f)
			}
		}
	} else {
		if cfg.clients == "" {
			return nil, cmd.usageErr("--clients is required (or --dev for an in-memory instance)")
		}
		switch {
		case set["data"] && set["redis"]:
			return nil, cmd.usageErr("--data and --redis together: choose one store")
		case cfg.data == "" && cfg.redisURL == "":
			return nil, cmd.usageErr("no store: give --data DIR (one instance) or --redis URL (many), or --dev")
		}
		if cfg.redisURL != "" {
			if err := cfg.redisPassword(cmd, getenv(redisPasswordEnv)); err != nil {
				return nil, err
			}
		}
		if cfg.redisURL != "" && cfg.kekFile == "" {
			cfg.kekFromEnvironment = getenv(kekEnv)
			if cfg.kekFromEnvironment == "" {
				return nil, cmd.usageErr("--redis needs the key-encryption key from --kek-file or %s, the same for every instance (make one with: signet keygen v4.local)", kekEnv)
			}
		} else if cfg.kekFile == "" {
			cfg.kekFromEnvironment = getenv(kekEnv)
		}
	}
	if (cfg.tlsCert == "") != (cfg.tlsKey == "") {
		return nil, cmd.usageErr("--tls-cert and --tls-key go together")
	}
	switch f := oauth.Format(*format); f {
	case oauth.FormatJWT, oauth.FormatPASETO:
		cfg.format = f
	default:
		return nil, cmd.usageErr("unknown --format %q (jwt or paseto)", *format)
	}
	a, err := cmd.parseAlg(*alg)
	if err != nil {
		return nil, err
	}
	switch {
	case cfg.format == oauth.FormatPASETO && !set["alg"]:
		a = signet.V4Public
	case cfg.format == oauth.FormatPASETO && a != signet.V4Public:
		return nil, cmd.usageErr("--format paseto signs with v4.public, not %s", a)
	case cfg.format == oauth.FormatJWT && !a.IsJWS():
		return nil, cmd.usageErr("--alg %s is not a JWS algorithm (for v4.public, use --format paseto)", a)
	}
	cfg.alg = a
	d, err := time.ParseDuration(*rotate)
	if err != nil || d <= 0 {
		return nil, cmd.usageErr("--rotate %q is not a positive duration (168h, 90s, …)", *rotate)
	}
	cfg.rotate = d
	return cfg, nil
}

// redisPassword puts password (SIGNET_REDIS_PASSWORD), when there is one,
// into the Redis URL, and notes a password given in --redis itself. Both
// at once is a usage error. A URL that does not parse is left for the
// store to refuse. Errors never quote the URL or the password.
func (cfg *serveConfig) redisPassword(cmd *command, password string) error {
	u, err := url.Parse(cfg.redisURL)
	if err != nil {
		return nil
	}
	_, onArgv := u.User.Password()
	switch {
	case onArgv && password != "":
		return cmd.usageErr("--redis holds a password and %s gives one too: give it only in %s", redisPasswordEnv, redisPasswordEnv)
	case onArgv:
		cfg.redisPasswordOnArgv = true
	case password != "":
		u.User = url.UserPassword(u.User.Username(), password)
		cfg.redisURL = u.String()
	}
	return nil
}

// runService opens the store and the keys, listens, serves until ctx is
// done and shuts down. Errors before serving are returned (exit 1, or 2
// for a usage error).
func runService(ctx context.Context, cfg *serveConfig, stdout io.Writer, logger *slog.Logger, lw *logWriter, hooks serveHooks) error {
	redis.SetLogger(redisLogger{logger})
	if cfg.redisPasswordOnArgv {
		logger.Warn("--redis holds a password, which every local user can read on the command line (ps): give it in " + redisPasswordEnv + " instead")
	}
	var tlsConfig *tls.Config
	if cfg.tlsCert != "" {
		// Read as every file the CLI reads (readFile): a regular file of
		// at most maxInput bytes, never a pipe waited on.
		certPEM, err := readFile(cfg.tlsCert, "--tls-cert")
		if err != nil {
			return fmt.Errorf("serve: TLS certificate: %w", err)
		}
		keyPEM, err := readFile(cfg.tlsKey, "--tls-key")
		if err != nil {
			return fmt.Errorf("serve: TLS key: %w", err)
		}
		pair, err := tls.X509KeyPair(certPEM, keyPEM)
		if err != nil {
			return fmt.Errorf("serve: TLS certificate: %w", err)
		}
		tlsConfig = &tls.Config{Certificates: []tls.Certificate{pair}, MinVersion: tls.VersionTLS12}
	}
	var (
		clients *oauth.Clients // the --dev client is made once the address is known
		err     error
	)
	if !cfg.dev {
		if clients, err = loadClientsFile(cfg.clients); err != nil {
			return fmt.Errorf("serve: --clients: %w", err)
		}
	}
	kek, err := loadServeKEK(cfg)
	if err != nil {
		return err
	}
	store, kind, err := openServeStore(ctx, cfg, logger, hooks.redisTimeout)
	if err != nil {
		return err
	}
	defer func() {
		if err := store.Close(); err != nil {
			logger.Warn("closing the store", "err", err)
		}
	}()

	ln, err := net.Listen("tcp", cfg.addr)
	if err != nil {
		return fmt.Errorf("serve: listen on %s: %w", cfg.addr, err)
	}
	defer ln.Close()
	var adminLn net.Listener
	if cfg.adminAddr != "" {
		if adminLn, err = net.Listen("tcp", cfg.adminAddr); err != nil {
			return fmt.Errorf("serve: listen on %s (--admin-addr): %w", cfg.adminAddr, err)
		}
		defer adminLn.Close()
	}
	base := baseURL(cfg.addr, ln.Addr(), tlsConfig != nil)
	issuer := cfg.issuer
	if issuer == "" {
		issuer = base
	}

	var devID, devSecret string
	if cfg.dev {
		if clients, devID, devSecret, err = devClient(issuer); err != nil {
			return fmt.Errorf("serve: clients: %w", err)
		}
	}

	m := metrics.New()
	km, err := keys.New(store, keys.Config{Algorithm: cfg.alg, Rotate: cfg.rotate, Reload: serveReload, KEK: kek, Logger: logger, Observer: m})
	if err != nil {
		return &usageError{msg: "serve: " + err.Error()}
	}
	if err := m.WatchKeys(km); err != nil {
		return fmt.Errorf("serve: metrics: %w", err)
	}
	ocfg := oauth.Config{Issuer: issuer, Clients: clients, Store: store, Keys: km,
		Format: cfg.format, JWKS: km.JWKSHandler(), Logger: logger, Observer: m}
	if len(cfg.trustedProxies) > 0 {
		ocfg.SourceAddr = oauth.ForwardedFor(cfg.trustedProxies)
	}
	srv, err := oauth.New(ocfg)
	if err != nil {
		return &usageError{msg: "serve: " + err.Error()}
	}

	refreshCtx, cancel := context.WithTimeout(ctx, serveRefreshTimeout)
	err = km.Refresh(refreshCtx)
	cancel()
	if err != nil {
		if errors.Is(err, signet.ErrSignatureInvalid) {
			// A ring the KEK does not open: another KEK, or tampering.
			return fmt.Errorf("serve: the stored keys do not open with this key-encryption key: %w", err)
		}
		logger.Warn("keys: first load failed; /readyz answers 503 until the store answers", "err", err)
	}
	loopCtx, stopLoop := context.WithCancel(context.Background())
	defer stopLoop()
	go km.Run(loopCtx) // every second: a store back after an outage is used within a second

	main, admin := servedHandlers(m.Instrument(srv.Handler()), m.Handler(), adminLn != nil)
	errorLog := slog.NewLogLogger(logger.Handler(), slog.LevelWarn)
	servers := []*http.Server{newHTTPServer(main, tlsConfig, errorLog)}
	listeners := []net.Listener{ln}
	if adminLn != nil {
		servers = append(servers, newHTTPServer(admin, nil, errorLog))
		listeners = append(listeners, adminLn)
	}
	group := startServers(servers, listeners)
	group.log = lw

	reload := func() error {
		if cfg.dev {
			logger.Info("clients: nothing to reload (--dev)")
			return nil
		}
		cs, err := loadClientsFile(cfg.clients)
		if err != nil {
			logger.Error("clients: reload failed; keeping the clients loaded before", "file", cfg.clients, "err", err)
			return err
		}
		srv.SetClients(cs)
		logger.Info("clients: reloaded", "file", cfg.clients, "clients", len(cs.All()))
		return nil
	}
	inst := &instance{addr: ln.Addr().String(), issuer: issuer, reload: reload}
	if adminLn != nil {
		inst.adminAddr = adminLn.Addr().String()
	}
	if cfg.dev {
		fmt.Fprintf(stdout, "client_id:     %s\nclient_secret: %s\n\nGet a token:\n  curl -s -u %s:%s -d grant_type=client_credentials %s%s\n",
			devID, devSecret, devID, devSecret, base, oauth.PathToken)
	}
	logger.Info("signet serve: listening", "addr", inst.addr, "admin_addr", inst.adminAddr, "issuer", issuer,
		"alg", string(cfg.alg), "format", string(cfg.format), "rotate", cfg.rotate.String(),
		"storage", kind, "tls", tlsConfig != nil, "clients", len(clients.All()))
	if hooks.ready != nil {
		hooks.ready(inst)
	}

	err = group.run(ctx, "serve", hooks.hup, func() { reload() }, serveShutdownTimeout, logger)
	stopLoop()
	return err
}

// loadClientsFile loads the clients file at path (oauth.LoadClients),
// refusing one that every local user may write: whoever writes it
// registers clients, and gets tokens for the audiences it names.
func loadClientsFile(path string) (*oauth.Clients, error) {
	fi, err := os.Stat(path)
	if err != nil {
		return nil, err
	}
	if worldWritable(fi) {
		return nil, fmt.Errorf("%w: %s has permissions %#o: every user can write it, and so register a client (chmod o-w)", signet.ErrUnsupported, path, fi.Mode().Perm())
	}
	return oauth.LoadClients(path)
}

// newHTTPServer is an http.Server with the service's timeouts and limits.
func newHTTPServer(h http.Handler, tlsConfig *tls.Config, errorLog *log.Logger) *http.Server {
	return &http.Server{
		Handler:           h,
		TLSConfig:         tlsConfig,
		ReadHeaderTimeout: serveReadHeaderTimeout,
		ReadTimeout:       serveReadTimeout,
		WriteTimeout:      serveWriteTimeout,
		IdleTimeout:       serveIdleTimeout,
		MaxHeaderBytes:    serveMaxHeaderBytes,
		ErrorLog:          errorLog,
	}
}

// servedHandlers splits the service's handler between the main listener
// and the admin one: with an admin listener, the health checks and
// /metrics answer there only (404 on the main one); without one, /metrics
// is served beside the endpoints. h is already instrumented.
func servedHandlers(h, metricsHandler http.Handler, withAdmin bool) (main, admin http.Handler) {
	if !withAdmin {
		mux := http.NewServeMux()
		mux.Handle(metrics.Path, metricsHandler)
		mux.Handle("/", h)
		return mux, nil
	}
	adminMux := http.NewServeMux()
	adminMux.Handle(oauth.PathHealth, h)
	adminMux.Handle(oauth.PathReady, h)
	adminMux.Handle(metrics.Path, metricsHandler)
	main = http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == oauth.PathHealth || r.URL.Path == oauth.PathReady || r.URL.Path == metrics.Path {
			http.NotFound(w, r)
			return
		}
		h.ServeHTTP(w, r)
	})
	return main, adminMux
}

// baseURL is the URL the service is reached at: the host of --addr (or
// localhost when it names every interface) and the bound port.
func baseURL(addr string, bound net.Addr, https bool) string {
	host, _, err := net.SplitHostPort(addr)
	if ip := net.ParseIP(host); err != nil || host == "" || (ip != nil && ip.IsUnspecified()) {
		host = "localhost"
	}
	_, port, _ := net.SplitHostPort(bound.String())
	scheme := "http"
	if https {
		scheme = "https"
	}
	return scheme + "://" + net.JoinHostPort(host, port)
}

// loadServeKEK returns the key-encryption key: from --kek-file, else from
// SIGNET_KEK, else (--data) the one kept in the data directory, created
// on first start; --dev makes a fresh one.
func loadServeKEK(cfg *serveConfig) (*signet.Key, error) {
	switch {
	case cfg.dev:
		return keys.GenerateKEK()
	case cfg.kekFile != "":
		k, err := keys.LoadKEK(cfg.kekFile)
		if err != nil {
			return nil, fmt.Errorf("serve: --kek-file: %w", err)
		}
		return k, nil
	case cfg.kekFromEnvironment != "":
		k, err := keys.ParseKEK(cfg.kekFromEnvironment)
		if err != nil {
			return nil, fmt.Errorf("serve: %s: %w", kekEnv, err)
		}
		return k, nil
	default:
		k, err := keys.LoadOrCreateKEK(cfg.data)
		if err != nil {
			return nil, fmt.Errorf("serve: key-encryption key in %s: %w", cfg.data, err)
		}
		return k, nil
	}
}

// openServeStore opens the store the flags name, and says which kind it
// is (for the log). A Redis that does not answer at start does not stop
// the start: the store fails with storage.ErrUnavailable until it does.
func openServeStore(ctx context.Context, cfg *serveConfig, logger *slog.Logger, redisTimeout time.Duration) (storage.Store, string, error) {
	switch {
	case cfg.dev:
		return storage.NewMemory(nil), "memory", nil
	case cfg.data != "":
		if err := os.MkdirAll(cfg.data, 0o700); err != nil {
			return nil, "", fmt.Errorf("serve: --data: %w", err)
		}
		s, err := boltstore.Open(filepath.Join(cfg.data, "signet.db"), nil)
		if err != nil {
			return nil, "", fmt.Errorf("serve: --data: %w", err)
		}
		return s, "bolt", nil
	}
	// Lazy: a Redis that does not answer yet does not stop the start; the
	// service listens, answers 503 and reports not ready until it does.
	s, err := redisstore.Open(ctx, cfg.redisURL, redisstore.Options{Lazy: true, Timeout: redisTimeout})
	if err != nil {
		return nil, "", &usageError{msg: "serve: --redis: " + err.Error()}
	}
	if err := s.Ping(ctx); err != nil {
		logger.Warn("redis does not answer yet; /readyz answers 503 until it does", "err", err)
	}
	return s, "redis", nil
}

// redisLogger sends the Redis client's own messages (connection pool
// failures) to the service's JSON log, as warnings.
type redisLogger struct{ l *slog.Logger }

func (r redisLogger) Printf(ctx context.Context, format string, v ...any) {
	r.l.WarnContext(ctx, "redis: "+fmt.Sprintf(format, v...))
}

// devClient makes the one client of --dev: a random id and 256-bit
// secret (kept only as its hash), scopes "read write", audience the
// issuer.
func devClient(issuer string) (*oauth.Clients, string, string, error) {
	var id [4]byte
	var secret [32]byte
	if _, err := rand.Read(id[:]); err != nil {
		return nil, "", "", err
	}
	if _, err := rand.Read(secret[:]); err != nil {
		return nil, "", "", err
	}
	clientID := "dev-" + hex.EncodeToString(id[:])
	clientSecret := base64.RawURLEncoding.EncodeToString(secret[:])
	sum := sha256.Sum256([]byte(clientSecret))
	file, err := json.Marshal(map[string]any{"clients": []map[string]any{{
		"client_id":            clientID,
		"client_secret_sha256": hex.EncodeToString(sum[:]),
		"scope":                "read write",
		"audience":             []string{issuer},
	}}})
	if err != nil {
		return nil, "", "", err
	}
	cs, err := oauth.ParseClients(file)
	if err != nil {
		return nil, "", "", err
	}
	return cs, clientID, clientSecret, nil
}
