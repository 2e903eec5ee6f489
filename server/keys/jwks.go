package keys

import (
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/signet-go/signet"
	"github.com/signet-go/signet/server/storage"
)

// JWKSContentType is the media type of the key set (RFC 7517 §8.5).
const JWKSContentType = "application/jwk-set+json"

// jwksDoc is a key set's response, computed once per ring.
type jwksDoc struct {
	body         []byte
	etag         string // strong: a quoted hash of body
	cacheControl string
	length       string
}

// paserkEntry is how a v4.public key is published.
type paserkEntry struct {
	KID    string `json:"kid"`
	PASERK string `json:"paserk"`
}

// makeJWKS writes the published key set of ring: every key but HMAC ones,
// in ring order (active, next, retired), so every instance that loaded
// one ring serves the same bytes and ETag.
func makeJWKS(ring []storage.Key, maxAge time.Duration) (jwksDoc, error) {
	entries := make([]json.RawMessage, 0, len(ring))
	for _, k := range ring {
		alg := signet.Algorithm(k.Algorithm)
		switch {
		case alg.Symmetric():
			continue // an HMAC key is a secret: never published
		case alg == signet.V4Public:
			b, err := json.Marshal(paserkEntry{KID: k.ID, PASERK: k.Public})
			if err != nil {
				return jwksDoc{}, fmt.Errorf("keys: key %q: %w", k.ID, err)
			}
			entries = append(entries, b)
		default:
			// Public was checked against the unwrapped private key.
			entries = append(entries, json.RawMessage(k.Public))
		}
	}
	body, err := json.Marshal(struct {
		Keys []json.RawMessage `json:"keys"`
	}{entries})
	if err != nil {
		return jwksDoc{}, fmt.Errorf("%w: keys: key set: %v", signet.ErrMalformed, err)
	}
	sum := sha256.Sum256(body)
	return jwksDoc{
		body:         body,
		etag:         `"` + base64.RawURLEncoding.EncodeToString(sum[:]) + `"`,
		cacheControl: fmt.Sprintf("public, max-age=%d, stale-if-error=%d", int64(maxAge/time.Second), int64(StaleIfError/time.Second)),
		length:       strconv.Itoa(len(body)),
	}, nil
}

// JWKSHandler serves the key set (GET /.well-known/jwks.json): the public
// keys of the next, active and retired keys, as {"keys":[…]}, each a JWK
// with kid (its RFC 7638 thumbprint), alg and use "sig"; a v4.public key
// as {"kid":"k4.pid.…","paserk":"k4.public.…"}. HMAC keys are never
// published: tokens they sign are checked by introspection.
//
// The response has Content-Type application/jwk-set+json, Cache-Control
// "public, max-age=<Config.MaxAge>, stale-if-error=86400" and a strong
// ETag; a request whose If-None-Match names it gets 304 Not Modified.
// GET and HEAD are answered (405 otherwise); 503 until a ring is loaded.
// The body is computed once per ring, not per request.
func (m *Manager) JWKSHandler() http.Handler { return jwksHandler{m} }

type jwksHandler struct{ m *Manager }

func (h jwksHandler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	hdr := w.Header()
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		hdr.Set("Allow", "GET, HEAD")
		http.Error(w, "method not allowed", http.StatusMethodNotAllowed)
		return
	}
	lr := h.m.cur.Load()
	if lr == nil {
		hdr.Set("Cache-Control", "no-store")
		hdr.Set("Retry-After", "1")
		http.Error(w, "keys not loaded", http.StatusServiceUnavailable)
		return
	}
	d := &lr.jwks
	hdr.Set("Cache-Control", d.cacheControl)
	hdr.Set("Etag", d.etag)
	if noneMatch(r.Header.Values("If-None-Match"), d.etag) {
		w.WriteHeader(http.StatusNotModified)
		return
	}
	hdr.Set("Content-Type", JWKSContentType)
	hdr.Set("Content-Length", d.length)
	hdr.Set("X-Content-Type-Options", "nosniff")
	w.WriteHeader(http.StatusOK)
	if r.Method == http.MethodGet {
		w.Write(d.body)
	}
}

// noneMatch reports whether an If-None-Match header (RFC 9110 §13.1.2,
// weak comparison) matches etag.
func noneMatch(values []string, etag string) bool {
	for _, v := range values {
		for t := range strings.SplitSeq(v, ",") {
			t = strings.TrimSpace(t)
			if t == "*" || strings.TrimPrefix(t, "W/") == etag {
				return true
			}
		}
	}
	return false
}
