// Command loadsrv is the HTTP lab's scenario server: the study's handler
// shape (package study) for one library and algorithm, chosen by flags,
// beside the /hello baseline, for wrk to load (package load, `make load`).
//
//	loadsrv -addr 127.0.0.1:8080                        # /hello alone
//	loadsrv -addr 127.0.0.1:8080 -lib signet -alg ES256 -payload medium -tokens /tmp/t.txt
//
// It listens on -addr, a loopback address (127.0.0.1:0 picks a free port), and prints
// "loadsrv listening on http://ADDR" on stdout once it serves. With -lib
// and -alg it serves /issue (a token per request) and /check (the Bearer
// token checked per request); -lib floor serves the raw primitive in the
// same shape (study.LibFloor: the in-server bound); with -tokens it first writes -ntokens tokens
// of that library, one a line, for the /check script to cycle through.
// Keys are made once at start. SIGTERM or SIGINT shuts it down gracefully.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/signet-go/signet/bench/load/study"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if err := run(ctx, os.Args[1:], os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "loadsrv:", err)
		os.Exit(1)
	}
}

// config is what the flags say.
type config struct {
	addr, lib, alg, payload, tokens string
	ntokens                         int
	real                            *realConfig // the real scenarios' modes (real.go)
}

func parseFlags(args []string) (config, error) {
	var c config
	fs := flag.NewFlagSet("loadsrv", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.StringVar(&c.addr, "addr", "127.0.0.1:0", "listen address (loopback; port 0 picks a free one)")
	fs.StringVar(&c.lib, "lib", "", "library: signet, golang-jwt, go-paseto, or floor (the raw primitive, no library) (empty: /hello alone)")
	fs.StringVar(&c.alg, "alg", "", "algorithm: HS256, RS256, PS256, ES256, EdDSA, v4.public or v4.local")
	fs.StringVar(&c.payload, "payload", "small", "payload class: small, medium or large")
	fs.StringVar(&c.tokens, "tokens", "", "write tokens for /check to this file before serving")
	fs.IntVar(&c.ntokens, "ntokens", 64, "how many tokens -tokens writes")
	c.real = realFlags(fs)
	if err := fs.Parse(args); err != nil {
		return c, err
	}
	if fs.NArg() > 0 {
		return c, fmt.Errorf("unexpected arguments %q", fs.Args())
	}
	if (c.lib == "") != (c.alg == "") {
		return c, errors.New("-lib and -alg go together")
	}
	if c.tokens != "" && c.lib == "" {
		return c, errors.New("-tokens needs -lib and -alg")
	}
	if host, _, err := net.SplitHostPort(c.addr); err != nil {
		return c, fmt.Errorf("-addr %q: %w", c.addr, err)
	} else if ip := net.ParseIP(host); host != "localhost" && (ip == nil || !ip.IsLoopback()) {
		return c, fmt.Errorf("-addr %q: the lab serves on loopback only", c.addr)
	}
	if c.ntokens < 1 || c.ntokens > 100000 {
		return c, fmt.Errorf("-ntokens %d: want 1 to 100000", c.ntokens)
	}
	return c, nil
}

// run serves until ctx is done, then shuts down (in-flight requests
// complete, up to 5 s).
func run(ctx context.Context, args []string, stdout io.Writer) error {
	c, err := parseFlags(args)
	if err != nil {
		return err
	}
	var toks study.Tokens
	if c.lib != "" {
		keys, err := study.NewKeys()
		if err != nil {
			return err
		}
		if toks, err = study.New(c.lib, c.alg, c.payload, keys); err != nil {
			return err
		}
		if c.tokens != "" {
			if err := study.WriteTokens(c.tokens, toks, c.ntokens, time.Now()); err != nil {
				return err
			}
		}
	}
	h, err := c.real.handler(study.Handler(toks))
	if err != nil {
		return err
	}
	ln, err := net.Listen("tcp", c.addr)
	if err != nil {
		return err
	}
	srv := &http.Server{Handler: h, ReadHeaderTimeout: 10 * time.Second, IdleTimeout: time.Minute}
	fmt.Fprintf(stdout, "loadsrv listening on http://%s\n", ln.Addr())
	errc := make(chan error, 1)
	go func() { errc <- srv.Serve(ln) }()
	select {
	case err := <-errc:
		return err
	case <-ctx.Done():
	}
	sctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	return srv.Shutdown(sctx)
}
