package load

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/signet-go/signet"
	"github.com/signet-go/signet/jwk"
	"github.com/signet-go/signet/jwt"
)

// The clients the faults register at signet serve: svc-a gets the tokens
// (and revokes them), svc-b introspects. The secrets are fixed: the
// services run on loopback for seconds.
const (
	faultClientA  = "svc-a"
	faultSecretA  = "fault-sA-0123456789abcdefghijklmnopqrstuvwxyz"
	faultClientB  = "svc-b"
	faultSecretB  = "fault-sB-0123456789abcdefghijklmnopqrstuvwxyz"
	faultAudience = "https://api.example.com"
	faultIssuer   = "https://auth.example.com"
	// faultRequestBound bounds every probe request: a longer one is a
	// hang, reported as a transport error.
	faultRequestBound = 5 * time.Second
)

// The paths of signet serve (package server/oauth).
const (
	pathToken      = "/oauth2/token"
	pathIntrospect = "/oauth2/introspect"
	pathRevoke     = "/oauth2/revoke"
	pathJWKS       = "/.well-known/jwks.json"
	pathReady      = "/readyz"
)

// answer is one answer of a service to a probe request.
type answer struct {
	status int
	body   map[string]any
	start  time.Time // when the request was sent
	took   time.Duration
}

// probeClient is the Go side of a fault: it sends the requests whose
// answers it checks one by one (wrk only counts statuses).
type probeClient struct {
	hc *http.Client
}

func newProbeClient() *probeClient {
	return &probeClient{hc: &http.Client{Timeout: faultRequestBound,
		Transport: &http.Transport{MaxIdleConnsPerHost: 8, DisableCompression: true}}}
}

func (p *probeClient) close() { p.hc.CloseIdleConnections() }

// post sends form to target with HTTP Basic client authentication (when
// id is set); a GET when form is nil.
func (p *probeClient) post(ctx context.Context, target string, form url.Values, id, secret string) (answer, error) {
	method, body := http.MethodGet, io.Reader(nil)
	if form != nil {
		method, body = http.MethodPost, strings.NewReader(form.Encode())
	}
	req, err := http.NewRequestWithContext(ctx, method, target, body)
	if err != nil {
		return answer{}, err
	}
	if form != nil {
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	}
	if id != "" {
		req.SetBasicAuth(url.QueryEscape(id), url.QueryEscape(secret))
	}
	a := answer{start: time.Now()}
	res, err := p.hc.Do(req)
	if err != nil {
		a.took = time.Since(a.start)
		return a, err
	}
	defer res.Body.Close()
	b, err := io.ReadAll(io.LimitReader(res.Body, 1<<20))
	a.status, a.took = res.StatusCode, time.Since(a.start)
	if err != nil {
		return a, err
	}
	if strings.HasPrefix(res.Header.Get("Content-Type"), "application/json") && len(b) > 0 {
		if err := json.Unmarshal(b, &a.body); err != nil {
			return a, fmt.Errorf("%d %q: %w", res.StatusCode, b, err)
		}
	}
	return a, nil
}

// token asks base for a client-credentials token for svc-a.
func (p *probeClient) token(ctx context.Context, base string) (answer, string, error) {
	a, err := p.post(ctx, base+pathToken, url.Values{"grant_type": {"client_credentials"}}, faultClientA, faultSecretA)
	tok, _ := a.body["access_token"].(string)
	if err == nil && a.status == http.StatusOK && tok == "" {
		err = fmt.Errorf("token: 200 without access_token: %v", a.body)
	}
	return a, tok, err
}

// introspect asks base about tok, as svc-b.
func (p *probeClient) introspect(ctx context.Context, base, tok string) (answer, error) {
	return p.post(ctx, base+pathIntrospect, url.Values{"token": {tok}}, faultClientB, faultSecretB)
}

// revoke revokes tok at base, as svc-a (its owner).
func (p *probeClient) revoke(ctx context.Context, base, tok string) (answer, error) {
	return p.post(ctx, base+pathRevoke, url.Values{"token": {tok}}, faultClientA, faultSecretA)
}

// active reports whether a is a 200 introspection answer saying active.
func (a answer) active() bool { return a.status == http.StatusOK && a.body["active"] == true }

// unavailable reports whether a is the service's 503 (RFC 6749
// temporarily_unavailable).
func (a answer) unavailable() bool {
	return a.status == http.StatusServiceUnavailable && a.body["error"] == "temporarily_unavailable"
}

// accessClaims are the claims of signet serve's RFC 9068 access tokens.
type accessClaims struct {
	jwt.Claims
	ClientID string `json:"client_id"`
	Scope    string `json:"scope"`
}

// accessPolicy is how a resource server verifies the service's tokens.
// publishedAlgorithms are the public-key JWS algorithms, the only ones a
// client takes from signet serve's JWKS.
var publishedAlgorithms = []signet.Algorithm{
	signet.ES256, signet.ES384, signet.ES512, signet.EdDSA,
	signet.RS256, signet.RS384, signet.RS512, signet.PS256, signet.PS384, signet.PS512,
}

var accessPolicy = jwt.Policy{Type: "at+jwt", Issuer: faultIssuer, Audience: []string{faultAudience}}

// jwksCache is a resource server's copy of a JWKS: fetched again only
// when older than the max-age it was served with, or once when a token
// names a kid it does not hold. Safe for concurrent use.
type jwksCache struct {
	url string
	hc  *http.Client

	mu        sync.Mutex
	set       *signet.KeySet
	fetchedAt time.Time
	maxAge    time.Duration
	fetches   int
	kidMisses int
	kids      map[string]bool // every kid of every set fetched
}

func newJWKSCache(base string, hc *http.Client) *jwksCache {
	return &jwksCache{url: base + pathJWKS, hc: hc, kids: map[string]bool{}}
}

// verify verifies tok with the cached set, refetched first when stale,
// and once more when tok's kid is not in it.
func (c *jwksCache) verify(ctx context.Context, tok string) (accessClaims, error) {
	set, err := c.current(ctx)
	if err != nil {
		return accessClaims{}, err
	}
	claims, err := jwt.Verify[accessClaims](set, tok, accessPolicy)
	if !errors.Is(err, signet.ErrKeyNotFound) {
		return claims, err
	}
	c.mu.Lock()
	c.kidMisses++
	c.mu.Unlock()
	if set, err = c.fetch(ctx); err != nil {
		return accessClaims{}, err
	}
	return jwt.Verify[accessClaims](set, tok, accessPolicy)
}

// current returns the cached set, fetched again when older than max-age.
func (c *jwksCache) current(ctx context.Context) (*signet.KeySet, error) {
	c.mu.Lock()
	set, fresh := c.set, c.set != nil && time.Since(c.fetchedAt) < c.maxAge
	c.mu.Unlock()
	if fresh {
		return set, nil
	}
	return c.fetch(ctx)
}

// fetch gets the JWKS, which must be a 200 with a max-age.
func (c *jwksCache) fetch(ctx context.Context) (*signet.KeySet, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, c.url, nil)
	if err != nil {
		return nil, err
	}
	res, err := c.hc.Do(req)
	if err != nil {
		return nil, err
	}
	defer res.Body.Close()
	body, err := io.ReadAll(io.LimitReader(res.Body, jwk.MaxSetSize))
	if err != nil {
		return nil, err
	}
	if res.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("JWKS: %d %.200s", res.StatusCode, body)
	}
	maxAge, err := maxAgeOf(res.Header.Get("Cache-Control"))
	if err != nil {
		return nil, err
	}
	// A published set holds public keys: ReadSet takes only the public-key
	// algorithms the service signs with (never an "oct" secret).
	set, _, err := jwk.ReadSet(body, publishedAlgorithms)
	if err != nil {
		return nil, err
	}
	kids, err := kidsOf(body)
	if err != nil {
		return nil, err
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	c.set, c.fetchedAt, c.maxAge = set, time.Now(), maxAge
	c.fetches++
	for _, k := range kids {
		c.kids[k] = true
	}
	return set, nil
}

// stats returns the fetch counts and the max-age last served.
func (c *jwksCache) stats() (fetches, kidMisses int, maxAge time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.fetches, c.kidMisses, c.maxAge
}

// kidsOf returns the key IDs of a JWK Set document, in order.
func kidsOf(body []byte) ([]string, error) {
	var doc struct {
		Keys []struct {
			Kid string `json:"kid"`
		} `json:"keys"`
	}
	if err := json.Unmarshal(body, &doc); err != nil {
		return nil, err
	}
	kids := make([]string, 0, len(doc.Keys))
	for _, k := range doc.Keys {
		kids = append(kids, k.Kid)
	}
	return kids, nil
}

// maxAgeOf reads max-age from a Cache-Control header.
func maxAgeOf(cc string) (time.Duration, error) {
	for d := range strings.SplitSeq(cc, ",") {
		if v, ok := strings.CutPrefix(strings.TrimSpace(d), "max-age="); ok {
			n, err := strconv.Atoi(v)
			if err != nil || n < 0 {
				break
			}
			return time.Duration(n) * time.Second, nil
		}
	}
	return 0, fmt.Errorf("JWKS Cache-Control %q has no max-age", cc)
}

// tokenKID is the kid of a JWS header ("" when it has none).
func tokenKID(tok string) string {
	head, _, _ := strings.Cut(tok, ".")
	b, err := base64.RawURLEncoding.DecodeString(head)
	if err != nil {
		return ""
	}
	var h struct {
		Kid string `json:"kid"`
	}
	if json.Unmarshal(b, &h) != nil {
		return ""
	}
	return h.Kid
}
