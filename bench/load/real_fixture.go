package load

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"os"
	"strings"
	"time"

	"github.com/signet-go/signet"
	"github.com/signet-go/signet/jwk"
	"github.com/signet-go/signet/jwt"
)

// The issuer and audience of the tokens the real scenarios make
// themselves (guard and middleware); signet serve's tokens carry its own
// issuer (http://127.0.0.1:PORT) and the audience of the clients file.
const (
	realIssuer   = "https://issuer.load.test"
	realAudience = "https://api.load.test"
	// realTokenTTL is the lifetime of the pre-made tokens: longer than
	// any run.
	realTokenTTL = 2 * time.Hour
	// realClientID is the one client of the clients file given to
	// signet serve.
	realClientID = "load-client"
)

// realClient is a client_secret_basic client of signet serve: the
// clients file holds the SHA-256 of its secret, the load generator the
// Basic header.
type realClient struct {
	ID, Secret string
}

// newRealClient makes a client with a fresh 256-bit secret.
func newRealClient() (realClient, error) {
	var b [32]byte
	if _, err := rand.Read(b[:]); err != nil {
		return realClient{}, err
	}
	return realClient{ID: realClientID, Secret: base64.RawURLEncoding.EncodeToString(b[:])}, nil
}

// Basic is the value of the Authorization header of client_secret_basic:
// id and secret each form-urlencoded, then base64 (RFC 6749 §2.3.1).
func (c realClient) Basic() string {
	pair := url.QueryEscape(c.ID) + ":" + url.QueryEscape(c.Secret)
	return "Basic " + base64.StdEncoding.EncodeToString([]byte(pair))
}

// writeClientsFile writes signet serve's clients file (DESIGN §7) with
// the one client c, scope "read", audience realAudience.
func writeClientsFile(path string, c realClient) error {
	sum := sha256.Sum256([]byte(c.Secret))
	b, err := json.Marshal(map[string]any{"clients": []map[string]any{{
		"client_id":                  c.ID,
		"client_secret_sha256":       hex.EncodeToString(sum[:]),
		"token_endpoint_auth_method": "client_secret_basic",
		"scope":                      "read",
		"audience":                   []string{realAudience},
		"access_token_ttl":           "1h",
	}}})
	if err != nil {
		return err
	}
	return os.WriteFile(path, b, 0o600)
}

// mintTokens signs n distinct tokens (each its own jti) with key: iss
// realIssuer, aud realAudience, sub and a "read" scope, valid for
// realTokenTTL from now.
func mintTokens(key *signet.Key, n int) ([]string, error) {
	type claims struct {
		jwt.Claims
		Scope string `json:"scope"`
	}
	now := time.Now()
	toks := make([]string, n)
	for i := range toks {
		c := claims{Claims: jwt.Claims{
			Issuer:    realIssuer,
			Subject:   fmt.Sprintf("user-%d", i),
			Audience:  jwt.Audience{realAudience},
			ExpiresAt: jwt.At(now.Add(realTokenTTL)),
			IssuedAt:  jwt.At(now),
			ID:        fmt.Sprintf("load-%d", i),
		}, Scope: "read"}
		t, err := jwt.Sign(key, c)
		if err != nil {
			return nil, fmt.Errorf("load: mint token %d: %w", i, err)
		}
		toks[i] = t
	}
	return toks, nil
}

// writeLines writes one string per line (the token files the Lua scripts
// read in init).
func writeLines(path string, lines []string) error {
	return os.WriteFile(path, []byte(strings.Join(lines, "\n")+"\n"), 0o600)
}

// staticJWKS serves a fixed JWK Set on 127.0.0.1 (the issuer signet
// guard fetches from); it runs in the driver's process, off the measured
// cores' accounts: the guard fetches it once at start.
type staticJWKS struct {
	URL string
	srv *http.Server
}

// startJWKSServer publishes the public halves of keys at /jwks.json.
func startJWKSServer(keys ...*signet.Key) (*staticJWKS, error) {
	set, err := jwk.MarshalSet(keys...)
	if err != nil {
		return nil, err
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	mux := http.NewServeMux()
	mux.HandleFunc("/jwks.json", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/jwk-set+json")
		w.Header().Set("Cache-Control", "max-age=3600")
		w.Write(set)
	})
	s := &staticJWKS{URL: "http://" + ln.Addr().String() + "/jwks.json",
		srv: &http.Server{Handler: mux, ReadHeaderTimeout: 5 * time.Second}}
	go s.srv.Serve(ln)
	return s, nil
}

// Close stops the server.
func (s *staticJWKS) Close() error {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	return s.srv.Shutdown(ctx)
}

// fetchServeTokens gets n access tokens from signet serve's token
// endpoint at base with client c (client credentials), for the
// introspection scenario.
func fetchServeTokens(ctx context.Context, base string, c realClient, n int) ([]string, error) {
	client := &http.Client{Timeout: 10 * time.Second}
	toks := make([]string, 0, n)
	for len(toks) < n {
		req, err := http.NewRequestWithContext(ctx, http.MethodPost, base+"/oauth2/token",
			strings.NewReader("grant_type=client_credentials"))
		if err != nil {
			return nil, err
		}
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		req.Header.Set("Authorization", c.Basic())
		resp, err := client.Do(req)
		if err != nil {
			return nil, fmt.Errorf("load: token request: %w", err)
		}
		body, err := io.ReadAll(io.LimitReader(resp.Body, 64<<10))
		resp.Body.Close()
		if err != nil {
			return nil, err
		}
		if resp.StatusCode != http.StatusOK {
			return nil, fmt.Errorf("load: token request: %s: %.200s", resp.Status, body)
		}
		var tr struct {
			AccessToken string `json:"access_token"`
		}
		if err := json.Unmarshal(body, &tr); err != nil || tr.AccessToken == "" {
			return nil, errors.New("load: token response without access_token")
		}
		toks = append(toks, tr.AccessToken)
	}
	return toks, nil
}

// checkIntrospection introspects every token of toks once and fails
// unless each is active: the run must measure the path of a valid token,
// not the cheaper {"active":false}, which is a 200 as well.
func checkIntrospection(ctx context.Context, base string, c realClient, toks []string) error {
	client := &http.Client{Timeout: 10 * time.Second}
	for i, tok := range toks {
		req, err := http.NewRequestWithContext(ctx, http.MethodPost, base+"/oauth2/introspect",
			strings.NewReader("token="+url.QueryEscape(tok)))
		if err != nil {
			return err
		}
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		req.Header.Set("Authorization", c.Basic())
		resp, err := client.Do(req)
		if err != nil {
			return fmt.Errorf("load: introspection: %w", err)
		}
		var ir struct {
			Active bool `json:"active"`
		}
		err = json.NewDecoder(io.LimitReader(resp.Body, 64<<10)).Decode(&ir)
		resp.Body.Close()
		if resp.StatusCode != http.StatusOK || err != nil || !ir.Active {
			return fmt.Errorf("load: introspection of token %d: %s, active %v (%v)", i, resp.Status, ir.Active, err)
		}
	}
	return nil
}

// firstRequest sends one GET to u with the Authorization header auth and fails
// unless it is answered 200: a scenario set up wrong fails at its start
// instead of measuring refusals.
func firstRequest(ctx context.Context, u, auth string) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u, nil)
	if err != nil {
		return err
	}
	req.Header.Set("Authorization", auth)
	resp, err := (&http.Client{Timeout: 10 * time.Second}).Do(req)
	if err != nil {
		return fmt.Errorf("load: probe %s: %w", u, err)
	}
	body, _ := io.ReadAll(io.LimitReader(resp.Body, 512))
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("load: probe %s: %s: %s", u, resp.Status, body)
	}
	return nil
}
