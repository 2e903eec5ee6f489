package interop_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/signet-go/signet"
	"github.com/signet-go/signet/server/oauth"
)

// The Node.js peer: its folder (with node_modules, made by
// server/interop/setup.sh) and script, relative to the package directory
// (the test's working directory).
const (
	nodeDir    = "node"
	nodeScript = "oauth-peer.mjs"
)

// nodeClient is one client as the Node.js peer is told about it.
type nodeClient struct {
	Name     string `json:"name"`
	ClientID string `json:"client_id"`
	Method   string `json:"method"`
	Secret   string `json:"client_secret,omitempty"`
	KeyFile  string `json:"key_file,omitempty"`
	Alg      string `json:"alg,omitempty"`
	Kid      string `json:"kid,omitempty"`
	Scope    string `json:"scope,omitempty"`
	Resource string `json:"resource,omitempty"`
	Audience string `json:"audience,omitempty"`
	// LegacyAlg makes the assertion of an Ed25519 key say alg "EdDSA"
	// (RFC 8037) in place of the "Ed25519" (RFC 9864) oauth4webapi
	// writes.
	LegacyAlg bool `json:"legacy_alg,omitempty"`

	ttl time.Duration // the client's access_token_ttl
	// assertionAlg, when set, is the header alg every assertion of the
	// client must have been sent with.
	assertionAlg string
	// For a probe: the error the service must answer, with its status;
	// "" when the request must succeed.
	wantError  string
	wantStatus int
}

type nodeConfig struct {
	Issuer  string       `json:"issuer"`
	Alg     string       `json:"alg"`
	Format  string       `json:"format"`
	Clients []nodeClient `json:"clients"`
	Probes  []nodeClient `json:"probes"`
}

// nodeError is an error as openid-client threw it: the OAuth error from
// the body (also when oauth4webapi reports the 401's WWW-Authenticate
// challenge first), the HTTP status, the library's code and message.
type nodeError struct {
	Name        string `json:"name"`
	Code        string `json:"code"`
	Message     string `json:"message"`
	Status      int    `json:"status"`
	Error       string `json:"error"`
	Description string `json:"error_description"`
	Challenges  []struct {
		Scheme     string            `json:"scheme"`
		Parameters map[string]string `json:"parameters"`
	} `json:"challenges"`
}

func (e *nodeError) String() string {
	if e == nil {
		return "<nil>"
	}
	return fmt.Sprintf("%s (%s) status %d: %s: %s [%s]", e.Name, e.Code, e.Status, e.Error, e.Description, e.Message)
}

// nodeAttempt is one openid-client call: its value or its error.
type nodeAttempt struct {
	Value json.RawMessage `json:"value"`
	Err   *nodeError      `json:"error"`
}

type nodeCase struct {
	Name       string     `json:"name"`
	ClientID   string     `json:"client_id"`
	FetchError *nodeError `json:"fetch_error"`
	// AssertionAlgs: the header alg of each private_key_jwt assertion
	// openid-client sent.
	AssertionAlgs []string `json:"assertion_algs"`
	TokenResponse struct {
		TokenType       string   `json:"token_type"`
		ExpiresIn       *float64 `json:"expires_in"`
		Scope           *string  `json:"scope"`
		HasRefreshToken bool     `json:"has_refresh_token"`
	} `json:"token_response"`
	AccessToken           string         `json:"access_token"`
	Header                map[string]any `json:"header"`
	Claims                map[string]any `json:"claims"`
	VerifyError           *string        `json:"verify_error"`
	OtherAudienceRefused  bool           `json:"other_audience_refused"`
	Introspect            nodeAttempt    `json:"introspect"`
	Revoke                nodeAttempt    `json:"revoke"`
	IntrospectAfterRevoke nodeAttempt    `json:"introspect_after_revoke"`
}

type nodeOutcome struct {
	Name  string     `json:"name"`
	OK    bool       `json:"ok"`
	Error *nodeError `json:"error"`
	// AssertionAlgs: as in nodeCase.
	AssertionAlgs []string `json:"assertion_algs"`
}

type nodeResult struct {
	Versions map[string]string `json:"versions"`
	Metadata map[string]any    `json:"metadata"`
	JWKSKeys []struct {
		Kid string `json:"kid"`
		Alg string `json:"alg"`
		Kty string `json:"kty"`
	} `json:"jwks_keys"`
	Cases  []nodeCase    `json:"cases"`
	Probes []nodeOutcome `json:"probes"`
	Replay struct {
		First  nodeOutcome `json:"first"`
		Second nodeOutcome `json:"second"`
	} `json:"replay"`
}

// nodeBinary finds node (>= 20, as openid-client 6 and jose 6 need) and
// checks that the pinned peers import from nodeDir.
func nodeBinary(t *testing.T) string {
	t.Helper()
	node, err := exec.LookPath("node")
	if err != nil {
		unavailable(t, "Node.js", "node", "node is not installed (need Node.js >= 20)")
	}
	out, err := exec.Command(node, "-p", "process.versions.node").Output()
	if err != nil {
		unavailable(t, "Node.js", "node", "%s does not run: %v", node, err)
	}
	v := strings.TrimSpace(string(out))
	if major, err := strconv.Atoi(strings.SplitN(v, ".", 2)[0]); err != nil || major < 20 {
		unavailable(t, "Node.js", "node", "node %s is too old: openid-client 6 and jose 6 need Node.js >= 20", v)
	}
	for _, pkg := range []string{"openid-client", "jose"} {
		if _, err := os.Stat(filepath.Join(nodeDir, "node_modules", pkg, "package.json")); err != nil {
			unavailable(t, "Node.js", "node", "npm %s is not installed in %s/node_modules (%v)", pkg, nodeDir, err)
		}
	}
	probe := exec.Command(node, "--input-type=module", "-e", `await import("openid-client"); await import("jose")`)
	probe.Dir = nodeDir
	if out, err := probe.CombinedOutput(); err != nil {
		unavailable(t, "Node.js", "node", "openid-client and jose do not import in %s: %v\n%s", nodeDir, err, out)
	}
	return node
}

// runNode runs the peer against cfg.Issuer and returns what it reports.
func runNode(t *testing.T, node string, cfg nodeConfig) nodeResult {
	t.Helper()
	file := filepath.Join(t.TempDir(), "config.json")
	b, err := json.Marshal(cfg)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(file, b, 0o600); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, node, nodeScript, file)
	cmd.Dir = nodeDir
	// The peers talk to 127.0.0.1 only: never through a proxy.
	cmd.Env = append(os.Environ(), "NO_PROXY=127.0.0.1,localhost", "no_proxy=127.0.0.1,localhost")
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("node %s: %v\nstderr:\n%s", nodeScript, err, stderr.String())
	}
	var r nodeResult
	if err := json.Unmarshal(stdout.Bytes(), &r); err != nil {
		t.Fatalf("the peer's output is not JSON: %v\n%s\nstderr:\n%s", err, stdout.String(), stderr.String())
	}
	return r
}

// TestNodeOpenIDClientJose: openid-client (v6) discovers the service by
// RFC 8414, fetches tokens with client_secret_basic, client_secret_post
// and private_key_jwt (ES256 and EdDSA client keys), introspects and
// revokes them; jose's createRemoteJWKSet and jwtVerify verify each from
// the published JWKS (typ at+jwt, iss, aud); and signet verifies what
// Node got. The service signs with ES256, EdDSA, RS256 and PS256, then
// issues PASETO v4.public tokens (openid-client only: jose has no PASETO).
func TestNodeOpenIDClientJose(t *testing.T) {
	node := nodeBinary(t)
	runs := []struct {
		alg    signet.Algorithm
		format oauth.Format
	}{
		{signet.ES256, oauth.FormatJWT},
		{signet.EdDSA, oauth.FormatJWT},
		{signet.RS256, oauth.FormatJWT},
		{signet.PS256, oauth.FormatJWT},
		{signet.V4Public, oauth.FormatPASETO},
	}
	for _, run := range runs {
		t.Run(string(run.format)+"/"+string(run.alg), func(t *testing.T) {
			s := startServiceFormat(t, run.alg, run.format)
			es, ed := s.jwtKeys[0], s.jwtKeys[1]
			cfg := nodeConfig{
				Issuer: s.issuer,
				Alg:    string(run.alg),
				Format: string(run.format),
				Clients: []nodeClient{
					{Name: "client_secret_basic", ClientID: idBasic, Method: string(oauth.ClientSecretBasic), Secret: secretBasic,
						Scope: "read write", Resource: apiB, Audience: apiB, ttl: ttlBasic},
					{Name: "client_secret_post", ClientID: idPost, Method: string(oauth.ClientSecretPost), Secret: secretPost,
						Scope: "read", Audience: apiA, ttl: oauth.DefaultAccessTokenTTL},
					// No kid: the service picks the client's one ES256 key.
					{Name: "private_key_jwt ES256", ClientID: idJWT, Method: string(oauth.PrivateKeyJWT),
						KeyFile: es.pemFile, Alg: "ES256",
						Scope: "read write", Resource: apiA, Audience: apiA, ttl: oauth.DefaultAccessTokenTTL},
					// oauth4webapi writes alg Ed25519 (RFC 9864), which
					// the client's EdDSA key takes as its own name (see
					// the probe below for RFC 8037's "EdDSA").
					{Name: "private_key_jwt EdDSA", ClientID: idJWT, Method: string(oauth.PrivateKeyJWT),
						KeyFile: ed.pemFile, Alg: "EdDSA", Kid: ed.key.KeyID(),
						Scope: "read", Audience: apiA, ttl: oauth.DefaultAccessTokenTTL, assertionAlg: "Ed25519"},
				},
				Probes: []nodeClient{
					// oauth4webapi form-urlencodes the credentials (RFC
					// 6749 §2.3.1), so + / = must arrive intact.
					{Name: "client_secret_basic with + / = in the secret", ClientID: idB64,
						Method: string(oauth.ClientSecretBasic), Secret: secretB64},
					{Name: "client_secret_basic with a wrong secret", ClientID: idBasic,
						Method: string(oauth.ClientSecretBasic), Secret: secretPost,
						wantError: oauth.ErrInvalidClient, wantStatus: 401},
					{Name: "client_secret_post with a wrong secret", ClientID: idPost,
						Method: string(oauth.ClientSecretPost), Secret: secretBasic,
						wantError: oauth.ErrInvalidClient, wantStatus: 401},
					{Name: "private_key_jwt with a key not registered", ClientID: idJWT,
						Method: string(oauth.PrivateKeyJWT), KeyFile: newClientKey(t, signet.ES256, "EC", t.TempDir()).pemFile, Alg: "ES256",
						wantError: oauth.ErrInvalidClient, wantStatus: 401},
					{Name: "a scope not granted", ClientID: idPost, Method: string(oauth.ClientSecretPost), Secret: secretPost,
						Scope: "admin", wantError: oauth.ErrInvalidScope, wantStatus: 400},
					{Name: "a resource not the client's audience", ClientID: idPost, Method: string(oauth.ClientSecretPost), Secret: secretPost,
						Resource: apiB, wantError: oauth.ErrInvalidTarget, wantStatus: 400},
					{Name: "private_key_jwt EdDSA with the alg header EdDSA (RFC 8037)", ClientID: idJWT,
						Method: string(oauth.PrivateKeyJWT), KeyFile: ed.pemFile, Alg: "EdDSA", Kid: ed.key.KeyID(), LegacyAlg: true,
						assertionAlg: "EdDSA"},
				},
			}
			r := runNode(t, node, cfg)
			t.Logf("peers: %v", r.Versions)
			checkNodeRun(t, s, cfg, r)
		})
	}
}

// checkNodeRun asserts one run of the Node.js peer.
func checkNodeRun(t *testing.T, s *service, cfg nodeConfig, r nodeResult) {
	t.Helper()
	jwtFormat := cfg.Format == string(oauth.FormatJWT)
	if r.Metadata["issuer"] != s.issuer || r.Metadata["token_endpoint"] != s.tokenURL() {
		t.Errorf("discovery as openid-client read it: %v", r.Metadata)
	}
	published := map[string]bool{}
	if jwtFormat {
		if r.Metadata["jwks_uri"] != s.issuer+oauth.PathJWKS {
			t.Errorf("discovery names jwks_uri %v, want %s", r.Metadata["jwks_uri"], s.issuer+oauth.PathJWKS)
		}
		for _, k := range r.JWKSKeys {
			if k.Alg != cfg.Alg {
				t.Errorf("jose read key %s with alg %s, want %s", k.Kid, k.Alg, cfg.Alg)
			}
			published[k.Kid] = true
		}
		if len(published) == 0 {
			t.Errorf("jose read no key from the JWKS")
		}
	} else if _, ok := r.Metadata["jwks_uri"]; ok {
		t.Errorf("a PASETO service advertises a JWKS: %v", r.Metadata["jwks_uri"])
	}
	if len(r.Cases) != len(cfg.Clients) {
		t.Fatalf("the peer reports %d cases, want %d", len(r.Cases), len(cfg.Clients))
	}
	for i, c := range r.Cases {
		want := cfg.Clients[i]
		t.Run(want.Name, func(t *testing.T) {
			checkNodeCase(t, s, cfg, want, c, published)
		})
	}
	if len(r.Probes) != len(cfg.Probes) {
		t.Fatalf("the peer reports %d probes, want %d", len(r.Probes), len(cfg.Probes))
	}
	for i, p := range r.Probes {
		want := cfg.Probes[i]
		checkAssertionAlgs(t, want, p.AssertionAlgs)
		switch want.wantError {
		case "":
			if !p.OK {
				t.Errorf("%s: refused: %v", p.Name, p.Error)
			}
		default:
			if p.OK || p.Error == nil || p.Error.Error != want.wantError || p.Error.Status != want.wantStatus {
				t.Errorf("%s: ok=%v error=%v, want %d %s", p.Name, p.OK, p.Error, want.wantStatus, want.wantError)
				continue
			}
			// A 401 carries a WWW-Authenticate challenge, as RFC 6749
			// §5.2 requires after an Authorization header (and allows
			// otherwise); oauth4webapi then throws its
			// WWWAuthenticateChallengeError, not a ResponseBodyError,
			// and the peer reads invalid_client from the body.
			if want.wantStatus == 401 {
				if len(p.Error.Challenges) == 0 || !strings.EqualFold(p.Error.Challenges[0].Scheme, "Basic") {
					t.Errorf("%s: 401 without a Basic challenge: %v", p.Name, p.Error)
				}
				t.Logf("probe %q: %s, challenge %+v", p.Name, p.Error.Name, p.Error.Challenges)
			}
		}
	}
	// Two assertions with one jti (openid-client's modifyAssertion): the
	// second is refused.
	rp := r.Replay
	if !rp.First.OK || rp.Second.OK || rp.Second.Error == nil || rp.Second.Error.Error != oauth.ErrInvalidClient {
		t.Errorf("assertion replay through openid-client: first ok=%v %v, second ok=%v %v; want the first accepted and the second refused with invalid_client",
			rp.First.OK, rp.First.Error, rp.Second.OK, rp.Second.Error)
	}
}

// checkNodeCase asserts one client's run through openid-client and jose,
// and verifies its token again with signet.
func checkNodeCase(t *testing.T, s *service, cfg nodeConfig, want nodeClient, c nodeCase, published map[string]bool) {
	t.Helper()
	checkAssertionAlgs(t, want, c.AssertionAlgs)
	if c.FetchError != nil {
		t.Fatalf("openid-client clientCredentialsGrant as %s: %v", want.ClientID, c.FetchError)
	}
	tr := c.TokenResponse
	if tr.TokenType != "bearer" || tr.Scope == nil || *tr.Scope != want.Scope || tr.HasRefreshToken ||
		tr.ExpiresIn == nil || time.Duration(*tr.ExpiresIn)*time.Second != want.ttl {
		t.Errorf("token response as openid-client read it: %+v, want bearer, scope %q, expires_in %v, no refresh token", tr, want.Scope, want.ttl)
	}
	var jti any
	if cfg.Format == string(oauth.FormatJWT) {
		if c.VerifyError != nil {
			t.Fatalf("jose refused the token: %s", *c.VerifyError)
		}
		if c.Header["typ"] != "at+jwt" || c.Header["alg"] != cfg.Alg || !published[fmt.Sprint(c.Header["kid"])] {
			t.Errorf("header as jose read it: %v, want typ at+jwt, alg %s, a published kid", c.Header, cfg.Alg)
		}
		if c.Claims["iss"] != s.issuer || c.Claims["sub"] != want.ClientID || c.Claims["client_id"] != want.ClientID ||
			c.Claims["aud"] != want.Audience || c.Claims["scope"] != want.Scope || c.Claims["jti"] == nil {
			t.Errorf("claims as jose verified them: %v", c.Claims)
		}
		if !c.OtherAudienceRefused {
			t.Errorf("jose accepted the token for another audience")
		}
		// The reverse direction: signet verifies what Node got, from
		// the same JWKS, and reads the same claims.
		got := s.verify(t, c.AccessToken, want.ClientID, want.Audience, want.Scope, want.ttl)
		if got.ID != c.Claims["jti"] {
			t.Errorf("signet reads jti %q, jose %v", got.ID, c.Claims["jti"])
		}
		jti = got.ID
	} else if !strings.HasPrefix(c.AccessToken, "v4.public.") {
		t.Errorf("a PASETO service issued %.20q…", c.AccessToken)
	}

	// Introspection and revocation through openid-client, with the
	// client's own authentication method.
	var in map[string]any
	if c.Introspect.Err != nil || json.Unmarshal(c.Introspect.Value, &in) != nil {
		t.Fatalf("openid-client tokenIntrospection: %v %s", c.Introspect.Err, c.Introspect.Value)
	}
	if in["active"] != true || in["client_id"] != want.ClientID || in["sub"] != want.ClientID ||
		in["aud"] != want.Audience || in["scope"] != want.Scope || in["iss"] != s.issuer || in["jti"] == nil ||
		(jti != nil && in["jti"] != jti) {
		t.Errorf("openid-client tokenIntrospection: %v", in)
	}
	if c.Revoke.Err != nil || string(c.Revoke.Value) != "true" {
		t.Errorf("openid-client tokenRevocation: %v %s", c.Revoke.Err, c.Revoke.Value)
	}
	var after map[string]any
	if c.IntrospectAfterRevoke.Err != nil || json.Unmarshal(c.IntrospectAfterRevoke.Value, &after) != nil ||
		after["active"] != false || len(after) != 1 {
		t.Errorf("openid-client tokenIntrospection after tokenRevocation: %v %s, want {active: false}",
			c.IntrospectAfterRevoke.Err, c.IntrospectAfterRevoke.Value)
	}
	if m := s.introspect(t, c.AccessToken); m["active"] != false {
		t.Errorf("the service still reports the token openid-client revoked active: %v", m)
	}
}

// checkAssertionAlgs: the assertions of a client that names the alg they
// must carry were sent with it (so that what the service accepted is
// openid-client's own "Ed25519", or the probe's "EdDSA").
func checkAssertionAlgs(t *testing.T, want nodeClient, sent []string) {
	t.Helper()
	if want.assertionAlg == "" {
		return
	}
	if len(sent) == 0 {
		t.Errorf("%s: no assertion sent, want alg %s", want.Name, want.assertionAlg)
	}
	for _, a := range sent {
		if a != want.assertionAlg {
			t.Errorf("%s: assertion sent with alg %s, want %s", want.Name, a, want.assertionAlg)
		}
	}
}
