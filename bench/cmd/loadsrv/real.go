package main

import (
	"errors"
	"flag"
	"fmt"
	"net/http"
	"net/http/httputil"
	"net/url"
	"os"
	"time"

	"github.com/signet-go/signet"
	"github.com/signet-go/signet/bearer"
	"github.com/signet-go/signet/bench/load/study"
	"github.com/signet-go/signet/jwk"
	"github.com/signet-go/signet/jwt"
)

// realConfig holds the flags of the real scenarios' modes (package load,
// real.go): the plain reverse proxy that is signet guard's baseline, and
// package bearer's middleware in front of /hello.
type realConfig struct {
	proxy     string
	bearerKey string
	iss, aud  string
}

// realFlags registers the real scenarios' flags on fs.
func realFlags(fs *flag.FlagSet) *realConfig {
	c := &realConfig{}
	fs.StringVar(&c.proxy, "proxy", "", "serve only a plain httputil.ReverseProxy to the upstream `URL`, on every path (signet guard's baseline)")
	fs.StringVar(&c.bearerKey, "bearer-key", "", "mount GET /bearer/hello: /hello behind package bearer's middleware, verifying with the JWK in `file` (its alg decides)")
	fs.StringVar(&c.iss, "bearer-iss", "", "the issuer the middleware requires (iss)")
	fs.StringVar(&c.aud, "bearer-aud", "", "the audience the middleware requires (aud)")
	return c
}

// handler returns the server's handler: with -proxy the proxy alone, on
// every path (the upstream's /hello answers the readiness probe through
// it); with -bearer-key, GET /bearer/hello beside base; else base.
func (c *realConfig) handler(base http.Handler) (http.Handler, error) {
	switch {
	case c.proxy != "" && c.bearerKey != "":
		return nil, errors.New("-proxy and -bearer-key are two modes: give one")
	case c.proxy != "":
		return realProxy(c.proxy)
	case c.bearerKey != "":
		h, err := realBearer(c.bearerKey, c.iss, c.aud)
		if err != nil {
			return nil, err
		}
		mux := http.NewServeMux()
		mux.Handle("GET /bearer/hello", h)
		mux.Handle("/", base)
		return mux, nil
	}
	return base, nil
}

// realProxy is a plain reverse proxy to upstream: the request forwarded
// as it came (with X-Forwarded-*), the transport signet guard uses by
// default (http.DefaultTransport with 64 idle connections per host and a
// one-minute header timeout), and nothing else — what the guard costs
// without verifying a token.
func realProxy(upstream string) (http.Handler, error) {
	u, err := url.Parse(upstream)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, fmt.Errorf("-proxy %q is not an http URL with a host", upstream)
	}
	t := http.DefaultTransport.(*http.Transport).Clone()
	t.MaxIdleConnsPerHost = 64
	t.ResponseHeaderTimeout = time.Minute
	return &httputil.ReverseProxy{
		Rewrite: func(pr *httputil.ProxyRequest) {
			pr.SetURL(u)
			pr.SetXForwarded()
		},
		Transport: t,
	}, nil
}

// realClaims are the claims the middleware decodes: the registered ones
// and the scope.
type realClaims struct {
	jwt.Claims
	Scope string `json:"scope"`
}

// realBearer is the study's /hello handler behind package bearer's middleware as its package
// doc sets it up: issuer and audience checked, scope "read" required,
// the claims typed in the handler's context.
func realBearer(keyFile, iss, aud string) (http.Handler, error) {
	data, err := os.ReadFile(keyFile)
	if err != nil {
		return nil, err
	}
	key, err := jwk.ParseKey(data)
	if err != nil {
		return nil, fmt.Errorf("-bearer-key: %w", err)
	}
	if !key.Algorithm().Symmetric() {
		if key, err = key.Public(); err != nil {
			return nil, fmt.Errorf("-bearer-key: %w", err)
		}
	}
	if iss == "" || aud == "" {
		return nil, errors.New("-bearer-key needs -bearer-iss and -bearer-aud")
	}
	mw, err := bearer.New[realClaims](signet.Keys(key), bearer.Options{
		Policy: jwt.Policy{Issuer: iss, Audience: []string{aud}},
		Scopes: []string{"read"},
	})
	if err != nil {
		return nil, err
	}
	return mw.Wrap(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if _, ok := bearer.ClaimsFrom[realClaims](r.Context()); !ok {
			http.Error(w, "no claims", http.StatusInternalServerError)
			return
		}
		study.Hello(w, r)
	})), nil
}
