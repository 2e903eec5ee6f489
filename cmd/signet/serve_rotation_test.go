package main

import (
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/signet-go/signet"
	"github.com/signet-go/signet/jwk"
	"github.com/signet-go/signet/jwt"
	"github.com/signet-go/signet/server/keys"
)

// Bounds of the rotation load: the load stops once the tokens were
// signed by rotationMinKids keys (rotationMinKids-1 rotations), or after
// rotationMaxTime, or rotationMaxTokens tokens, whichever comes first.
const (
	rotationWorkers   = 4
	rotationMinKids   = 4
	rotationMaxTime   = 20 * time.Second
	rotationMaxTokens = 60000
	// rotationPace is each worker's pause between requests: the load is
	// steady, not a flood, so that the token cap is not reached before
	// the rotations on a fast machine (about 2,000 tokens/s at most).
	rotationPace = 2 * time.Millisecond
)

// TestServeRotationUnderLoad: with --rotate 2s the service really rotates
// every couple of seconds (the JWKS max-age scales down to 1 s, each next
// key published 2 s before it signs), and under a steady load of token
// requests no verification fails: verifiers that cache the JWKS as a
// resource server does (refetching it only when older than the served
// max-age, and once on an unknown kid) verify every token, every token's
// kid was in a published JWKS, and every key that signed is still
// published at the end. In memory (--dev) and with two instances on one
// Redis, each token verified from the other instance's JWKS.
func TestServeRotationUnderLoad(t *testing.T) {
	t.Run("dev", func(t *testing.T) {
		r := startServe(t, []string{"--dev", "--addr", "127.0.0.1:0", "--rotate", "2s"}, nil)
		out := r.stdout.String()
		id := regexp.MustCompile(`(?m)^client_id:\s+(\S+)$`).FindStringSubmatch(out)
		secret := regexp.MustCompile(`(?m)^client_secret:\s+(\S+)$`).FindStringSubmatch(out)
		if id == nil || secret == nil {
			t.Fatalf("no client printed:\n%s", out)
		}
		rotationLoad(t, []*running{r}, id[1], secret[1], r.inst.issuer)
		if code := r.stop(); code != exitOK {
			t.Fatalf("exit %d:\n%s", code, r.stderr)
		}
	})
	t.Run("redis", func(t *testing.T) {
		redisURL := startRedis(t)
		env := map[string]string{"SIGNET_KEK": newKEKText(t)}
		clients := writeClients(t, "", []string{"svc-a"}, []string{secretA})
		args := []string{"--clients", clients, "--redis", redisURL, "--addr", "127.0.0.1:0",
			"--issuer", "https://auth.example.com", "--rotate", "2s"}
		a := startServe(t, args, env)
		b := startServe(t, args, env)
		rotationLoad(t, []*running{a, b}, "svc-a", secretA, testAudience)
		rotations := 0
		for _, r := range []*running{a, b} {
			if code := r.stop(); code != exitOK {
				t.Fatalf("exit %d:\n%s", code, r.stderr)
			}
			rotations += strings.Count(r.stderr.String(), `"to":"active"`)
		}
		t.Logf("key activations written by the two instances: %d (one writer per rotation)", rotations)
	})
}

// newKEKText is a fresh key-encryption key as SIGNET_KEK holds it.
func newKEKText(t *testing.T) string {
	t.Helper()
	kek, err := keys.GenerateKEK()
	if err != nil {
		t.Fatal(err)
	}
	text, err := keys.FormatKEK(kek)
	if err != nil {
		t.Fatal(err)
	}
	return text
}

// rotationLoad runs the load against the instances: worker i gets its
// tokens from instances[i%n] and verifies each at once with the JWKS
// cache of instances[(i+1)%n] (the other instance, when there are two).
func rotationLoad(t *testing.T, instances []*running, id, secret, aud string) {
	t.Helper()
	hc := &http.Client{Timeout: 10 * time.Second, Transport: &http.Transport{MaxIdleConnsPerHost: rotationWorkers}}
	defer hc.CloseIdleConnections()
	caches := make([]*jwksCache, len(instances))
	for i, r := range instances {
		caches[i] = &jwksCache{url: r.url("/.well-known/jwks.json"), hc: hc, kids: map[string]bool{}}
	}
	policy := jwt.Policy{Type: "at+jwt", Issuer: instances[0].inst.issuer, Audience: []string{aud}}

	var (
		mu        sync.Mutex
		signedBy  = map[string]string{} // kid → the first token it signed
		failures  []string
		issued    atomic.Int64
		verified  atomic.Int64
		stop      = make(chan struct{})
		stopOnce  sync.Once
		wg        sync.WaitGroup
		started   = time.Now()
		enoughAt  time.Duration
		tokenURLs = make([]string, len(instances))
	)
	for i, r := range instances {
		tokenURLs[i] = r.url("/oauth2/token")
	}
	fail := func(format string, args ...any) {
		mu.Lock()
		if len(failures) < 20 {
			failures = append(failures, fmt.Sprintf(format, args...))
		}
		mu.Unlock()
		stopOnce.Do(func() { close(stop) })
	}
	for w := range rotationWorkers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			from, cache := tokenURLs[w%len(instances)], caches[(w+1)%len(instances)]
			for {
				select {
				case <-stop:
					return
				case <-time.After(rotationPace):
				}
				if time.Since(started) > rotationMaxTime || issued.Load() >= rotationMaxTokens {
					stopOnce.Do(func() { close(stop) })
					return
				}
				code, tok, err := fetchToken(hc, from, id, secret)
				if err != nil || code != http.StatusOK {
					fail("token from %s: %d %v", from, code, err)
					return
				}
				issued.Add(1)
				kid, err := tokenKID(tok)
				if err != nil {
					fail("token header: %v", err)
					return
				}
				c, err := cache.verify(tok, policy)
				if err != nil {
					fail("token of kid %s from %s does not verify from %s: %v", kid, from, cache.url, err)
					return
				}
				if c.ClientID != id || c.Subject != id {
					fail("claims %+v", c)
					return
				}
				verified.Add(1)
				mu.Lock()
				if _, ok := signedBy[kid]; !ok {
					signedBy[kid] = tok
					if len(signedBy) == rotationMinKids {
						enoughAt = time.Since(started)
						stopOnce.Do(func() { close(stop) })
					}
				}
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	if len(failures) > 0 {
		t.Fatalf("%d tokens issued, %d verified; failures:\n%s", issued.Load(), verified.Load(), strings.Join(failures, "\n"))
	}
	if len(signedBy) < rotationMinKids {
		t.Fatalf("%d signing keys in %v (%d tokens); want at least %d (%d rotations)",
			len(signedBy), time.Since(started).Round(time.Millisecond), issued.Load(), rotationMinKids, rotationMinKids-1)
	}
	// Every key that signed was in a published JWKS, and still is: no
	// token signed during the run misses its key now.
	for i, cache := range caches {
		set, err := cache.fetch()
		if err != nil {
			t.Fatal(err)
		}
		for kid, tok := range signedBy {
			if !cache.seen(kid) {
				t.Errorf("kid %s signed tokens but was never in a JWKS fetched from instance %d", kid, i)
			}
			if _, err := jwt.Verify[accessClaims](set, tok, policy); err != nil {
				t.Errorf("the first token of kid %s no longer verifies from instance %d's JWKS: %v", kid, i, err)
			}
		}
	}
	var fetches, misses int
	for i, c := range caches {
		fetches += c.fetches
		misses += c.kidMisses
		if c.maxAge != time.Second {
			t.Errorf("instance %d serves the JWKS with max-age %v; --rotate 2s should scale it to 1s", i, c.maxAge)
		}
	}
	if verified.Load() != issued.Load() {
		t.Fatalf("%d tokens issued, %d verified", issued.Load(), verified.Load())
	}
	t.Logf("%d instance(s), %d workers: %d tokens issued and verified, 0 failures, %d signing keys (%d rotations) in %v; %d JWKS fetches, %d of them on an unknown kid",
		len(instances), rotationWorkers, issued.Load(), len(signedBy), len(signedBy)-1, enoughAt.Round(time.Millisecond), fetches, misses)
}

// fetchToken asks target for a client-credentials token with HTTP Basic.
func fetchToken(hc *http.Client, target, id, secret string) (int, string, error) {
	req, err := http.NewRequest(http.MethodPost, target, strings.NewReader(grant.Encode()))
	if err != nil {
		return 0, "", err
	}
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.SetBasicAuth(url.QueryEscape(id), url.QueryEscape(secret))
	res, err := hc.Do(req)
	if err != nil {
		return 0, "", err
	}
	defer res.Body.Close()
	body, err := io.ReadAll(res.Body)
	if err != nil {
		return res.StatusCode, "", err
	}
	var m struct {
		AccessToken string `json:"access_token"`
	}
	if res.StatusCode == http.StatusOK {
		if err := json.Unmarshal(body, &m); err != nil {
			return res.StatusCode, "", err
		}
	}
	return res.StatusCode, m.AccessToken, nil
}

// tokenKID is the kid of a JWS header.
func tokenKID(tok string) (string, error) {
	head, _, _ := strings.Cut(tok, ".")
	b, err := base64.RawURLEncoding.DecodeString(head)
	if err != nil {
		return "", err
	}
	var h struct {
		Kid string `json:"kid"`
	}
	if err := json.Unmarshal(b, &h); err != nil || h.Kid == "" {
		return "", fmt.Errorf("no kid in %s (%v)", b, err)
	}
	return h.Kid, nil
}

// jwksCache is a resource server's copy of a JWKS: fetched again only
// when older than the max-age it was served with, or once when a token
// names a kid it does not hold. It is safe for concurrent use.
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

// verify verifies tok with the cached set, refetched first when stale,
// and once more when tok's kid is not in it.
func (c *jwksCache) verify(tok string, p jwt.Policy) (accessClaims, error) {
	set, err := c.current()
	if err != nil {
		return accessClaims{}, err
	}
	claims, err := jwt.Verify[accessClaims](set, tok, p)
	if !errors.Is(err, signet.ErrKeyNotFound) {
		return claims, err
	}
	c.mu.Lock()
	c.kidMisses++
	c.mu.Unlock()
	if set, err = c.fetch(); err != nil {
		return accessClaims{}, err
	}
	return jwt.Verify[accessClaims](set, tok, p)
}

// current returns the cached set, fetched again when older than max-age.
func (c *jwksCache) current() (*signet.KeySet, error) {
	c.mu.Lock()
	set, fresh := c.set, c.set != nil && time.Since(c.fetchedAt) < c.maxAge
	c.mu.Unlock()
	if fresh {
		return set, nil
	}
	return c.fetch()
}

// fetch gets the JWKS, which must be a 200 with a max-age.
func (c *jwksCache) fetch() (*signet.KeySet, error) {
	res, err := c.hc.Get(c.url)
	if err != nil {
		return nil, err
	}
	defer res.Body.Close()
	body, err := io.ReadAll(res.Body)
	if err != nil {
		return nil, err
	}
	if res.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("JWKS: %d %s", res.StatusCode, body)
	}
	maxAge, err := maxAgeOf(res.Header.Get("Cache-Control"))
	if err != nil {
		return nil, err
	}
	set, err := jwk.ParseSet(body)
	if err != nil {
		return nil, err
	}
	var doc struct {
		Keys []struct {
			Kid string `json:"kid"`
		} `json:"keys"`
	}
	if err := json.Unmarshal(body, &doc); err != nil {
		return nil, err
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	c.set, c.fetchedAt, c.maxAge = set, time.Now(), maxAge
	c.fetches++
	for _, k := range doc.Keys {
		c.kids[k.Kid] = true
	}
	return set, nil
}

// seen reports whether kid was in a set fetched.
func (c *jwksCache) seen(kid string) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.kids[kid]
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
