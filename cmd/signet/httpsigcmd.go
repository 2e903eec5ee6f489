package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/signet-go/signet"
	"github.com/signet-go/signet/httpsig"
	"github.com/signet-go/signet/internal/clip"
	"github.com/signet-go/signet/internal/jsonx"
	"github.com/signet-go/signet/internal/sf"
	"github.com/signet-go/signet/jwk"
)

// httpsigCmd runs the httpsig subcommands.
func (c *cli) httpsigCmd(args []string) error {
	return c.runSubcommand("httpsig", args,
		subcommand{"sign", c.httpsigSign},
		subcommand{"verify", c.httpsigVerify},
		subcommand{"base", c.httpsigBase})
}

// maxSFInteger is the largest Structured Fields Integer (RFC 9651 §3.3.1):
// the bound of created and expires.
const maxSFInteger = 999_999_999_999_999

// messageFlags are the flags the three httpsig commands share: how to read
// the message and the request a response answers.
type messageFlags struct {
	scheme  *string
	reqPath *string
	set     map[string]bool // filled in after parsing
}

func addMessageFlags(cmd *command) *messageFlags {
	return &messageFlags{
		scheme:  cmd.fs.String("scheme", "https", "`scheme` the request was sent with, https or http, for @scheme and @target-uri (a request line in absolute form names its own)"),
		reqPath: cmd.fs.String("request", "", "`file` holding the request a response answers, for components with the req parameter"),
	}
}

// check validates the flags once parsed.
func (mf *messageFlags) check(cmd *command, set map[string]bool) error {
	mf.set = set
	if *mf.scheme != "https" && *mf.scheme != "http" {
		return cmd.usageErr("--scheme must be https or http, not %q", clip.String(*mf.scheme))
	}
	if set["request"] && *mf.reqPath == "" {
		return cmd.usageErr("--request needs a file")
	}
	return nil
}

// readMessage reads the message on stdin and, with --request, the request
// it answers, and sets the scheme of the requests (see setScheme).
func (c *cli) readMessage(cmd *command, mf *messageFlags) (m *httpMessage, related *http.Request, err error) {
	if *mf.reqPath != "" {
		data, err := readFile(*mf.reqPath, "request file")
		if err != nil {
			return nil, nil, err
		}
		what := "request file " + *mf.reqPath
		rm, err := parseHTTPMessage(data, what, nil)
		if err != nil {
			return nil, nil, err
		}
		if rm.req == nil {
			return nil, nil, fmt.Errorf("%w: %s holds a response, not a request", signet.ErrMalformed, what)
		}
		related = rm.req
		mf.setScheme(related)
	}
	data, err := readLimited(c.stdin, "message on stdin")
	if err != nil {
		return nil, nil, err
	}
	if m, err = parseHTTPMessage(data, "the message on stdin", related); err != nil {
		return nil, nil, err
	}
	if m.req != nil {
		if related != nil {
			return nil, nil, cmd.usageErr("--request applies to a response; the message on stdin is a request")
		}
		mf.setScheme(m.req)
	}
	return m, related, nil
}

// setScheme gives a request read from text the scheme it was sent with:
// the request line of a request read by a server names none (origin
// form), unless it is in absolute form. --scheme, when given, wins.
func (mf *messageFlags) setScheme(r *http.Request) {
	if mf.set["scheme"] || r.URL.Scheme == "" {
		r.URL.Scheme = *mf.scheme
	}
}

// origin is the Origin a signer or verifier is told: the request's scheme.
func origin(r *http.Request) *httpsig.Origin {
	return &httpsig.Origin{Scheme: r.URL.Scheme}
}

// messageOrigin is origin for the request of a message: the message
// itself, or the request a response answers (nil when there is none).
func messageOrigin(m *httpMessage, related *http.Request) *httpsig.Origin {
	switch {
	case m.req != nil:
		return origin(m.req)
	case related != nil:
		return origin(related)
	}
	return nil
}

// httpsigSign: signet httpsig sign --key F --label L --components C
// [--keyid K] [--created now|UNIX] [--expires UNIX] [--nonce N] [--tag T]
// [--digest ALG] [--alg ALG] [--scheme S] [--request F]. The message on
// stdin comes out with Signature-Input and Signature field lines added at
// the end of its header section (and Content-Digest with --digest),
// every other byte as it was.
func (c *cli) httpsigSign(args []string) error {
	cmd := newCommand("httpsig sign", `httpsig sign --key F --label L --components '"@method" "@path" …' [--keyid K] [--created now|UNIX] [--expires UNIX] [--nonce N] [--tag T] [--digest sha-256|sha-512] [--alg ALG] [--scheme https|http] [--request F] < MESSAGE`)
	keyPath := cmd.fs.String("key", "", "private key `file` (JWK, PEM, or a raw secret with --secret-encoding and --alg hmac-sha256)")
	label := cmd.fs.String("label", "", "`label` of the signature in Signature-Input and Signature, e.g. sig1")
	comps := cmd.fs.String("components", "", "covered `components`, space-separated, serialized or bare: '\"@method\" \"@path\" content-digest'")
	keyid := cmd.fs.String("keyid", "", "keyid parameter `K` (default: the key's ID, when it has one)")
	created := cmd.fs.String("created", "now", "created parameter: `now` or a Unix time")
	expires := cmd.fs.String("expires", "", "expires parameter, a `UNIX` time")
	nonce := cmd.fs.String("nonce", "", "nonce parameter `N`")
	tag := cmd.fs.String("tag", "", "tag parameter `T`")
	digest := cmd.fs.String("digest", "", "add a Content-Digest of the body with `ALG`, sha-256 or sha-512, when the message has none (--components must cover content-digest)")
	algName := cmd.fs.String("alg", "", "`ALG` of a key file that does not name it: a raw secret (hmac-sha256), an RSA PEM key (rsa-pss-sha512 or rsa-v1_5-sha256)")
	secretEnc := addSecretFlag(cmd)
	mf := addMessageFlags(cmd)
	pos, set, err := c.parse(cmd, args)
	if err != nil {
		return err
	}
	switch {
	case len(pos) != 0:
		return cmd.usageErr("unexpected argument %q (the message is read from stdin)", clip.String(pos[0]))
	case *keyPath == "":
		return cmd.usageErr("--key is required")
	case *label == "":
		return cmd.usageErr("--label is required")
	case !isSFKey(*label):
		return cmd.usageErr("--label %q is not a Structured Field key (lowercase letters, digits, _ - . *, starting with a letter or *)", clip.String(*label))
	case strings.TrimSpace(*comps) == "":
		return cmd.usageErr(`--components is required, e.g. '"@method" "@authority" "@path"'`)
	case *digest != "" && *digest != httpsig.SHA256 && *digest != httpsig.SHA512:
		return cmd.usageErr("--digest must be %s or %s, not %q", httpsig.SHA256, httpsig.SHA512, clip.String(*digest))
	}
	if err := mf.check(cmd, set); err != nil {
		return err
	}
	for _, p := range []struct{ flag, value string }{{"keyid", *keyid}, {"nonce", *nonce}, {"tag", *tag}} {
		if err := checkSFString(cmd, p.flag, p.value); err != nil {
			return err
		}
	}
	components, err := parseComponentsFlag(cmd, "components", *comps)
	if err != nil {
		return err
	}
	if *digest != "" && !containsString(components, `"content-digest"`) {
		return cmd.usageErr(`--digest needs content-digest among the --components: the digest is added for the signature to cover it`)
	}
	createdAt := c.now()
	if *created != "now" {
		n, err := unixFlag(cmd, "created", *created)
		if err != nil {
			return err
		}
		createdAt = time.Unix(n, 0)
	}
	var expiresAt time.Time
	if set["expires"] {
		n, err := unixFlag(cmd, "expires", *expires)
		if err != nil {
			return err
		}
		if n < createdAt.Unix() {
			return cmd.usageErr("--expires %d is before created %d", n, createdAt.Unix())
		}
		expiresAt = time.Unix(n, 0)
	}
	alg, err := cmd.httpsigAlg(*algName, set["alg"])
	if err != nil {
		return err
	}
	enc, err := cmd.secretEncoding(*secretEnc, set, alg)
	if err != nil {
		return err
	}

	key, err := loadHTTPSigKey(*keyPath, alg, enc)
	if err != nil {
		return err
	}
	if !key.CanSign() {
		return fmt.Errorf("key file %s: %w: it holds a public %s key; signing needs the private key", *keyPath, signet.ErrKeyUsage, key.Algorithm())
	}
	m, related, err := c.readMessage(cmd, mf)
	if err != nil {
		return err
	}
	signer, err := httpsig.NewSigner(key, httpsig.Options{
		Label:      *label,
		Components: components,
		KeyID:      *keyid,
		Tag:        *tag,
		NonceValue: *nonce,
		ExpiresAt:  expiresAt,
		Digest:     *digest,
		Now:        func() time.Time { return createdAt },
		Origin:     messageOrigin(m, related),
	})
	if err != nil {
		return err
	}

	// The field lines the signer adds are those past the ones the message
	// had.
	added := []string{"Content-Digest", "Signature-Input", "Signature"}
	h := m.header()
	had := make([]int, len(added))
	for i, name := range added {
		had[i] = len(h.Values(name))
	}
	if m.req != nil {
		err = signer.SignRequest(m.req)
	} else {
		err = signer.SignResponse(m.resp.StatusCode, h, m.resp.Trailer, related, m.body)
	}
	if err != nil {
		return hintRequest(err, m, related)
	}
	var fields [][2]string
	for i, name := range added {
		for _, v := range h.Values(name)[had[i]:] {
			fields = append(fields, [2]string{name, v})
		}
	}
	if _, err := c.stdout.Write(m.withFields(fields)); err != nil {
		return err
	}
	if !expiresAt.IsZero() && !expiresAt.After(c.now()) {
		c.warn("the signature expires at %d, which has passed: verifiers refuse it", expiresAt.Unix())
	}
	return nil
}

// httpsigVerify: signet httpsig verify (--key F | --jwks F) [--label L]
// [--tag T] [--require C] [--insecure-skip-default-coverage] [--max-age D]
// [--no-created] [--unsigned-body] [--now UNIX] [--alg ALG] [--scheme S]
// [--request F]. On success a JSON summary of the accepted signature goes
// to stdout.
func (c *cli) httpsigVerify(args []string) error {
	cmd := newCommand("httpsig verify", `httpsig verify (--key F | --jwks F) [--secret-encoding ENC] [--label L] [--tag T] [--require '"content-digest" …'] [--insecure-skip-default-coverage] [--max-age D] [--no-created] [--unsigned-body] [--now UNIX] [--alg ALG] [--scheme https|http] [--request F] < MESSAGE`)
	keyPath := cmd.fs.String("key", "", "key `file` (JWK, PEM, or a raw secret with --secret-encoding and --alg hmac-sha256; public or private)")
	jwksPath := cmd.fs.String("jwks", "", "JWK Set `file`; the signature's keyid parameter selects the key")
	label := cmd.fs.String("label", "", "check only the signature with this `label` (default: the first one that verifies)")
	tag := cmd.fs.String("tag", "", "check only signatures with this tag parameter `T`")
	require := cmd.fs.String("require", "", "`components` the signature must cover besides @method, @authority and @path (requests) or @status (responses), space-separated: '\"content-digest\" \"content-type\"'")
	weakCoverage := cmd.fs.Bool("insecure-skip-default-coverage", false, "accept a signature that does not cover @method, @authority and @path (requests) or @status (responses): only --require applies (INSECURE: such a signature can be replayed on another method, host or path)")
	maxAge := cmd.fs.Duration("max-age", 0, fmt.Sprintf("how old created may be (`D`, default %v)", httpsig.DefaultMaxAge))
	noCreated := cmd.fs.Bool("no-created", false, "accept a signature without created (it is still checked when present)")
	unsignedBody := cmd.fs.Bool("unsigned-body", false, "accept a body that no covered Content-Digest vouches for (a covered one is still checked)")
	nowFlag := cmd.fs.String("now", "", "check the times against this `UNIX` time instead of the clock (for testing)")
	algName := cmd.fs.String("alg", "", "`ALG` of a --key file that does not name it: a raw secret (hmac-sha256), an RSA PEM key (rsa-pss-sha512 or rsa-v1_5-sha256)")
	secretEnc := addSecretFlag(cmd)
	mf := addMessageFlags(cmd)
	pos, set, err := c.parse(cmd, args)
	if err != nil {
		return err
	}
	switch {
	case len(pos) != 0:
		return cmd.usageErr("unexpected argument %q (the message is read from stdin)", clip.String(pos[0]))
	case (*keyPath == "") == (*jwksPath == ""):
		return cmd.usageErr("give exactly one of --key and --jwks")
	case *jwksPath != "" && set["alg"]:
		return cmd.usageErr("--alg applies to --key; a JWK Set names each key's algorithm")
	case set["max-age"] && *maxAge <= 0:
		return cmd.usageErr("--max-age must be a positive duration, not %v", *maxAge)
	case set["label"] && !isSFKey(*label):
		return cmd.usageErr("--label %q is not a Structured Field key", clip.String(*label))
	}
	if err := cmd.emptyCheckErr("tag", "require"); err != nil {
		return err
	}
	if err := mf.check(cmd, set); err != nil {
		return err
	}
	required, err := parseComponentsFlag(cmd, "require", *require)
	if err != nil {
		return err
	}
	now := c.now()
	if set["now"] {
		n, err := unixFlag(cmd, "now", *nowFlag)
		if err != nil {
			return err
		}
		now = time.Unix(n, 0)
	}
	alg, err := cmd.httpsigAlg(*algName, set["alg"])
	if err != nil {
		return err
	}
	enc, err := cmd.secretEncoding(*secretEnc, set, alg)
	if err != nil {
		return err
	}

	var keys signet.Keys
	if *keyPath != "" {
		keys, err = loadHTTPSigKey(*keyPath, alg, enc)
	} else {
		keys, err = loadKeySet(*jwksPath)
	}
	if err != nil {
		return err
	}
	m, related, err := c.readMessage(cmd, mf)
	if err != nil {
		return err
	}
	p := httpsig.Policy{
		Label:        *label,
		Tag:          *tag,
		Require:      required,
		MaxAge:       *maxAge,
		NoCreated:    *noCreated,
		UnsignedBody: *unsignedBody,
		MaxBody:      maxInput,
		Now:          func() time.Time { return now },
	}
	p.InsecureSkipDefaultCoverage = *weakCoverage
	p.Origin = messageOrigin(m, related)
	v, err := httpsig.NewVerifier(keys, p)
	if err != nil {
		return err
	}
	var res *httpsig.Result
	if m.req != nil {
		res, err = v.VerifyRequest(m.req)
	} else {
		res, err = v.VerifyResponse(m.resp, related)
	}
	if err != nil {
		return hintRequest(err, m, related)
	}
	return writeResult(c.stdout, res, m.header())
}

// verifyOutput is what httpsig verify prints: the accepted signature.
type verifyOutput struct {
	Label      string           `json:"label"`
	KeyID      string           `json:"keyid,omitempty"`
	Alg        signet.Algorithm `json:"alg"`
	Created    int64            `json:"created,omitempty"`
	Expires    int64            `json:"expires,omitempty"`
	Nonce      string           `json:"nonce,omitempty"`
	Tag        string           `json:"tag,omitempty"`
	Components []string         `json:"components"`
}

// writeResult prints res, a signature of a message whose fields are h, as
// one line of JSON.
func writeResult(w io.Writer, res *httpsig.Result, h http.Header) error {
	comps, err := coveredComponents(h, res.Label)
	if err != nil {
		return err
	}
	out := verifyOutput{
		Label: res.Label, KeyID: res.KeyID, Alg: res.Algorithm,
		Nonce: res.Nonce, Tag: res.Tag, Components: comps,
	}
	if !res.Created.IsZero() {
		out.Created = res.Created.Unix()
	}
	if !res.Expires.IsZero() {
		out.Expires = res.Expires.Unix()
	}
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	return enc.Encode(out)
}

// httpsigBase: signet httpsig base [--label L] [--scheme S] [--request F].
// It prints the signature base of a signature in the message on stdin,
// as a verifier rebuilds it, byte for byte: no newline is added.
func (c *cli) httpsigBase(args []string) error {
	cmd := newCommand("httpsig base", "httpsig base [--label L] [--scheme https|http] [--request F] < MESSAGE")
	label := cmd.fs.String("label", "", "`label` of the signature (default: the message's only, or first, signature)")
	mf := addMessageFlags(cmd)
	pos, set, err := c.parse(cmd, args)
	if err != nil {
		return err
	}
	switch {
	case len(pos) != 0:
		return cmd.usageErr("unexpected argument %q (the message is read from stdin)", clip.String(pos[0]))
	case set["label"] && !isSFKey(*label):
		return cmd.usageErr("--label %q is not a Structured Field key", clip.String(*label))
	}
	if err := mf.check(cmd, set); err != nil {
		return err
	}
	m, related, err := c.readMessage(cmd, mf)
	if err != nil {
		return err
	}
	if !set["label"] {
		labels, err := signatureLabels(m.header())
		if err != nil {
			return err
		}
		*label = labels[0]
		if len(labels) > 1 {
			c.warn("the message has %d signatures (%s): showing %s; choose one with --label", len(labels), strings.Join(labels, ", "), labels[0])
		}
	}
	var base string
	if m.req != nil {
		base, err = httpsig.RequestBase(m.req, *label, origin(m.req))
	} else {
		base, err = httpsig.ResponseBase(m.resp, related, *label, messageOrigin(m, related))
	}
	if err != nil {
		return hintRequest(err, m, related)
	}
	_, err = io.WriteString(c.stdout, base)
	return err
}

// hintRequest adds to err, a failure to build a component of response m
// given without --request, that the component needs the request.
func hintRequest(err error, m *httpMessage, related *http.Request) error {
	if m.resp != nil && related == nil && errors.Is(err, httpsig.ErrComponent) && strings.Contains(err.Error(), ";req") {
		return fmt.Errorf("%w (give the request with --request F)", err)
	}
	return err
}

// signatureInputs parses the Signature-Input field of h, which must have
// a member.
func signatureInputs(h http.Header) (sf.Dictionary, error) {
	lines := h.Values("Signature-Input")
	if len(lines) == 0 {
		return nil, fmt.Errorf("%w: the message has no Signature-Input", httpsig.ErrNoSignature)
	}
	d, err := sf.ParseDictionary(strings.Join(lines, ", "))
	if err != nil {
		return nil, fmt.Errorf("%w: Signature-Input: %v", signet.ErrMalformed, err)
	}
	if len(d) == 0 {
		return nil, fmt.Errorf("%w: Signature-Input is empty", httpsig.ErrNoSignature)
	}
	return d, nil
}

// signatureLabels lists the labels of the Signature-Input field of h, in
// order.
func signatureLabels(h http.Header) ([]string, error) {
	d, err := signatureInputs(h)
	if err != nil {
		return nil, err
	}
	return d.Keys(), nil
}

// coveredComponents lists the components the signature labelled label in
// h covers, serialized as in its Signature-Input.
func coveredComponents(h http.Header, label string) ([]string, error) {
	d, err := signatureInputs(h)
	if err != nil {
		return nil, err
	}
	m, _ := d.Get(label)
	list, ok := m.(sf.InnerList)
	if !ok {
		return nil, fmt.Errorf("%w: Signature-Input %s is not an Inner List", signet.ErrMalformed, clip.String(label))
	}
	out := make([]string, len(list.Items))
	for i, it := range list.Items {
		if out[i], err = sf.SerializeItem(it); err != nil {
			return nil, fmt.Errorf("%w: Signature-Input %s: %v", signet.ErrMalformed, clip.String(label), err)
		}
	}
	return out, nil
}

// parseComponentsFlag reads a list of component identifiers given with
// --name; an empty list is nil.
func parseComponentsFlag(cmd *command, name, value string) ([]string, error) {
	cs, err := httpsig.ParseComponents(value)
	if err != nil {
		return nil, cmd.usageErr("--%s: %v", name, strings.TrimPrefix(err.Error(), "httpsig: "))
	}
	var out []string
	for _, comp := range cs {
		out = append(out, comp.String())
	}
	return out, nil
}

func containsString(list []string, s string) bool {
	for _, v := range list {
		if v == s {
			return true
		}
	}
	return false
}

// unixFlag reads the Unix time given with --name.
func unixFlag(cmd *command, name, value string) (int64, error) {
	n, err := strconv.ParseInt(value, 10, 64)
	if err != nil || n < 0 || n > maxSFInteger {
		return 0, cmd.usageErr("--%s must be a Unix time in seconds, not %q", name, clip.String(value))
	}
	return n, nil
}

// checkSFString refuses a --name value that is not a Structured Fields
// String: printable ASCII only.
func checkSFString(cmd *command, name, value string) error {
	for i := 0; i < len(value); i++ {
		if value[i] < 0x20 || value[i] > 0x7e {
			return cmd.usageErr("--%s must be printable ASCII (a Structured Fields String)", name)
		}
	}
	return nil
}

// isSFKey reports whether s is a Structured Fields key (RFC 9651 §3.1.2),
// the syntax of a signature label.
func isSFKey(s string) bool {
	if s == "" || !(s[0] == '*' || (s[0] >= 'a' && s[0] <= 'z')) {
		return false
	}
	for i := 1; i < len(s); i++ {
		switch b := s[i]; {
		case b >= 'a' && b <= 'z', b >= '0' && b <= '9', b == '_', b == '-', b == '.', b == '*':
		default:
			return false
		}
	}
	return true
}

// httpsigAlg is optionalAlg for the httpsig commands: only the RFC 9421
// algorithms.
func (cmd *command) httpsigAlg(name string, given bool) (signet.Algorithm, error) {
	alg, err := cmd.optionalAlg(name, given)
	if err == nil && alg != "" && !alg.IsHTTPSig() {
		return "", cmd.usageErr("--alg %s is not an HTTP Message Signatures algorithm (httpsig takes %s)", alg, httpsigAlgorithmList())
	}
	return alg, err
}

// httpsigAlgorithmList names the RFC 9421 algorithms.
func httpsigAlgorithmList() string { return joinAlgs(signet.HTTPSigAlgorithms()) }

// httpsigFor maps the algorithm signet.ParsePEM infers for an EC or
// Ed25519 key to the one RFC 9421 algorithm for that key.
var httpsigFor = map[signet.Algorithm]signet.Algorithm{
	signet.EdDSA: signet.Ed25519,
	signet.ES256: signet.ECDSAP256SHA256,
	signet.ES384: signet.ECDSAP384SHA384,
}

// loadHTTPSigKey is loadKey for the httpsig commands: the key must be for
// an RFC 9421 algorithm. Without --alg, a PEM or JWK file without "alg"
// holding an Ed25519, P-256 or P-384 key is read for ed25519,
// ecdsa-p256-sha256 or ecdsa-p384-sha384, the only algorithm each fits.
// With enc (--secret-encoding, which needs --alg), the file is a raw
// secret.
func loadHTTPSigKey(path string, alg signet.Algorithm, enc secretEncoding) (*signet.Key, error) {
	data, err := readFile(path, "key file")
	if err != nil {
		return nil, err
	}
	k, err := parseHTTPSigKey(data, alg, enc)
	if err != nil {
		return nil, fmt.Errorf("key file %s: %w", path, err)
	}
	return k, nil
}

func parseHTTPSigKey(data []byte, alg signet.Algorithm, enc secretEncoding) (*signet.Key, error) {
	if enc != secretNone {
		return checkHTTPSigKey(parseKey(data, alg, enc)) // the bytes as they are
	}
	data = bytes.TrimPrefix(data, utf8BOM)
	if alg == "" {
		switch detectFormat(data) {
		case formatPEM:
			k, err := signet.ParsePEM(data, "")
			if err != nil {
				if _, rerr := signet.ParsePEM(data, signet.RSAV15SHA256); rerr == nil {
					return nil, fmt.Errorf("%w: an RSA key fits %s and %s: give --alg", signet.ErrUnsupported, signet.RSAPSSSHA512, signet.RSAV15SHA256)
				}
				return nil, err
			}
			if a, ok := httpsigFor[k.Algorithm()]; ok {
				return signet.ParsePEM(data, a)
			}
			if k.Algorithm() == signet.ES512 {
				return nil, fmt.Errorf("%w: a P-521 key: RFC 9421 signs with P-256 and P-384 only", signet.ErrUnsupported)
			}
			return checkHTTPSigKey(k, nil)
		case formatJWK:
			namesAlg, err := scanJWK(data)
			if err != nil {
				return nil, err
			}
			if !namesAlg {
				a, err := jwkHTTPSigAlg(data)
				if err != nil {
					return nil, err
				}
				return jwk.ParseKeyFor(data, a)
			}
		}
	}
	return checkHTTPSigKey(parseKey(data, alg, secretNone))
}

// checkHTTPSigKey refuses a key made for another algorithm than an RFC
// 9421 one: the key, not the message, decides.
func checkHTTPSigKey(k *signet.Key, err error) (*signet.Key, error) {
	if err != nil {
		return nil, err
	}
	a := k.Algorithm()
	if a.IsHTTPSig() {
		return k, nil
	}
	use := "JWTs"
	if pasetoAlgorithms[a] {
		use = "PASETO tokens"
	}
	return nil, fmt.Errorf("%w: it holds a %s key, which is for %s, not HTTP message signatures (make one with signet keygen ALG, ALG one of %s)", signet.ErrAlgorithmMismatch, a, use, httpsigAlgorithmList())
}

// jwkHTTPSigAlg names the RFC 9421 algorithm of a JWK without "alg",
// where its key type allows only one.
func jwkHTTPSigAlg(data []byte) (signet.Algorithm, error) {
	s := string(data)
	var kty, crv string
	m := jsonx.NewMembers(s)
	for m.Next(s) {
		switch m.Name(s) {
		case "kty":
			kty, _ = m.String(s)
		case "crv":
			crv, _ = m.String(s)
		}
	}
	if err := m.Err(); err != nil {
		return "", fmt.Errorf("%w: JWK: %v", signet.ErrMalformed, err)
	}
	switch {
	case kty == "OKP" && crv == "Ed25519":
		return signet.Ed25519, nil
	case kty == "EC" && crv == "P-256":
		return signet.ECDSAP256SHA256, nil
	case kty == "EC" && crv == "P-384":
		return signet.ECDSAP384SHA384, nil
	}
	return "", fmt.Errorf("%w: JWK has no \"alg\"; give --alg (one of %s)", signet.ErrUnsupported, httpsigAlgorithmList())
}
