package httpsig

import (
	"bufio"
	"bytes"
	"errors"
	"net/http"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/signet-go/signet"
)

// FuzzVerifyRequest: any HTTP request, signed or not, is verified without
// a panic, and an error always wraps one of the documented sentinels.
func FuzzVerifyRequest(f *testing.F) {
	files, _ := filepath.Glob(filepath.Join(vectorDir, "messages", "*.http"))
	for _, name := range files {
		data, err := os.ReadFile(name)
		if err == nil && !bytes.HasPrefix(data, []byte("HTTP/")) {
			f.Add(append(data, "\n\n"...))
		}
	}
	f.Add([]byte("GET / HTTP/1.1\nHost: a\nSignature-Input: s=(\"@method\" \"@query-param\";name=\"a\" \"x\";key=\"b\" \"y\";bs \"z\";sf);created=1\nSignature: s=:AAAA:\nX: b=1\nY: 1\nZ: 2\n\n"))
	// The default coverage: nothing covered, too little, a stand-in; a
	// trailer covered (the body is read for it only once the signature
	// is selected); no keyid against several keys.
	f.Add([]byte("GET / HTTP/1.1\nHost: a\nSignature-Input: s=();created=1618884473\nSignature: s=:AAAA:\n\n"))
	f.Add([]byte("GET / HTTP/1.1\nHost: a\nSignature-Input: s=(\"content-type\");created=1618884473;keyid=\"test-key-ed25519\"\nSignature: s=:AAAA:\nContent-Type: a\n\n"))
	f.Add([]byte("GET /p HTTP/1.1\nHost: a\nSignature-Input: s=(\"@method\" \"@target-uri\");created=1618884473\nSignature: s=:AAAA:\n\n"))
	f.Add([]byte("POST /p HTTP/1.1\nHost: a\nTrailer: X-Sum\nTransfer-Encoding: chunked\nSignature-Input: s=(\"@method\" \"@authority\" \"@path\" \"x-sum\";tr);created=1618884473;keyid=\"test-key-ed25519\"\nSignature: s=:AAAA:\n\n4\ndata\n0\nX-Sum: 1\n\n"))
	f.Add([]byte("POST /p HTTP/1.1\nHost: a\nTrailer: X-Sum\nTransfer-Encoding: chunked\n\n4\ndata\n0\nX-Sum: 1\n\n"))
	secret := bytes.Repeat([]byte{7}, 32)
	hk, err := signet.NewKey(signet.HMACSHA256, secret)
	if err != nil {
		f.Fatal(err)
	}
	ek, _ := signet.GenerateKeyWithID(signet.Ed25519, "test-key-ed25519")
	set, _ := signet.NewKeySet(hk.WithKeyID("test-shared-secret"), ek)
	p := Policy{NoCreated: true, MaxBody: 1 << 10, Now: func() time.Time { return time.Unix(1618884473, 0) },
		Fields: map[string]FieldType{"x": Dictionary, "z": List}}
	v, err := NewVerifier(set, p)
	if err != nil {
		f.Fatal(err)
	}
	strict, err := NewVerifier(set, p)
	if err != nil {
		f.Fatal(err)
	}
	strict.strict = true
	sentinels := []error{ErrNoSignature, ErrComponent, ErrNotCovered, ErrTooOld, ErrReplay, ErrDigest,
		signet.ErrMalformed, signet.ErrTooLarge, signet.ErrSignatureInvalid, signet.ErrAlgorithmMismatch,
		signet.ErrKeyNotFound, signet.ErrExpired, signet.ErrNotYetValid}
	f.Fuzz(func(t *testing.T, msg []byte) {
		r, err := http.ReadRequest(bufio.NewReader(bytes.NewReader(msg)))
		if err != nil {
			return
		}
		// The fast path and the strict parser agree on every message.
		m := requestMessage(r, nil)
		_, errFast := v.verify(&m, r.Header, v.now())
		_, errStrict := strict.verify(&m, r.Header, strict.now())
		for _, s := range sentinels {
			if errors.Is(errFast, s) != errors.Is(errStrict, s) {
				t.Fatalf("fast path: %v\nstrict parser: %v", errFast, errStrict)
			}
		}
		_, err = v.VerifyRequest(r)
		if err == nil {
			t.Fatalf("a request verified without a valid signature:\n%q", msg)
		}
		if !isSignetError(err) {
			t.Fatalf("error without a signet sentinel: %v", err)
		}
	})
}

// FuzzParseComponents: identifiers parse or fail cleanly, and a parsed
// identifier reads back the same.
func FuzzParseComponents(f *testing.F) {
	for _, s := range []string{`"@method" "@path"`, `"@query-param";name="a%20b"`, `"x";key="k";sf`, `"y";bs;tr`, `@authority content-type`, `"a";req`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		cs, err := ParseComponents(s)
		if err != nil {
			if !errors.Is(err, ErrComponent) {
				t.Fatalf("error without ErrComponent: %v", err)
			}
			return
		}
		for _, c := range cs {
			back, err := ParseComponent(c.String())
			if err != nil || back.String() != c.String() || back.key() != c.key() {
				t.Fatalf("%q does not read back: %v", c.String(), err)
			}
		}
	})
}
