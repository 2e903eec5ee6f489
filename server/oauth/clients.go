package oauth

import (
	"crypto/sha256"
	"crypto/subtle"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"reflect"
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/signet-go/signet"
	"github.com/signet-go/signet/jwk"
)

// Limits and defaults of the clients file (DESIGN §7).
const (
	// MaxClientsSize bounds a clients file, in bytes.
	MaxClientsSize = 4 << 20
	// MaxClients bounds the number of clients in a file.
	MaxClients = 10000
	// MaxClientIDLength bounds a client_id, in bytes.
	MaxClientIDLength = 128
	// MaxClientKeys bounds the keys of one client's jwks.
	MaxClientKeys = 16
	// DefaultAccessTokenTTL is a client's access_token_ttl when unset.
	DefaultAccessTokenTTL = 15 * time.Minute
	// MaxAccessTokenTTL is the longest access_token_ttl accepted.
	MaxAccessTokenTTL = 24 * time.Hour
)

// AuthMethod is a client authentication method at the token endpoint
// (RFC 7591 token_endpoint_auth_method).
type AuthMethod string

// The client authentication methods the service supports.
const (
	// ClientSecretBasic: id and secret in an HTTP Basic Authorization
	// header, each form-urlencoded first (RFC 6749 §2.3.1). The default.
	ClientSecretBasic AuthMethod = "client_secret_basic"
	// ClientSecretPost: client_id and client_secret as form parameters.
	ClientSecretPost AuthMethod = "client_secret_post"
	// PrivateKeyJWT: a JWT client assertion signed by a key of the
	// client's registered JWKS (RFC 7523 §2.2, §3).
	PrivateKeyJWT AuthMethod = "private_key_jwt"
)

// Client is one registered client, as read from the clients file.
type Client struct {
	// ID is the client_id: 1 to MaxClientIDLength printable ASCII
	// characters (RFC 6749 VSCHAR).
	ID string
	// Method is how the client authenticates.
	Method AuthMethod
	// Scopes are the scopes the client may be granted, in file order.
	Scopes []string
	// Audience lists the audiences the client may get tokens for; the
	// first is the default aud.
	Audience []string
	// TTL is the lifetime of the client's access tokens.
	TTL time.Duration
	// Keys verify the client's assertions (PrivateKeyJWT only; public
	// keys, each bound to its alg or to the one its type fits, never HMAC).
	Keys *signet.KeySet

	secretHash [sha256.Size]byte // client_secret_basic and _post
	// Pre-encoded JSON of the token claims that depend on the client only.
	subJSON  []byte            // "sub":…,"client_id":…
	audJSON  map[string][]byte // audience → its JSON string
	scopeSet map[string]bool
	allScope string // every scope, space-separated
}

// allows reports whether the client may still be granted every scope of
// scope (space-separated) and every audience of aud: whether a token
// issued with them is within what the client is registered for now.
func (c *Client) allows(scope string, aud []string) bool {
	for s := range strings.FieldsSeq(scope) {
		if !c.scopeSet[s] {
			return false
		}
	}
	for _, a := range aud {
		if _, ok := c.audJSON[a]; !ok {
			return false
		}
	}
	return true
}

// CheckSecret reports whether secret is the client's: its SHA-256 is
// compared in constant time with the stored hash. A client without a
// secret (PrivateKeyJWT) matches nothing.
func (c *Client) CheckSecret(secret string) bool {
	var h [sha256.Size]byte
	if len(secret) <= 256 {
		var buf [256]byte
		h = sha256.Sum256(append(buf[:0], secret...))
	} else {
		h = sha256.Sum256([]byte(secret))
	}
	ok := subtle.ConstantTimeCompare(h[:], c.secretHash[:]) == 1
	return ok && c.Method != PrivateKeyJWT
}

// Clients is an immutable set of registered clients, safe for concurrent
// use. Make one with ParseClients or LoadClients.
type Clients struct {
	list []*Client
	byID map[string]*Client
}

// Lookup returns the client with client_id id.
func (cs *Clients) Lookup(id string) (*Client, bool) {
	if cs == nil {
		return nil, false
	}
	c, ok := cs.byID[id]
	return c, ok
}

// All returns the clients in file order.
func (cs *Clients) All() []*Client {
	if cs == nil {
		return nil
	}
	return slices.Clone(cs.list)
}

// Scopes returns the union of the clients' scopes, sorted.
func (cs *Clients) Scopes() []string {
	var all []string
	for _, c := range cs.All() {
		all = append(all, c.Scopes...)
	}
	slices.Sort(all)
	return slices.Compact(all)
}

// LoadClients reads and parses the clients file at path (see
// ParseClients).
func LoadClients(path string) (*Clients, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, MaxClientsSize+1))
	if err != nil {
		return nil, err
	}
	return ParseClients(data)
}

// clientJSON is one entry of the clients file.
type clientJSON struct {
	ClientID     string          `json:"client_id"`
	SecretSHA256 string          `json:"client_secret_sha256"`
	Method       AuthMethod      `json:"token_endpoint_auth_method"`
	Scope        string          `json:"scope"`
	Audience     []string        `json:"audience"`
	TTL          string          `json:"access_token_ttl"`
	JWKS         json.RawMessage `json:"jwks"`
}

// emptySecretHash is SHA-256 of the empty string, a hash no client may have.
var emptySecretHash = sha256.Sum256(nil)

// ParseClients reads a clients file (DESIGN §7):
//
//	{"clients": [
//	  {"client_id": "svc-a", "client_secret_sha256": "<hex SHA-256 of the secret>",
//	   "token_endpoint_auth_method": "client_secret_basic", "scope": "read write",
//	   "audience": ["https://api.example.com"], "access_token_ttl": "15m"},
//	  {"client_id": "svc-b", "token_endpoint_auth_method": "private_key_jwt",
//	   "jwks": {"keys": [ … public JWKs … ]}, "scope": "read", "audience": ["https://api.example.com"]}
//	]}
//
// It is strict: unknown or repeated members, duplicate client ids, a
// hash that is not 64 hex digits, a method without its credential (or
// with the other method's), private or HMAC keys in a jwks, a jwks
// without a usable key, a scope that is not RFC 6749 scope-tokens, no
// audience, and a TTL that is not a whole number of seconds in (0, 24 h]
// are refused, naming the client's index. The method defaults to
// client_secret_basic (RFC 7591 §2), the TTL to DefaultAccessTokenTTL.
// Secrets are never in the file, only their SHA-256: generate each
// secret with at least 128 bits from a CSPRNG (the hash is unsalted, so
// a guessable secret would be found from it).
//
// Errors wrap signet.ErrTooLarge, signet.ErrMalformed or, for the keys
// of a jwks, the sentinel jwk.ParseSet returned.
func ParseClients(data []byte) (*Clients, error) {
	if len(data) > MaxClientsSize {
		return nil, fmt.Errorf("%w: clients file over %d bytes", signet.ErrTooLarge, MaxClientsSize)
	}
	if err := checkJSON(data); err != nil {
		return nil, fmt.Errorf("%w: clients file: %v", signet.ErrMalformed, err)
	}
	var file struct {
		Clients []json.RawMessage `json:"clients"`
	}
	if err := decodeStrict(data, &file); err != nil {
		return nil, fmt.Errorf("%w: clients file: %v", signet.ErrMalformed, err)
	}
	if len(file.Clients) > MaxClients {
		return nil, fmt.Errorf("%w: clients file has %d clients (at most %d)", signet.ErrTooLarge, len(file.Clients), MaxClients)
	}
	cs := &Clients{byID: make(map[string]*Client, len(file.Clients))}
	for i, raw := range file.Clients {
		c, err := parseClient(raw)
		if err != nil {
			return nil, fmt.Errorf("clients[%d]: %w", i, err)
		}
		if _, dup := cs.byID[c.ID]; dup {
			return nil, fmt.Errorf("clients[%d]: %w: client_id %q repeated", i, signet.ErrMalformed, c.ID)
		}
		cs.byID[c.ID] = c
		cs.list = append(cs.list, c)
	}
	return cs, nil
}

// decodeStrict decodes the JSON object data into the struct v points to:
// no unknown member, no data after the value, and each member named
// exactly as v's json tag has it (encoding/json would also take "Scope"
// or "SCOPE" for "scope", a spelling checkJSON's repeated-member check
// does not catch).
func decodeStrict(data []byte, v any) error {
	var members map[string]json.RawMessage
	if err := json.Unmarshal(data, &members); err != nil {
		return err
	}
	t := reflect.TypeOf(v).Elem()
	for name := range members {
		ok := false
		for i := range t.NumField() {
			if tag, _, _ := strings.Cut(t.Field(i).Tag.Get("json"), ","); tag == name {
				ok = true
				break
			}
		}
		if !ok {
			return fmt.Errorf("unknown member %q", clipLog(name))
		}
	}
	// Every member is one of v's, and json.Unmarshal refuses data after
	// the value.
	return json.Unmarshal(data, v)
}

func parseClient(raw json.RawMessage) (*Client, error) {
	var j clientJSON
	if err := decodeStrict(raw, &j); err != nil {
		return nil, fmt.Errorf("%w: %v", signet.ErrMalformed, err)
	}
	bad := func(format string, args ...any) error {
		return fmt.Errorf("%w: client %q: %s", signet.ErrMalformed, j.ClientID, fmt.Sprintf(format, args...))
	}
	if !validClientID(j.ClientID) {
		return nil, fmt.Errorf("%w: client_id must be 1 to %d printable ASCII characters", signet.ErrMalformed, MaxClientIDLength)
	}
	c := &Client{ID: j.ClientID, Method: j.Method, TTL: DefaultAccessTokenTTL}
	if c.Method == "" {
		c.Method = ClientSecretBasic
	}
	switch c.Method {
	case ClientSecretBasic, ClientSecretPost:
		if j.SecretSHA256 == "" {
			return nil, bad("%s needs client_secret_sha256", c.Method)
		}
		if len(j.JWKS) != 0 {
			return nil, bad("%s takes no jwks", c.Method)
		}
		h, err := hex.DecodeString(j.SecretSHA256)
		if err != nil || len(h) != sha256.Size {
			return nil, bad("client_secret_sha256 must be 64 hex digits")
		}
		copy(c.secretHash[:], h)
		if c.secretHash == emptySecretHash {
			return nil, bad("client_secret_sha256 is the hash of the empty secret")
		}
	case PrivateKeyJWT:
		if j.SecretSHA256 != "" {
			return nil, bad("private_key_jwt takes no client_secret_sha256")
		}
		if len(j.JWKS) == 0 || string(j.JWKS) == "null" {
			return nil, bad("private_key_jwt needs jwks")
		}
		keys, err := parseClientKeys(j.JWKS)
		if err != nil {
			return nil, fmt.Errorf("client %q: jwks: %w", j.ClientID, err)
		}
		c.Keys = keys
	default:
		return nil, bad("token_endpoint_auth_method %q is not client_secret_basic, client_secret_post or private_key_jwt", c.Method)
	}
	if j.Scope != "" {
		c.Scopes = strings.Split(j.Scope, " ")
	}
	c.scopeSet = make(map[string]bool, len(c.Scopes))
	for _, s := range c.Scopes {
		if !validScopeToken(s) {
			return nil, bad("scope must be scope-tokens separated by single spaces (RFC 6749 §3.3)")
		}
		if c.scopeSet[s] {
			return nil, bad("scope %q repeated", s)
		}
		c.scopeSet[s] = true
	}
	c.allScope = strings.Join(c.Scopes, " ")
	if len(j.Audience) == 0 {
		return nil, bad("audience needs at least one value")
	}
	c.audJSON = make(map[string][]byte, len(j.Audience))
	for _, a := range j.Audience {
		if a == "" || !validText(a) {
			return nil, bad("an audience must be non-empty printable text")
		}
		if _, dup := c.audJSON[a]; dup {
			return nil, bad("audience %q repeated", a)
		}
		c.audJSON[a], _ = json.Marshal(a)
	}
	c.Audience = slices.Clone(j.Audience)
	if j.TTL != "" {
		d, err := time.ParseDuration(j.TTL)
		if err != nil || d <= 0 || d > MaxAccessTokenTTL || d%time.Second != 0 {
			return nil, bad("access_token_ttl must be a whole number of seconds in (0, 24h]")
		}
		c.TTL = d
	}
	id, _ := json.Marshal(c.ID)
	c.subJSON = fmt.Appendf(nil, `"sub":%s,"client_id":%s`, id, id)
	return c, nil
}

// privateMembers are the JWK members that carry private or secret key
// material (RFC 7518 §6.2.2, §6.3.2, §6.4; RFC 8037 §2).
var privateMembers = []string{"d", "p", "q", "dp", "dq", "qi", "oth", "k"}

// clientKeyAlgs are the algorithms a client's registered key may be bound
// to: every asymmetric JWS algorithm. A key without "alg" is bound to the
// one its material fits among them (an EC key by its curve, an Ed25519 key
// to EdDSA), as npm jose's exportJWK and many others write keys; an RSA key
// fits six and must say which.
var clientKeyAlgs = func() []signet.Algorithm {
	var algs []signet.Algorithm
	for _, a := range signet.JWSAlgorithms() {
		if !a.Symmetric() {
			algs = append(algs, a)
		}
	}
	return algs
}()

// parseClientKeys reads a client's registered JWKS: public keys only
// (a private member, or an oct key, is refused: a file that holds a
// client's private key has leaked it), at least one, each usable: with an
// alg, or of a type that fits exactly one (clientKeyAlgs). A key that
// cannot be used is an error, not skipped: the file is the operator's.
func parseClientKeys(raw json.RawMessage) (*signet.KeySet, error) {
	var set struct {
		Keys []map[string]json.RawMessage `json:"keys"`
	}
	if err := json.Unmarshal(raw, &set); err != nil {
		return nil, fmt.Errorf("%w: %v", signet.ErrMalformed, err)
	}
	if len(set.Keys) > MaxClientKeys {
		return nil, fmt.Errorf("%w: %d keys (at most %d)", signet.ErrTooLarge, len(set.Keys), MaxClientKeys)
	}
	for i, k := range set.Keys {
		for _, m := range privateMembers {
			if _, ok := k[m]; ok {
				return nil, fmt.Errorf("%w: keys[%d] has private member %q: register the public key only", signet.ErrKeyUsage, i, m)
			}
		}
	}
	ks, rep, err := jwk.ReadSet(raw, clientKeyAlgs)
	if err != nil {
		return nil, err
	}
	if len(rep.Skipped) > 0 {
		sk := rep.Skipped[0]
		hint := ""
		if sk.Index < len(set.Keys) && string(set.Keys[sk.Index]["kty"]) == `"RSA"` && set.Keys[sk.Index]["alg"] == nil {
			hint = ` (an RSA key needs an "alg")`
		}
		return nil, fmt.Errorf("keys[%d] cannot verify client assertions%s: %w", sk.Index, hint, sk.Err)
	}
	if ks.Len() == 0 {
		return nil, fmt.Errorf("%w: no signing key", signet.ErrKeyNotFound)
	}
	for _, k := range ks.Keys() {
		if k.Symmetric() {
			return nil, fmt.Errorf("%w: %s keys cannot authenticate a client by private_key_jwt", signet.ErrKeyUsage, k.Algorithm())
		}
	}
	return ks, nil
}

func validClientID(id string) bool {
	if id == "" || len(id) > MaxClientIDLength {
		return false
	}
	for i := 0; i < len(id); i++ {
		if id[i] < 0x20 || id[i] > 0x7e {
			return false
		}
	}
	return true
}

// validScopeToken: RFC 6749 §3.3 scope-token = 1*( %x21 / %x23-5B / %x5D-7E ).
func validScopeToken(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		b := s[i]
		if b < 0x21 || b > 0x7e || b == '"' || b == '\\' {
			return false
		}
	}
	return true
}

// validText: valid UTF-8 without control characters.
func validText(s string) bool {
	if !utf8.ValidString(s) {
		return false
	}
	for _, r := range s {
		if r < 0x20 || r == 0x7f {
			return false
		}
	}
	return true
}
