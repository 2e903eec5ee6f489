package paseto

import (
	"fmt"
	"github.com/signet-go/signet/internal/unsafex"
	"strings"

	"github.com/signet-go/signet"
	"github.com/signet-go/signet/internal/b64"
	"github.com/signet-go/signet/internal/claimsjson"
	"github.com/signet-go/signet/internal/clip"
	"github.com/signet-go/signet/internal/jsonx"
)

// Encrypt returns a local token (v4.local or v3.local: the key says which)
// carrying claims, encrypted and authenticated. claims is a Claims, a
// struct embedding Claims, a Map, or any value encoding/json writes as an
// object; iat and exp are set when absent (see Options).
func Encrypt[T any](key *signet.Key, claims T, o Options) (string, error) {
	return issue(key, claims, &o, false)
}

// issue encodes claims (with the issuing defaults) and makes the token.
func issue[T any](key *signet.Key, claims T, o *Options, public bool) (string, error) {
	var scratch [512]byte
	if err := o.check(key); err != nil {
		return "", err
	}
	if !public && key.Algorithm() == signet.V4Local {
		return issueV4Local(key, claims, o)
	}
	m, err := encodeClaims(scratch[:0], claims, o)
	if err != nil {
		return "", err
	}
	return finish(key, m, o, public)
}

// issueV4Local is issue for a v4.local key. The claims are encoded into
// the scratch of a state from the key's pool, which then encrypts them:
// a token of any size costs the token's allocation alone (up to
// maxPooledMsg of JSON). The plaintext is cleared from the scratch before
// the state goes back to the pool.
func issueV4Local[T any](key *signet.Key, claims T, o *Options) (string, error) {
	p := v4Pool(key)
	st := p.get()
	var m []byte
	defer func() {
		// m is st.msg's array or one the encoder made (grown by append,
		// or encoding/json's), never the caller's memory. When it is not
		// st.msg's, what the encoder wrote to st.msg before it grew away
		// (or before an error, or a panic in a MarshalJSON) is of unknown
		// length, and past m's length lie a freed object's bytes
		// (unsafex.MakeNoZero's array), a decrypted token's plaintext
		// maybe: both arrays are cleared whole.
		if sameArray(m, st.msg) {
			clear(m)
		} else {
			clear(st.msg[:cap(st.msg)])
			clear(m[:cap(m)])
			if m != nil && cap(m) <= maxPooledMsg {
				st.msg = m[:0]
			}
		}
		p.put(st)
	}()
	m, err := encodeClaims(st.msg[:0], claims, o)
	if err != nil {
		m = nil
		return "", err
	}
	return st.encrypt(m, o.Footer, o.Implicit, nil)
}

// sameArray reports whether a and b start at the same byte of one array.
func sameArray(a, b []byte) bool {
	return cap(a) > 0 && cap(b) > 0 && &a[:1][0] == &b[:1][0]
}

// finish signs (public) or encrypts the encoded payload.
func finish(key *signet.Key, payload []byte, o *Options, public bool) (string, error) {
	if public {
		return sign(key, payload, o)
	}
	return encrypt(key, payload, o)
}

// issueBytes makes a token of a payload given as it is.
func issueBytes(key *signet.Key, payload []byte, o *Options, public bool) (string, error) {
	if err := o.check(key); err != nil {
		return "", err
	}
	if err := checkPayload(payload); err != nil {
		return "", err
	}
	return finish(key, payload, o, public)
}

// EncryptBytes encrypts a payload as it is: a JSON object (PASETO requires
// one), which is not otherwise interpreted. Use Encrypt for claims.
func EncryptBytes(key *signet.Key, payload []byte, o Options) (string, error) {
	return issueBytes(key, payload, &o, false)
}

func encrypt(key *signet.Key, payload []byte, o *Options) (string, error) {
	switch {
	case key.Algorithm() == "": // a nil or zero Key
		return "", fmt.Errorf("%w: nil or zero key", signet.ErrKeyUsage)
	case key.Algorithm() == signet.V4Local:
		return encryptV4(key, payload, o.Footer, o.Implicit, nil)
	case key.Algorithm() == signet.V3Local:
		return encryptV3(key, payload, o.Footer, o.Implicit, nil)
	}
	return "", fmt.Errorf("%w: %s key cannot make local tokens", signet.ErrAlgorithmMismatch, key.Algorithm())
}

// Sign returns a public token (v4.public or v3.public: the key says which)
// carrying claims, signed, not encrypted: anyone can read its claims.
func Sign[T any](key *signet.Key, claims T, o Options) (string, error) {
	return issue(key, claims, &o, true)
}

// SignBytes signs a payload as it is (a JSON object). Use Sign for claims.
func SignBytes(key *signet.Key, payload []byte, o Options) (string, error) {
	return issueBytes(key, payload, &o, true)
}

func sign(key *signet.Key, payload []byte, o *Options) (string, error) {
	if key == nil || !key.CanSign() {
		return "", fmt.Errorf("%w: signing needs a private key", signet.ErrKeyUsage)
	}
	var h, msg []byte
	switch key.Algorithm() {
	case signet.V4Public:
		h, msg = v4PublicHeader, messageV4(payload, o.Footer, o.Implicit)
	case signet.V3Public:
		var err error
		if msg, err = messageV3(key, payload, o.Footer, o.Implicit); err != nil {
			return "", err
		}
		h = v3PublicHeader
	default:
		return "", fmt.Errorf("%w: %s key cannot sign PASETO tokens", signet.ErrAlgorithmMismatch, key.Algorithm())
	}
	// One allocation for the token, with m ‖ sig built past its end.
	rawLen := len(payload) + key.SignatureSize()
	tokLen := len(h) + b64.EncodedLen(rawLen)
	if len(o.Footer) > 0 {
		tokLen += 1 + b64.EncodedLen(len(o.Footer))
	}
	out := make([]byte, tokLen, tokLen+rawLen)
	raw := append(out[tokLen:tokLen], payload...)
	raw, err := key.Sign(raw, msg)
	if err != nil {
		return "", err
	}
	return assemble(out[:0], h, raw, o.Footer), nil
}

// Decrypt opens a local token with keys (a *signet.Key or *signet.KeySet)
// and returns its claims once they satisfy p. The token's version and
// purpose must be the key's: a v3 key never opens a v4 token, a public key
// never a local one. Every error wraps a signet sentinel; no claims come
// with one.
func Decrypt[T any](keys signet.Keys, token string, p Policy) (T, error) {
	var out T
	payload, err := open(keys, token, &p, true, false)
	if err != nil {
		return out, err
	}
	return claimsOf[T](payload, &p)
}

// DecryptBytes opens a local token and returns its payload. Of p, only
// MaxSize, Footer and Implicit apply; no claims are read.
func DecryptBytes(keys signet.Keys, token string, p Policy) ([]byte, error) {
	payload, err := open(keys, token, &p, true, true)
	return []byte(payload), err
}

// Verify checks a public token with keys and returns its claims once they
// satisfy p.
func Verify[T any](keys signet.Keys, token string, p Policy) (T, error) {
	var out T
	payload, err := open(keys, token, &p, false, false)
	if err != nil {
		return out, err
	}
	return claimsOf[T](payload, &p)
}

// VerifyBytes checks a public token and returns its payload. Of p, only
// MaxSize, Footer and Implicit apply.
func VerifyBytes(keys signet.Keys, token string, p Policy) ([]byte, error) {
	payload, err := open(keys, token, &p, false, true)
	return []byte(payload), err
}

func claimsOf[T any](payload string, p *Policy) (T, error) {
	var out T
	_, isClaims := any(&out).(*Claims)
	if !isClaims {
		if plan := claimsjson.PlanFor[T](splitter); plan != nil {
			return claimsPlan[T](plan, payload, p)
		}
	}
	var c Claims
	has, folded, err := readClaims(payload, &c, !isClaims && claimsjson.Folds[T, Map](), nil, nil)
	if err != nil {
		return out, err
	}
	if err := p.validate(&c, has); err != nil {
		return out, err
	}
	if o, ok := any(&out).(*Claims); ok {
		*o = c
		return out, nil
	}
	return decodeInto[T](payload, &c, folded)
}

// claimsPlan reads and validates the claims of a T that has a
// claimsjson.Plan: the registered claims as for Claims, the other members
// by the plan: as the claims reader meets them, decoded and validated in
// one pass (claimsjson.Taker), or, for a payload of the plain shape, from
// the members the reader passed over (without another scan).
func claimsPlan[T any](plan *claimsjson.Plan, payload string, p *Policy) (T, error) {
	var c Claims
	var rest claimsjson.Rest
	var out T
	take := claimsjson.NewTaker(plan, &out)
	has, folded, err := readClaims(payload, &c, true, &rest, &take)
	if err != nil {
		var zero T
		return zero, err
	}
	if err := p.validate(&c, has); err != nil {
		var zero T
		return zero, err
	}
	if ok, err := claimsjson.Finish(&take, payload, &rest, folded, &c, &out); ok {
		if err != nil {
			var zero T
			return zero, err
		}
		return out, nil
	}
	return decodeInto[T](payload, &c, folded)
}

// Footer returns the footer of token without checking anything else: use
// it only to find the key (a kid), never trust it before the token
// verifies. A token without a footer gives an empty footer. Tokens over
// DefaultMaxSize are refused (signet.ErrTooLarge), whatever a Policy's
// MaxSize: Footer reads no Policy.
func Footer(token string) ([]byte, error) {
	_, _, f, err := split(token, DefaultMaxSize)
	if err != nil {
		return nil, err
	}
	return decodeFooter(f)
}

var headers = [...]struct {
	h     string
	alg   signet.Algorithm
	local bool
}{
	{"v4.local.", signet.V4Local, true},
	{"v4.public.", signet.V4Public, false},
	{"v3.local.", signet.V3Local, true},
	{"v3.public.", signet.V3Public, false},
}

// split reads version.purpose.payload[.footer], refusing oversized input
// first, unknown headers, empty parts and extra dots.
func split(token string, max int) (alg signet.Algorithm, payload, footer string, err error) {
	if len(token) > max {
		return "", "", "", fmt.Errorf("%w: token is %d bytes, limit %d", signet.ErrTooLarge, len(token), max)
	}
	for _, h := range headers {
		if strings.HasPrefix(token, h.h) {
			alg, payload = h.alg, token[len(h.h):]
			break
		}
	}
	if alg == "" {
		return "", "", "", fmt.Errorf("%w: not a v3 or v4 PASETO token", signet.ErrUnsupported)
	}
	if i := strings.IndexByte(payload, '.'); i >= 0 {
		payload, footer = payload[:i], payload[i+1:]
		if footer == "" || strings.IndexByte(footer, '.') >= 0 {
			return "", "", "", fmt.Errorf("%w: empty footer or extra segments", signet.ErrMalformed)
		}
		if len(footer) > b64.EncodedLen(MaxFooterSize) {
			return "", "", "", fmt.Errorf("%w: footer larger than %d bytes", signet.ErrTooLarge, MaxFooterSize)
		}
	}
	if payload == "" {
		return "", "", "", fmt.Errorf("%w: empty payload", signet.ErrMalformed)
	}
	return alg, payload, footer, nil
}

func decodeFooter(f string) ([]byte, error) {
	if f == "" {
		return nil, nil
	}
	b, err := b64.DecodeString(f)
	if err != nil {
		return nil, fmt.Errorf("%w: footer is not strict base64url", signet.ErrMalformed)
	}
	return b, nil
}

// open checks token with keys and returns the payload (a view of a new
// buffer). The order keeps hostile input cheap: size, structure, version
// and purpose against the keys, the footer, then the tag or signature,
// and only then the payload is decrypted and read. checkJSON validates the
// payload as a JSON object; callers that decode the claims, which
// validates it as well, pass false.
func open(keys signet.Keys, token string, p *Policy, local, checkJSON bool) (string, error) {
	max, err := p.check()
	if err != nil {
		return "", err
	}
	alg, ps, fs, err := split(token, max)
	if err != nil {
		return "", err
	}
	if isLocal := alg == signet.V4Local || alg == signet.V3Local; isLocal != local {
		if local {
			return "", fmt.Errorf("%w: a %s token is not a local token: use Verify", signet.ErrAlgorithmMismatch, alg)
		}
		return "", fmt.Errorf("%w: a %s token is not a public token: use Decrypt", signet.ErrAlgorithmMismatch, alg)
	}
	if keys == nil {
		return "", fmt.Errorf("%w: nil keys", signet.ErrKeyUsage)
	}
	// One allocation for the raw payload and the footer.
	pl, fl := b64.DecodedLen(len(ps)), b64.DecodedLen(len(fs))
	buf := unsafex.MakeNoZero(pl + fl)[:pl+fl] // all written by the decodes, dropped on an error
	raw, f := buf[:pl], buf[pl:]
	if _, err := b64.Decode(raw, ps); err != nil {
		return "", fmt.Errorf("%w: payload is not strict base64url", signet.ErrMalformed)
	}
	if _, err := b64.Decode(f, fs); err != nil {
		return "", fmt.Errorf("%w: footer is not strict base64url", signet.ErrMalformed)
	}
	if err := p.checkFooter(f); err != nil {
		return "", err
	}
	kid, err := footerKeyID(f)
	if err != nil {
		return "", err
	}
	cands, err := keys.Select(kid, alg)
	if err != nil {
		return "", err
	}
	if err := cands.Check(alg); err != nil {
		// Whatever Keys offers, a token costs a bounded number of checks.
		return "", err
	}
	var payload []byte
	for n := range cands.Len() {
		k := cands.At(n)
		if k.Algorithm() != alg {
			return "", fmt.Errorf("%w: key for %s offered for %s", signet.ErrAlgorithmMismatch, k.Algorithm(), alg)
		}
		payload, err = openWith(k, alg, raw, f, p.Implicit)
		if err == nil {
			break
		}
		if n+1 < cands.Len() {
			// Local tokens are opened in place only after the tag matched,
			// so raw is intact for the next candidate.
			continue
		}
		return "", err
	}
	if checkJSON {
		if err := checkPayload(payload); err != nil {
			return "", err
		}
	}
	return bytesToString(payload), nil
}

func openWith(k *signet.Key, alg signet.Algorithm, raw, f, i []byte) ([]byte, error) {
	switch alg {
	case signet.V4Local:
		return decryptV4(k, raw, f, i)
	case signet.V3Local:
		return decryptV3(k, raw, f, i)
	}
	sigSize := k.SignatureSize()
	if len(raw) < sigSize {
		return nil, fmt.Errorf("%w: %s token too short", signet.ErrMalformed, alg)
	}
	m, sig := raw[:len(raw)-sigSize], raw[len(raw)-sigSize:]
	var msg []byte
	if alg == signet.V4Public {
		msg = messageV4(m, f, i)
	} else {
		var err error
		if msg, err = messageV3(k, m, f, i); err != nil {
			return nil, err
		}
	}
	if err := k.Verify(msg, sig); err != nil {
		return nil, errAuth
	}
	return m, nil
}

// checkPayload: PASETO payloads are JSON objects with unique keys.
func checkPayload(payload []byte) error {
	if len(payload) == 0 || payload[0] != '{' {
		return fmt.Errorf("%w: payload is not a JSON object", signet.ErrMalformed)
	}
	if err := jsonx.Valid(bytesToString(payload)); err != nil {
		return fmt.Errorf("%w: payload: %v", signet.ErrMalformed, err)
	}
	return nil
}

// Limits on a JSON footer read for its kid, before anything is verified
// (PASETO: guard size, depth and key count before decoding a footer).
const (
	maxFooterDepth = 2
	maxFooterKeys  = 16
)

// footerKeyID returns the kid of a JSON footer, or "" when the footer is
// not a JSON object or has no kid.
func footerKeyID(f []byte) (string, error) {
	kid, err := footerKID(f)
	return strings.Clone(kid), err
}

// footerKID is footerKeyID with the kid a view of f: the one check of a
// footer, run by readers before anything is verified and by issuers
// (checkFooter) so that no token is issued with a footer readers refuse.
// A footer that is a key PASERK (keyPaserk), or a JSON footer with one as
// the value of a top-level member (kid, wpk or any other), is refused
// with signet.ErrFooter: PASERK forbids keys in the clear and
// password-wrapped keys in a footer, and a key named by the token itself
// must never be the key that checks it (PASETO: key IDs independent of
// the keys).
func footerKID(f []byte) (string, error) {
	s := strings.TrimLeft(bytesToString(f), " \t\r\n")
	if len(s) == 0 || s[0] != '{' {
		if t, ok := keyPaserk(s); ok {
			return "", keyInFooter(t)
		}
		return "", nil
	}
	if depth, members := jsonShape(s); depth > maxFooterDepth || members > maxFooterKeys {
		return "", fmt.Errorf("%w: JSON footer deeper than %d or with more than %d members", signet.ErrFooter, maxFooterDepth, maxFooterKeys)
	}
	// Names that differ only in case ("KID", "Kid") would let a caller's
	// encoding/json read another kid than the one the key was chosen by.
	if err := jsonx.ValidFold(s); err != nil {
		return "", fmt.Errorf("%w: JSON footer: %v", signet.ErrFooter, err)
	}
	m := jsonx.NewMembers(s)
	kid := ""
	for m.Next(s) {
		if name := m.Name(s); name != "kid" && strings.EqualFold(name, "kid") {
			return "", fmt.Errorf("%w: JSON footer names its key ID %q, not \"kid\"", signet.ErrFooter, clip.String(name))
		}
		v, isString := m.String(s)
		if isString {
			if t, ok := keyPaserk(v); ok {
				return "", keyInFooter(t)
			}
		}
		if m.Name(s) == "kid" {
			if !isString {
				return "", fmt.Errorf("%w: footer kid is not a string", signet.ErrMalformed)
			}
			kid = v
		}
	}
	if err := m.Err(); err != nil {
		return "", fmt.Errorf("%w: JSON footer: %v", signet.ErrMalformed, err)
	}
	return kid, nil
}

// jsonShape counts, without parsing, the nesting depth and the ':' (member)
// count of JSON text, outside strings: PASETO's guard, run before any
// decoding of an untrusted footer.
func jsonShape(s string) (depth, members int) {
	d, inStr, esc := 0, false, false
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case esc:
			esc = false
		case inStr:
			if c == '\\' {
				esc = true
			} else if c == '"' {
				inStr = false
			}
		case c == '"':
			inStr = true
		case c == '{' || c == '[':
			d++
			depth = max(depth, d)
		case c == '}' || c == ']':
			d--
		case c == ':':
			members++
		}
	}
	return depth, members
}
