package httpsig

import (
	"bufio"
	"bytes"
	"encoding/base64"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/signet-go/signet"
)

// The RFC 9421 vectors (testdata/rfc9421, see its README for the source).
const vectorDir = "../testdata/rfc9421"

type vector struct {
	ID             string   `json:"id"`
	MessageFile    string   `json:"message_file"`
	RelatedRequest string   `json:"related_request_file"`
	Label          string   `json:"label"`
	Alg            string   `json:"alg"`
	KeyID          string   `json:"keyid"`
	KeyFiles       []string `json:"key_files"`
	Base           string   `json:"signature_base"`
	SignatureB64   string   `json:"signature_b64"`
	Deterministic  bool     `json:"deterministic"`
	Valid          bool     `json:"expected_valid"`
}

func loadVectors(t testing.TB) []vector {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(vectorDir, "vectors.json"))
	if err != nil {
		t.Fatal(err)
	}
	var file struct {
		Vectors []vector `json:"vectors"`
	}
	if err := json.Unmarshal(data, &file); err != nil {
		t.Fatal(err)
	}
	if len(file.Vectors) != 20 {
		t.Fatalf("%d vectors, want 20", len(file.Vectors))
	}
	return file.Vectors
}

// readMessage reads a message file: a request or, starting "HTTP/", a
// response.
func readMessage(t testing.TB, name string, req *http.Request) (*http.Request, *http.Response) {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(vectorDir, name))
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(data, []byte("\n\n")) {
		data = append(data, "\n\n"...) // the B.4 GETs have no body separator
	}
	rd := bufio.NewReader(bytes.NewReader(data))
	if bytes.HasPrefix(data, []byte("HTTP/")) {
		resp, err := http.ReadResponse(rd, req)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		return nil, resp
	}
	r, err := http.ReadRequest(rd)
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	return r, nil
}

// vectorKey reads the key of a vector: public (priv false) or private.
func vectorKey(t testing.TB, v vector, priv bool) *signet.Key {
	t.Helper()
	alg := signet.Algorithm(v.Alg)
	if alg == signet.HMACSHA256 {
		data, err := os.ReadFile(filepath.Join(vectorDir, "keys/test-shared-secret"))
		if err != nil {
			t.Fatal(err)
		}
		secret, err := base64.StdEncoding.DecodeString(strings.TrimSpace(string(data)))
		if err != nil {
			t.Fatal(err)
		}
		k, err := signet.NewKey(alg, secret)
		if err != nil {
			t.Fatal(err)
		}
		return k.WithKeyID("test-shared-secret")
	}
	for _, f := range v.KeyFiles {
		if strings.HasSuffix(f, ".key.pem") != priv {
			continue
		}
		data, err := os.ReadFile(filepath.Join(vectorDir, f))
		if err != nil {
			t.Fatal(err)
		}
		k, err := signet.ParsePEM(data, alg)
		if err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		return k.WithKeyID(strings.TrimSuffix(strings.TrimSuffix(filepath.Base(f), ".key.pem"), ".pub.pem"))
	}
	t.Fatalf("%s: no key file", v.ID)
	return nil
}

// TestVectors: every RFC 9421 signature; the base is rebuilt byte for
// byte, the 17 valid ones verify and the 3 altered ones fail, and the
// deterministic ones (HMAC, Ed25519, RSA v1.5) re-sign to the RFC's bytes.
func TestVectors(t *testing.T) {
	valid, invalid := 0, 0
	for _, v := range loadVectors(t) {
		t.Run(v.ID, func(t *testing.T) {
			var related *http.Request
			if v.RelatedRequest != "" {
				related, _ = readMessage(t, v.RelatedRequest, nil)
			}
			req, resp := readMessage(t, v.MessageFile, related)
			var m message
			var h http.Header
			if resp != nil {
				var rm *message
				if related != nil {
					x := requestMessage(related, &Origin{Scheme: "https"})
					rm = &x
				}
				m, h = responseMessage(resp.StatusCode, resp.Header, resp.Trailer, rm), resp.Header
			} else {
				m, h = requestMessage(req, &Origin{Scheme: "https"}), req.Header
			}
			inputs, err := parseDictLines("Signature-Input", h.Values("Signature-Input"), DefaultMaxHeader)
			if err != nil {
				t.Fatal(err)
			}
			mem, ok := inputs.Get(v.Label)
			if !ok {
				t.Fatalf("no label %s", v.Label)
			}
			in, err := parseSigInput(mem, false)
			if err != nil {
				t.Fatal(err)
			}
			base, err := baseBuilder{}.appendBase(nil, &m, in.comps, in.text)
			if err != nil {
				t.Fatal(err)
			}
			if string(base) != v.Base {
				t.Fatalf("base differs:\n got: %q\nwant: %q", base, v.Base)
			}

			pub := vectorKey(t, v, false)
			now := time.Unix(in.created, 0)
			p := Policy{Label: v.Label, Now: func() time.Time { return now }, UnsignedBody: true, Origin: &Origin{Scheme: "https"}}
			set, err := signet.NewKeySet(pub)
			if err != nil {
				t.Fatal(err)
			}
			// Several of the RFC's examples cover less than the default
			// policy requires (B.2.1 covers nothing): the default refuses
			// them, an empty list even when the defaults are dropped.
			if weak := !coversDefaults(in.comps, resp != nil); weak {
				if _, err := verifyAt(mustVerifierSet(t, set, p), &m, h); !errors.Is(err, ErrNotCovered) {
					t.Fatalf("the default policy accepts a signature covering %v: %v", in.comps, err)
				}
				p.InsecureSkipDefaultCoverage = true
				if len(in.comps) == 0 {
					if _, err := verifyAt(mustVerifierSet(t, set, p), &m, h); !errors.Is(err, ErrNotCovered) {
						t.Fatalf("a signature covering nothing: %v", err)
					}
					valid++
					return
				}
			}
			ver, err := NewVerifier(set, p)
			if err != nil {
				t.Fatal(err)
			}
			// The strict parser's verdict must be the fast path's.
			strict, err := NewVerifier(set, p)
			if err != nil {
				t.Fatal(err)
			}
			strict.strict = true
			_, errStrict := strict.verify(&m, h, strict.now())
			var res *Result
			if resp != nil {
				res, err = ver.VerifyResponse(resp, related)
			} else {
				res, err = ver.VerifyRequest(req)
			}
			if (err == nil) != (errStrict == nil) {
				t.Fatalf("fast path: %v; strict parser: %v", err, errStrict)
			}
			if v.Valid {
				valid++
				if err != nil {
					t.Fatalf("valid vector refused: %v", err)
				}
				if res.Label != v.Label || res.KeyID != v.KeyID || res.Algorithm != signet.Algorithm(v.Alg) {
					t.Fatalf("result %+v", res)
				}
			} else {
				invalid++
				if !errors.Is(err, signet.ErrSignatureInvalid) {
					t.Fatalf("altered message: got %v, want ErrSignatureInvalid", err)
				}
			}
			if v.Deterministic && v.Valid {
				priv := vectorKey(t, v, true)
				sig, err := priv.Sign(nil, base)
				if err != nil {
					t.Fatal(err)
				}
				if got := base64.StdEncoding.EncodeToString(sig); got != v.SignatureB64 {
					t.Fatalf("re-signed:\n got %s\nwant %s", got, v.SignatureB64)
				}
			}
		})
	}
	if valid != 17 || invalid != 3 {
		t.Fatalf("%d valid, %d invalid vectors; want 17 and 3", valid, invalid)
	}
}

// coversDefaults reports whether comps holds the default coverage, as the
// RFC names it (independently of checkPolicy's tables).
func coversDefaults(comps []Component, response bool) bool {
	has := map[string]bool{}
	for _, c := range comps {
		if !c.req {
			has[c.name] = true
		}
	}
	if response {
		return has["@status"]
	}
	return has["@method"] && (has["@authority"] || has["@target-uri"]) && (has["@path"] || has["@target-uri"] || has["@request-target"])
}

func mustVerifierSet(t testing.TB, keys signet.Keys, p Policy) *Verifier {
	t.Helper()
	v, err := NewVerifier(keys, p)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

func bufioReader(r io.Reader) *bufio.Reader { return bufio.NewReader(r) }

// verify is verifyAll without the other signatures: the tests' way to
// check one message's selection and verification alone.
func (v *Verifier) verify(m *message, h http.Header, now time.Time) (*Result, error) {
	res, _, err := v.verifyAll(m, h, now)
	return res, err
}

// verifyAt is v.verify at the instant of v's clock.
func verifyAt(v *Verifier, m *message, h http.Header) (*Result, error) {
	return v.verify(m, h, v.now())
}
