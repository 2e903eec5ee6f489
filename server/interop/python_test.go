package interop_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/signet-go/signet"
	"github.com/signet-go/signet/server/oauth"
)

// pythonPeer is the virtualenv's interpreter and the peer script,
// relative to the package directory (the test's working directory).
const (
	pythonPeer   = "python/.venv/bin/python"
	pythonScript = "python/oauth_peer.py"
)

// unavailable reports a missing peer (peer "Python" or "Node.js", set up
// by `bash server/interop/setup.sh [arg]`): a skip, or a failure when
// SIGNET_INTEROP=1 says the interop tests must run.
func unavailable(t *testing.T, peer, arg, format string, args ...any) {
	t.Helper()
	setup := "bash server/interop/setup.sh"
	if arg != "" {
		setup += " " + arg
	}
	msg := fmt.Sprintf(format, args...) + "; run `" + setup + "` from the repository root"
	if os.Getenv(envRequire) == "1" {
		t.Fatalf("%s (%s=1: the %s interop test must run)", msg, envRequire, peer)
	}
	t.Skipf("%s (set %s=1 to make this a failure)", msg, envRequire)
}

// peerClient is one client as the Python peer is told about it.
type peerClient struct {
	Name     string `json:"name"`
	ClientID string `json:"client_id"`
	Method   string `json:"method"`
	Secret   string `json:"client_secret,omitempty"`
	KeyFile  string `json:"key_file,omitempty"`
	KeyType  string `json:"key_type,omitempty"`
	Alg      string `json:"alg,omitempty"`
	Kid      string `json:"kid,omitempty"`
	Scope    string `json:"scope,omitempty"`
	Resource string `json:"resource,omitempty"`
	Audience string `json:"audience"`

	ttl time.Duration // the client's access_token_ttl
}

type peerConfig struct {
	Issuer  string       `json:"issuer"`
	Alg     string       `json:"alg"`
	Clients []peerClient `json:"clients"`
	Probes  []peerClient `json:"probes"`
}

// peerError is an OAuth error as Authlib raised it.
type peerError struct {
	Error       string `json:"error"`
	Description string `json:"error_description"`
}

type peerHTTP struct {
	Status int            `json:"status"`
	Body   map[string]any `json:"body"`
}

type peerCase struct {
	Name          string     `json:"name"`
	ClientID      string     `json:"client_id"`
	FetchError    *peerError `json:"fetch_error"`
	TokenResponse struct {
		TokenType       string  `json:"token_type"`
		ExpiresIn       float64 `json:"expires_in"`
		Scope           string  `json:"scope"`
		HasRefreshToken bool    `json:"has_refresh_token"`
	} `json:"token_response"`
	AccessToken           string         `json:"access_token"`
	Header                map[string]any `json:"header"`
	Claims                map[string]any `json:"claims"`
	VerifyError           *string        `json:"verify_error"`
	OtherAudienceRefused  bool           `json:"other_audience_refused"`
	Introspect            peerHTTP       `json:"introspect"`
	Revoke                peerHTTP       `json:"revoke"`
	IntrospectAfterRevoke peerHTTP       `json:"introspect_after_revoke"`
}

type peerOutcome struct {
	Name  string     `json:"name"`
	OK    bool       `json:"ok"`
	Error *peerError `json:"error"`
}

type peerResult struct {
	Versions map[string]string `json:"versions"`
	Metadata map[string]any    `json:"metadata"`
	JWKSKeys []struct {
		Kid string `json:"kid"`
		Alg string `json:"alg"`
	} `json:"jwks_keys"`
	Cases  []peerCase    `json:"cases"`
	Probes []peerOutcome `json:"probes"`
	Replay struct {
		FirstOK     bool       `json:"first_ok"`
		FirstError  *peerError `json:"first_error"`
		SecondOK    bool       `json:"second_ok"`
		SecondError *peerError `json:"second_error"`
	} `json:"replay"`
}

// runPython runs the peer against cfg.Issuer and returns what it reports.
func runPython(t *testing.T, cfg peerConfig) peerResult {
	t.Helper()
	py, err := filepath.Abs(pythonPeer)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(py); err != nil {
		unavailable(t, "Python", "", "the Python peers' virtualenv is missing (%v)", err)
	}
	if err := exec.Command(py, "-c", "import authlib, jwt, requests").Run(); err != nil {
		unavailable(t, "Python", "", "the Python peers do not import from %s (%v)", py, err)
	}
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
	cmd := exec.CommandContext(ctx, py, pythonScript, file)
	// The peers talk to 127.0.0.1 only: never through a proxy.
	cmd.Env = append(os.Environ(), "NO_PROXY=127.0.0.1,localhost", "no_proxy=127.0.0.1,localhost", "PYTHONDONTWRITEBYTECODE=1")
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("%s %s: %v\nstderr:\n%s", py, pythonScript, err, stderr.String())
	}
	var r peerResult
	if err := json.Unmarshal(stdout.Bytes(), &r); err != nil {
		t.Fatalf("the peer's output is not JSON: %v\n%s\nstderr:\n%s", err, stdout.String(), stderr.String())
	}
	return r
}

// TestPythonAuthlibPyJWT: Authlib fetches tokens from the service with
// client_secret_basic, client_secret_post and private_key_jwt (ES256 and
// EdDSA client keys), introspects and revokes them; PyJWT's PyJWKClient
// verifies each from the JWKS found by discovery; and signet verifies
// what Python got. The service signs with ES256, then EdDSA.
func TestPythonAuthlibPyJWT(t *testing.T) {
	for _, alg := range []signet.Algorithm{signet.ES256, signet.EdDSA} {
		t.Run(string(alg), func(t *testing.T) {
			s := startService(t, alg)
			es, ed := s.jwtKeys[0], s.jwtKeys[1]
			cfg := peerConfig{
				Issuer: s.issuer,
				Alg:    string(alg),
				Clients: []peerClient{
					{Name: "client_secret_basic", ClientID: idBasic, Method: string(oauth.ClientSecretBasic), Secret: secretBasic,
						Scope: "read write", Resource: apiB, Audience: apiB, ttl: ttlBasic},
					{Name: "client_secret_post", ClientID: idPost, Method: string(oauth.ClientSecretPost), Secret: secretPost,
						Scope: "read", Audience: apiA, ttl: oauth.DefaultAccessTokenTTL},
					// Authlib's assertion header as it comes: alg only, no
					// kid (the service picks the client's one ES256 key).
					{Name: "private_key_jwt ES256", ClientID: idJWT, Method: string(oauth.PrivateKeyJWT),
						KeyFile: es.pemFile, KeyType: es.kty, Alg: "ES256",
						Scope: "read write", Resource: apiA, Audience: apiA, ttl: oauth.DefaultAccessTokenTTL},
					{Name: "private_key_jwt EdDSA", ClientID: idJWT, Method: string(oauth.PrivateKeyJWT),
						KeyFile: ed.pemFile, KeyType: ed.kty, Alg: "EdDSA", Kid: ed.key.KeyID(),
						Scope: "read", Audience: apiA, ttl: oauth.DefaultAccessTokenTTL},
				},
				Probes: []peerClient{
					{Name: "client_secret_basic with + / = in the secret", ClientID: idB64,
						Method: string(oauth.ClientSecretBasic), Secret: secretB64, Audience: apiA},
				},
			}
			r := runPython(t, cfg)
			t.Logf("peers: %v", r.Versions)

			if r.Metadata["issuer"] != s.issuer || r.Metadata["jwks_uri"] != s.issuer+oauth.PathJWKS {
				t.Errorf("discovery as Python read it: %v", r.Metadata)
			}
			published := map[string]bool{}
			for _, k := range r.JWKSKeys {
				if k.Alg != string(alg) {
					t.Errorf("PyJWKClient read key %s with alg %s, want %s", k.Kid, k.Alg, alg)
				}
				published[k.Kid] = true
			}
			if len(r.Cases) != len(cfg.Clients) {
				t.Fatalf("the peer reports %d cases, want %d", len(r.Cases), len(cfg.Clients))
			}
			for i, c := range r.Cases {
				want := cfg.Clients[i]
				t.Run(want.Name, func(t *testing.T) {
					checkPythonCase(t, s, want, c, published)
				})
			}

			// One PrivateKeyJWT object used twice sends the same jti
			// (Authlib keeps it in the claims dict): refused the second time.
			if !r.Replay.FirstOK || r.Replay.SecondOK || r.Replay.SecondError == nil || r.Replay.SecondError.Error != oauth.ErrInvalidClient {
				t.Errorf("assertion replay through Authlib: %+v, want the first accepted and the second refused with invalid_client", r.Replay)
			}
			// Reported, not required (a clean refusal is enough): how the
			// service answers Authlib as it comes. With Authlib 1.9.6 it
			// is refused with invalid_client: its client_secret_basic
			// does not form-urlencode the secret (RFC 6749 §2.3.1), so
			// the service reads its + as a space. (Its PrivateKeyJWT as
			// it comes, an assertion valid for an hour, is what every
			// private_key_jwt case above sends, and must be accepted.)
			for _, p := range r.Probes {
				if !p.OK && (p.Error == nil || p.Error.Error != oauth.ErrInvalidClient && p.Error.Error != oauth.ErrInvalidRequest) {
					t.Errorf("%s: refused without a clean invalid_client or invalid_request: %+v", p.Name, p.Error)
				}
				t.Logf("probe %q: ok=%v error=%+v", p.Name, p.OK, p.Error)
			}
		})
	}
}

// checkPythonCase asserts one client's run through Authlib and PyJWT, and
// verifies its token again with signet.
func checkPythonCase(t *testing.T, s *service, want peerClient, c peerCase, published map[string]bool) {
	t.Helper()
	if c.FetchError != nil {
		t.Fatalf("Authlib fetch_token as %s: %s: %s", want.ClientID, c.FetchError.Error, c.FetchError.Description)
	}
	tr := c.TokenResponse
	if !strings.EqualFold(tr.TokenType, "Bearer") || tr.Scope != want.Scope || tr.HasRefreshToken ||
		time.Duration(tr.ExpiresIn)*time.Second != want.ttl {
		t.Errorf("token response as Authlib read it: %+v, want Bearer, scope %q, expires_in %v, no refresh token", tr, want.Scope, want.ttl)
	}
	if c.VerifyError != nil {
		t.Fatalf("PyJWT refused the token: %s", *c.VerifyError)
	}
	if c.Header["typ"] != "at+jwt" || c.Header["alg"] != string(s.alg) || !published[fmt.Sprint(c.Header["kid"])] {
		t.Errorf("header as PyJWT read it: %v, want typ at+jwt, alg %s, a published kid", c.Header, s.alg)
	}
	if c.Claims["iss"] != s.issuer || c.Claims["sub"] != want.ClientID || c.Claims["client_id"] != want.ClientID ||
		c.Claims["aud"] != want.Audience || c.Claims["scope"] != want.Scope || c.Claims["jti"] == nil {
		t.Errorf("claims as PyJWT verified them: %v", c.Claims)
	}
	if !c.OtherAudienceRefused {
		t.Errorf("PyJWT accepted the token for another audience")
	}
	// The reverse direction: signet verifies what Python got, from the
	// same JWKS, and reads the same claims.
	got := s.verify(t, c.AccessToken, want.ClientID, want.Audience, want.Scope, want.ttl)
	if got.ID != c.Claims["jti"] {
		t.Errorf("signet reads jti %q, PyJWT %v", got.ID, c.Claims["jti"])
	}
	// Introspection and revocation through Authlib, with the client's
	// own authentication method.
	if c.Introspect.Status != 200 || c.Introspect.Body["active"] != true || c.Introspect.Body["client_id"] != want.ClientID ||
		c.Introspect.Body["jti"] != c.Claims["jti"] {
		t.Errorf("Authlib introspect_token: %+v", c.Introspect)
	}
	if c.Revoke.Status != 200 {
		t.Errorf("Authlib revoke_token: %+v", c.Revoke)
	}
	if c.IntrospectAfterRevoke.Status != 200 || c.IntrospectAfterRevoke.Body["active"] != false || len(c.IntrospectAfterRevoke.Body) != 1 {
		t.Errorf("Authlib introspect_token after revoke_token: %+v, want {active: false}", c.IntrospectAfterRevoke)
	}
	if m := s.introspect(t, c.AccessToken); m["active"] != false {
		t.Errorf("the service still reports the token Authlib revoked active: %v", m)
	}
}
