package main

import (
	"bufio"
	"crypto"
	"crypto/ed25519"
	"crypto/md5"
	"crypto/sha256"
	"crypto/tls"
	"fmt"
	"net/http"
	"net/url"
	"strings"

	"github.com/signet-go/signet/attacks"
	"github.com/signet-go/signet/httpsig"
)

// hreq is a request as an attacker writes it on the wire.
type hreq struct {
	method, path, query, host string
	fields                    [][2]string // in order, Host and the signature fields aside
	body                      string
}

func (r hreq) target() string {
	if r.query == "" {
		return r.path
	}
	return r.path + "?" + r.query
}

// normAuthority is @authority: host lowercased, the scheme's default port
// dropped (RFC 9421 §2.2.3).
func normAuthority(host, scheme string) string {
	host = strings.ToLower(host)
	if scheme == "https" {
		return strings.TrimSuffix(host, ":443")
	}
	return strings.TrimSuffix(host, ":80")
}

// value is the value of a covered component (serialized identifier).
func (r hreq) value(id, scheme string) string {
	switch id {
	case `"@method"`:
		return r.method
	case `"@authority"`:
		return normAuthority(r.host, scheme)
	case `"@path"`:
		return r.path
	case `"@query"`:
		return "?" + r.query
	case `"@query-param";name="Pet"`:
		return must(url.ParseQuery(r.query)).Get("Pet")
	}
	name := strings.Trim(id, `"`)
	for _, f := range r.fields {
		if strings.EqualFold(f[0], name) {
			return f[1]
		}
	}
	panic("no component " + id)
}

// hsig is one signature's covered components and parameters.
type hsig struct {
	comps     []string
	params    string // ";created=…;keyid=…"
	authority string // the @authority value signed, when not the normalized one
}

func (s hsig) input() string { return "(" + strings.Join(s.comps, " ") + ")" + s.params }

func (r hreq) base(s hsig, scheme string) string {
	var b strings.Builder
	for _, c := range s.comps {
		v := r.value(c, scheme)
		if c == `"@authority"` && s.authority != "" {
			v = s.authority
		}
		b.WriteString(c + ": " + v + "\n")
	}
	b.WriteString(`"@signature-params": ` + s.input())
	return b.String()
}

// message is the request on the wire with the signature fields.
func (r hreq) message(sigInput, signature string) string {
	var b strings.Builder
	b.WriteString(r.method + " " + r.target() + " HTTP/1.1\r\nHost: " + r.host + "\r\n")
	for _, f := range r.fields {
		b.WriteString(f[0] + ": " + f[1] + "\r\n")
	}
	b.WriteString("Signature-Input: " + sigInput + "\r\nSignature: " + signature + "\r\n\r\n" + r.body)
	return b.String()
}

// sign returns r signed over s (label sig1) by signer. With check, the
// base is first compared with the one signet's verifier rebuilds from the
// message, so that the corpus's well-formed signatures are what an RFC
// 9421 verifier computes (the malformed ones cannot be checked so).
func (r hreq) sign(s hsig, scheme string, signer func(base string) []byte, check bool) string {
	base := r.base(s, scheme)
	msg := r.message("sig1="+s.input(), "sig1=:"+b64std(signer(base))+":")
	if check {
		req := must(http.ReadRequest(bufio.NewReader(strings.NewReader(msg))))
		if scheme == "https" {
			req.TLS = &tls.ConnectionState{}
		}
		if got := must(httpsig.RequestBase(req, "sig1", nil)); got != base {
			panic(fmt.Sprintf("signature base differs:\n got %q\nwant %q", got, base))
		}
	}
	return msg
}

func replaceOnce(s, old, new string) string {
	if !strings.Contains(s, old) {
		panic(fmt.Sprintf("%q not in message", old))
	}
	return strings.Replace(s, old, new, 1)
}

func digestField(body string) string {
	sum := sha256.Sum256([]byte(body))
	return "sha-256=:" + b64std(sum[:]) + ":"
}

func (g *gen) httpsig() []attacks.Case {
	keyHMAC := attacks.Key{KID: "test-shared-secret", Secret: b64u(g.httpSecret)}
	keyEd := attacks.Key{KID: "test-key-ed25519", PEM: spkiPEM(g.ed.Public())}
	keyEC := attacks.Key{KID: "test-key-ecc-p256", PEM: spkiPEM(&g.p256.PublicKey)}
	edPub := []byte(g.ed.Public().(ed25519.PublicKey))

	hmacSign := func(base string) []byte { return macWith(g.httpSecret, sha256New, base) }
	edSign := func(base string) []byte { return ed25519.Sign(g.ed, []byte(base)) }
	ecSign := func(base string) []byte { return ecRaw(g.p256, crypto.SHA256, base) }

	date := [2]string{"Date", "Thu, 01 Jan 2026 00:00:00 GMT"}
	get := hreq{method: "GET", path: "/items", query: "param=Value&Pet=dog", host: "example.com", fields: [][2]string{date}}
	body := `{"hello": "world"}`
	post := hreq{method: "POST", path: "/items", query: "param=Value&Pet=dog", host: "example.com", body: body,
		fields: [][2]string{date, {"Content-Type", "application/json"}, {"Content-Digest", digestField(body)}, {"Content-Length", fmt.Sprint(len(body))}}}
	getComps := []string{`"@method"`, `"@authority"`, `"@path"`, `"@query"`}
	postComps := []string{`"@method"`, `"@authority"`, `"@path"`, `"content-type"`, `"content-digest"`}
	params := func(created int64, keyid, extra string) string {
		return fmt.Sprintf(";created=%d;keyid=%q%s", created, keyid, extra)
	}

	hmacGet := get.sign(hsig{comps: getComps, params: params(issued, "test-shared-secret", "")}, "http", hmacSign, true)
	edGet := get.sign(hsig{comps: getComps, params: params(issued, "test-key-ed25519", "")}, "http", edSign, true)
	ecPost := post.sign(hsig{comps: postComps, params: params(issued, "test-key-ecc-p256", "")}, "http", ecSign, true)

	mixed := get
	mixed.host = "Example.COM:443"
	normalized := mixed.sign(hsig{comps: getComps, params: params(issued, "test-key-ed25519", "")}, "https", edSign, true)
	unnormalized := mixed.sign(hsig{comps: getComps, params: params(issued, "test-key-ed25519", ""), authority: "Example.COM:443"}, "https", edSign, false)

	newBody := `{"admin": true, "all": 1}`
	swapped := replaceOnce(replaceOnce(replaceOnce(ecPost, body, newBody), digestField(body), digestField(newBody)),
		fmt.Sprintf("Content-Length: %d", len(body)), fmt.Sprintf("Content-Length: %d", len(newBody)))

	// Created four minutes before the verifier's clock, expired three
	// minutes before it: beyond any reasonable clock skew.
	expiring := get.sign(hsig{comps: getComps, params: params(now-240, "test-key-ed25519", fmt.Sprintf(";expires=%d", now-180))}, "http", edSign, true)

	algParam := get.sign(hsig{comps: getComps, params: params(issued, "test-shared-secret", `;alg="hmac-sha256"`)}, "http", hmacSign, true)

	// HMAC keyed with the Ed25519 verifier's public key.
	pubMAC := func(base string) []byte { return macWith(edPub, sha256New, base) }
	hmacAsPublic := get.sign(hsig{comps: getComps, params: params(issued, "test-key-ed25519", `;alg="hmac-sha256"`)}, "http", pubMAC, true)
	hmacAsPublicNoAlg := get.sign(hsig{comps: getComps, params: params(issued, "test-key-ed25519", "")}, "http", pubMAC, true)

	// common-fate/httpsig v0.2.1 signs with hmac.New(sha256.New, k).Sum(base):
	// the base followed by HMAC(k, ""). The last 32 bytes of any signature
	// it made are therefore HMAC(k, ""), and with them anyone signs
	// anything.
	admin := hreq{method: "DELETE", path: "/admin/everything", host: "example.com", fields: [][2]string{date}}
	emptyMAC := macWith(g.httpSecret, sha256New, "")
	forged := admin.sign(hsig{comps: []string{`"@method"`, `"@authority"`, `"@path"`}, params: params(issued, "test-shared-secret", "")}, "http",
		func(base string) []byte { return cat([]byte(base), emptyMAC) }, true)

	edAttacker := func(base string) []byte { return ed25519.Sign(g.edAttacker, []byte(base)) }
	derSign := func(base string) []byte { return ecDER(g.p256, crypto.SHA256, base) }
	zeroSign := func(string) []byte { return make([]byte, 64) }

	md5Post := post
	sum := md5.Sum([]byte(body))
	md5Post.fields = [][2]string{date, {"Content-Type", "application/json"}, {"Content-Digest", "md5=:" + b64std(sum[:]) + ":"}, {"Content-Length", fmt.Sprint(len(body))}}

	pet := get.sign(hsig{comps: []string{`"@method"`, `"@authority"`, `"@path"`, `"@query-param";name="Pet"`}, params: params(issued, "test-key-ed25519", "")}, "http", edSign, true)

	lenient := get.sign(hsig{comps: getComps, params: params(issued, "test-key-ed25519", "")}, "http", edSign, true)
	lenient = replaceOnce(lenient, `sig1=("@method" "@authority"`, `sig1=("@method", "@authority"`)

	// Coverage: a signature over no component, and one over content-type
	// only, each valid, presented on a request they say nothing about.
	adminJSON := hreq{method: "DELETE", path: "/admin/everything", host: "example.com", fields: [][2]string{date, {"Content-Type", "application/json"}}}
	emptyCoverage := adminJSON.sign(hsig{params: params(issued, "test-key-ed25519", "")}, "http", edSign, true)
	typeOnly := adminJSON.sign(hsig{comps: []string{`"content-type"`}, params: params(issued, "test-key-ed25519", "")}, "http", edSign, true)

	// Response signatures made by a server with its key, presented as
	// request signatures: one covering @status and the response's
	// content fields (copied onto a request with the same body), one
	// covering the request's components through ;req, as a signing oracle
	// answering a client's Accept-Signature would have made it.
	respInput := `("@status" "content-type" "content-digest")` + params(issued, "test-key-ed25519", "")
	respBase := "\"@status\": 200\n\"content-type\": application/json\n\"content-digest\": " + digestField(body) + "\n\"@signature-params\": " + respInput
	respAsRequest := post.message("sig1="+respInput, "sig1=:"+b64std(edSign(respBase))+":")
	reqInput := `("@method";req "@authority";req "@path";req)` + params(issued, "test-key-ed25519", "")
	reqBase := "\"@method\";req: GET\n\"@authority\";req: example.com\n\"@path\";req: /items\n\"@signature-params\": " + reqInput
	reqAsRequest := get.message("sig1="+reqInput, "sig1=:"+b64std(edSign(reqBase))+":")

	// expires exactly at the verifier's clock, and a far-future expires
	// with a nonce.
	expiresNow := get.sign(hsig{comps: getComps, params: params(issued, "test-key-ed25519", fmt.Sprintf(";expires=%d", now))}, "http", edSign, true)
	farExpires := fmt.Sprintf(";expires=%d;nonce=\"kx8f3-far-future\"", exp)
	farReplay := get.sign(hsig{comps: getComps, params: params(issued, "test-key-ed25519", farExpires)}, "http", edSign, true)
	farOld := get.sign(hsig{comps: getComps, params: params(now-3600, "test-key-ed25519", farExpires)}, "http", edSign, true)

	cases := []attacks.Case{
		// Controls.
		{ID: "httpsig-control-hmac", Title: "GET signed with hmac-sha256 (control)", Alg: "hmac-sha256", Key: keyHMAC, Message: hmacGet,
			References: []string{"RFC 9421 §3.3.3"}},
		{ID: "httpsig-control-ed25519", Title: "GET signed with ed25519 (control)", Alg: "ed25519", Key: keyEd, Message: edGet,
			References: []string{"RFC 9421 §3.3.6"}},
		{ID: "httpsig-control-ecdsa-post", Title: "POST signed with ecdsa-p256-sha256, covering Content-Digest (control)", Alg: "ecdsa-p256-sha256", Key: keyEC, Message: ecPost,
			References: []string{"RFC 9421 §3.3.4", "RFC 9530 §2"}},
		{ID: "httpsig-control-authority-normalized", Title: "Host Example.COM:443 over TLS: @authority is example.com (control)", Alg: "ed25519", Key: keyEd,
			Message: normalized, Scheme: "https",
			References: []string{"RFC 9421 §2.2.3", "RFC 9110 §4.2.3"},
			Notes:      "The lab's RFC 9421 peers do not normalize @authority: they refuse this valid signature (the lab's security matrix)."},

		// Tampering with covered components.
		{ID: "httpsig-tampered-method", Title: "Method changed to DELETE", Alg: "hmac-sha256", Key: keyHMAC,
			Message: replaceOnce(hmacGet, "GET /items", "DELETE /items"), SignetError: "signet.ErrSignatureInvalid",
			References: []string{"RFC 9421 §2.2.1", "RFC 9421 §3.2"}},
		{ID: "httpsig-tampered-path", Title: "Path changed to /admin", Alg: "hmac-sha256", Key: keyHMAC,
			Message: replaceOnce(hmacGet, "GET /items?", "GET /admin?"), SignetError: "signet.ErrSignatureInvalid",
			References: []string{"RFC 9421 §2.2.6"}},
		{ID: "httpsig-tampered-query", Title: "Query changed (Pet=cat)", Alg: "hmac-sha256", Key: keyHMAC,
			Message: replaceOnce(hmacGet, "Pet=dog HTTP/1.1", "Pet=cat HTTP/1.1"), SignetError: "signet.ErrSignatureInvalid",
			References: []string{"RFC 9421 §2.2.7"}},
		{ID: "httpsig-tampered-authority", Title: "Host changed to another origin", Alg: "hmac-sha256", Key: keyHMAC,
			Message: replaceOnce(hmacGet, "Host: example.com", "Host: evil.example"), SignetError: "signet.ErrSignatureInvalid",
			References: []string{"RFC 9421 §2.2.3", "RFC 9421 §7.4.3"}},
		{ID: "httpsig-authority-unnormalized", Title: "Signature base built from the raw Host (Example.COM:443) instead of the normalized @authority", Alg: "ed25519", Key: keyEd,
			Message: unnormalized, Scheme: "https", SignetError: "signet.ErrSignatureInvalid",
			References: []string{"RFC 9421 §2.2.3", "RFC 9110 §4.2.3"},
			Notes:      "What a non-normalizing signer produces; a verifier that does not normalize either accepts it and refuses the valid control."},
		{ID: "httpsig-tampered-body", Title: "Body changed, covered Content-Digest left as it was", Alg: "ecdsa-p256-sha256", Key: keyEC,
			Message: replaceOnce(ecPost, body, `{"hello": "WORLD"}`), SignetError: "httpsig.ErrDigest",
			References: []string{"RFC 9421 §7.2.8", "RFC 9530 §2"}},
		{ID: "httpsig-body-and-digest-replaced", Title: "Body and its Content-Digest both replaced", Alg: "ecdsa-p256-sha256", Key: keyEC,
			Message: swapped, SignetError: "signet.ErrSignatureInvalid",
			References: []string{"RFC 9421 §7.2.8"}},
		{ID: "httpsig-component-dropped", Title: "@query removed from the covered components in Signature-Input", Alg: "hmac-sha256", Key: keyHMAC,
			Message: replaceOnce(hmacGet, `"@path" "@query"`, `"@path"`), SignetError: "signet.ErrSignatureInvalid",
			References: []string{"RFC 9421 §3.2", "RFC 9421 §7.2.1"}},

		// Parameters and time.
		{ID: "httpsig-created-stripped", Title: "created parameter removed from Signature-Input", Alg: "hmac-sha256", Key: keyHMAC,
			Message: replaceOnce(hmacGet, fmt.Sprintf(";created=%d", issued), ""), SignetError: "httpsig.ErrNotCovered",
			References: []string{"RFC 9421 §2.3", "RFC 9421 §7.2.2"}},
		{ID: "httpsig-expired", Title: "expires passed three minutes before the verifier's clock", Alg: "ed25519", Key: keyEd,
			Message: expiring, SignetError: "signet.ErrExpired",
			References: []string{"RFC 9421 §2.3", "RFC 9421 §3.2.1"}},
		{ID: "httpsig-expires-stripped", Title: "expires parameter removed to extend the signature's life", Alg: "ed25519", Key: keyEd,
			Message: replaceOnce(expiring, fmt.Sprintf(";expires=%d", now-180), ""), SignetError: "signet.ErrSignatureInvalid",
			References: []string{"RFC 9421 §2.3", "RFC 9421 §7.2.2"}},
		{ID: "httpsig-created-too-old", Title: "created an hour before the verifier's clock", Alg: "ed25519", Key: keyEd,
			Message: get.sign(hsig{comps: getComps, params: params(now-3600, "test-key-ed25519", "")}, "http", edSign, true), SignetError: "httpsig.ErrTooOld",
			References: []string{"RFC 9421 §3.2.1", "RFC 9421 §7.2.2"}},
		{ID: "httpsig-created-in-future", Title: "created ten minutes after the verifier's clock", Alg: "ed25519", Key: keyEd,
			Message: get.sign(hsig{comps: getComps, params: params(now+600, "test-key-ed25519", "")}, "http", edSign, true), SignetError: "signet.ErrNotYetValid",
			References: []string{"RFC 9421 §3.2.1"}},
		{ID: "httpsig-replay", Title: "The same signed request (with a nonce) presented twice", Alg: "hmac-sha256", Key: keyHMAC, Replay: true,
			Message:     get.sign(hsig{comps: getComps, params: params(issued, "test-shared-secret", `;nonce="b3k2pp5k7z-50gnwp.yemd"`)}, "http", hmacSign, true),
			SignetError: "httpsig.ErrReplay",
			References:  []string{"RFC 9421 §7.2.2"}},

		{ID: "httpsig-expires-boundary", Title: "expires exactly at the verifier's clock (expired at expires)", Alg: "ed25519", Key: keyEd,
			Message: expiresNow, SignetError: "signet.ErrExpired",
			References: []string{"RFC 9421 §2.3", "RFC 9421 §3.2.1", "RFC 7519 §4.1.4 (the same boundary for tokens)"},
			Notes:      "With no clock skew (signet's default) a signature is expired at expires, as a JWT is at exp. The lab's yaronf and remitly adapters check created and expires themselves, with a minute of skew (the libraries read the wall clock), so their verdicts here are the lab's window, not the libraries'."},
		{ID: "httpsig-far-expires-replay", Title: "expires in 2100 and a nonce: the same request presented twice", Alg: "ed25519", Key: keyEd, Replay: true,
			Message: farReplay, SignetError: "httpsig.ErrReplay",
			References: []string{"RFC 9421 §7.2.2", "RFC 9421 §2.3"},
			Notes:      "signet remembers a nonce only while its signature could be accepted (created's window caps an expires however far the signer sets it), and inside that window the replay is refused."},
		{ID: "httpsig-far-expires-too-old", Title: "created an hour ago, expires in 2100: a far expires does not outlive created's window", Alg: "ed25519", Key: keyEd,
			Message: farOld, SignetError: "httpsig.ErrTooOld",
			References: []string{"RFC 9421 §3.2.1", "RFC 9421 §7.2.2"},
			Notes:      "A verifier that lets expires override the age limit on created accepts this signature until 2100, and must remember its nonce as long."},

		// Coverage: what the signature protects.
		{ID: "httpsig-empty-coverage", Title: "Signature over no component, sig1=();created=…, on DELETE /admin/everything", Alg: "ed25519", Key: keyEd,
			Message: emptyCoverage, SignetError: "httpsig.ErrNotCovered",
			References: []string{"RFC 9421 §7.2.1", "RFC 9421 §2.5"},
			Notes:      "The signature base is the signature parameters alone: the signature verifies for any method, host, path and body."},
		{ID: "httpsig-content-type-only", Title: "Signature covering only content-type, on DELETE /admin/everything", Alg: "ed25519", Key: keyEd,
			Message: typeOnly, SignetError: "httpsig.ErrNotCovered",
			References: []string{"RFC 9421 §7.2.1", "RFC 9421 §1.4"},
			Notes:      "Valid for every request with that content type; signet requires @method, @authority and @path by default."},
		{ID: "httpsig-response-signature-as-request", Title: "A response signature (@status, content-type, content-digest) presented as a request signature", Alg: "ed25519", Key: keyEd,
			Message: respAsRequest, SignetError: "httpsig.ErrNotCovered",
			References: []string{"RFC 9421 §2.2.9", "RFC 9421 §7.2.1"},
			Notes:      "The server's response to a POST, its body, content fields and signature copied onto a request to a service that trusts the same key. @status has no value in a request; signet refuses the signature for its coverage (no @method, @authority, @path) before building a base."},
		{ID: "httpsig-response-req-components-as-request", Title: `A response signature over the request's components ("@method";req "@authority";req "@path";req) presented as a request signature`, Alg: "ed25519", Key: keyEd,
			Message: reqAsRequest, SignetError: "httpsig.ErrNotCovered",
			References: []string{"RFC 9421 §2.4", "RFC 9421 §7.2.1"},
			Notes:      "What a server answering a client's Accept-Signature with the components it asks for signs: the request's method, authority and path under the server's key. ;req names the request a response answers; a request has none, and a verifier that ignores the flag accepts the server's response signature as the client's request signature. signet refuses it for its coverage: \"@method\";req is not the request's @method."},

		// Keys and algorithms.
		{ID: "httpsig-alg-param-substituted", Title: `alg parameter rewritten from hmac-sha256 to rsa-v1_5-sha256`, Alg: "hmac-sha256", Key: keyHMAC,
			Message: replaceOnce(algParam, `alg="hmac-sha256"`, `alg="rsa-v1_5-sha256"`), SignetError: "signet.ErrAlgorithmMismatch",
			References: []string{"RFC 9421 §3.2", "RFC 9421 §7.3.6"}},
		{ID: "httpsig-hmac-with-public-key", Title: `alg="hmac-sha256" keyed with the ed25519 verifier's public key`, Alg: "ed25519", Key: keyEd,
			Message: hmacAsPublic, SignetError: "signet.ErrAlgorithmMismatch",
			References: []string{"RFC 9421 §7.3.4", "RFC 9421 §7.3.6", "CVE-2016-10555 (the JWT analogue)"}},
		{ID: "httpsig-hmac-with-public-key-no-alg", Title: "HMAC keyed with the ed25519 verifier's public key, no alg parameter", Alg: "ed25519", Key: keyEd,
			Message: hmacAsPublicNoAlg, SignetError: "signet.ErrSignatureInvalid",
			References: []string{"RFC 9421 §7.3.4"}},
		{ID: "httpsig-hmac-base-concat-forgery", Title: `Forged DELETE /admin/everything signed base || HMAC(k, "") (common-fate/httpsig forgery)`, Alg: "hmac-sha256", Key: keyHMAC,
			Message: forged, SignetError: "signet.ErrSignatureInvalid",
			References: []string{"common-fate/httpsig v0.2.1 hmac-sha256 forgery (bench/lab/httpsig_commonfate.go)", "RFC 9421 §3.3.3"},
			Notes:      "HMAC(k, \"\") is the last 32 bytes of any signature common-fate makes with k; it accepts this request."},
		{ID: "httpsig-other-key", Title: "Signed by another Ed25519 key under the verifier's keyid", Alg: "ed25519", Key: keyEd,
			Message: get.sign(hsig{comps: getComps, params: params(issued, "test-key-ed25519", "")}, "http", edAttacker, true), SignetError: "signet.ErrSignatureInvalid",
			References: []string{"RFC 9421 §3.2"}},
		{ID: "httpsig-unknown-keyid", Title: "keyid naming a key the verifier does not hold", Alg: "ed25519", Key: keyEd,
			Message: get.sign(hsig{comps: getComps, params: params(issued, "attacker-key", "")}, "http", edAttacker, true), SignetError: "signet.ErrKeyNotFound",
			References: []string{"RFC 9421 §3.2 (an unknown key is a failure)"}},
		{ID: "httpsig-ecdsa-der", Title: "ecdsa-p256-sha256 signature in ASN.1 DER instead of r || s", Alg: "ecdsa-p256-sha256", Key: keyEC,
			Message: post.sign(hsig{comps: postComps, params: params(issued, "test-key-ecc-p256", "")}, "http", derSign, true), SignetError: "signet.ErrSignatureInvalid",
			References: []string{"RFC 9421 §3.3.4"},
			Notes:      "RFC 9421 encodes ECDSA signatures as r‖s; a library that emits or accepts DER is not interoperable and widens what verifies."},
		{ID: "httpsig-ecdsa-psychic", Title: "ecdsa-p256-sha256 signature r = s = 0", Alg: "ecdsa-p256-sha256", Key: keyEC,
			Message: post.sign(hsig{comps: postComps, params: params(issued, "test-key-ecc-p256", "")}, "http", zeroSign, true), SignetError: "signet.ErrSignatureInvalid",
			References: []string{"CVE-2022-21449"}},

		// Parsing and canonicalization.
		{ID: "httpsig-duplicate-component", Title: "@method covered twice", Alg: "ed25519", Key: keyEd,
			Message: get.sign(hsig{comps: []string{`"@method"`, `"@authority"`, `"@path"`, `"@method"`}, params: params(issued, "test-key-ed25519", "")}, "http", edSign, false), SignetError: "httpsig.ErrComponent",
			References: []string{"RFC 9421 §2.5"}},
		{ID: "httpsig-lenient-structured-field", Title: "Signature-Input with a comma inside the inner list (not a Structured Field)", Alg: "ed25519", Key: keyEd,
			Message: lenient, SignetError: "signet.ErrMalformed",
			References: []string{"RFC 9421 §7.5.3", "RFC 8941 §3.1.1"}},
		{ID: "httpsig-deprecated-digest", Title: "Covered Content-Digest uses md5 only (validly signed)", Alg: "ecdsa-p256-sha256", Key: keyEC,
			Message: md5Post.sign(hsig{comps: postComps, params: params(issued, "test-key-ecc-p256", "")}, "http", ecSign, true), SignetError: "httpsig.ErrDigest",
			References: []string{"RFC 9530 §5", "RFC 9530 §7"}},
		{ID: "httpsig-repeated-query-param", Title: `Pet=cat appended after the signed Pet=dog ("@query-param";name="Pet" covered)`, Alg: "ed25519", Key: keyEd,
			Message: replaceOnce(pet, "Pet=dog HTTP/1.1", "Pet=dog&Pet=cat HTTP/1.1"), SignetError: "httpsig.ErrComponent",
			References: []string{"RFC 9421 §2.2.8"}},
	}
	return finish(cases)
}
