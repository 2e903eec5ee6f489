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
	"github.com/signet-go/signet/internal/sf"
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

// FuzzFastSignatureInput (review 13h): whatever Signature-Input the fast
// scanner accepts, the strict parser reads alike: the same members, the
// same @signature-params text (the fast path signs a slice of the field),
// the same parameters and components.
func FuzzFastSignatureInput(f *testing.F) {
	f.Add(`sig1=("@method" "@path";req "x";key="a");created=1;keyid="k";nonce="n";foo;bar="z"`)
	f.Add(`a=("x"), b=("y";sf);expires=10;tag="t";alg="ed25519"`)
	f.Add(`a=("x")	,	b=("@query-param";name="q");created=999999999999999`)
	f.Fuzz(func(t *testing.T, s string) {
		var ins [maxFastMembers]fastInput
		n, ok := scanInputs(s, &ins)
		if !ok {
			return
		}
		d, err := sf.ParseDictionary(s)
		if err != nil || len(d) != n {
			t.Fatalf("fast path read %d members, strict parser %d: %v", n, len(d), err)
		}
		for _, fi := range ins[:n] {
			mem, ok := d.Get(fi.label)
			if !ok {
				t.Fatalf("label %q unknown to the strict parser", fi.label)
			}
			in, err := parseSigInput(mem, false)
			comps, cerr := parseList(fi.list)
			if (err == nil) != (cerr == nil) {
				t.Fatalf("strict parser: %v; fast path's list: %v", err, cerr)
			}
			if err != nil {
				continue
			}
			a, b := in, fi.in
			if a.text != b.text || a.created != b.created || a.hasCreated != b.hasCreated || a.expires != b.expires ||
				a.hasExpires != b.hasExpires || a.nonce != b.nonce || a.alg != b.alg || a.keyid != b.keyid || a.tag != b.tag {
				t.Fatalf("strict parser %+v\nfast path %+v", a, b)
			}
			if len(comps) != len(in.comps) {
				t.Fatalf("%d components, strict parser %d", len(comps), len(in.comps))
			}
			for j := range comps {
				if comps[j].id != in.comps[j].id || comps[j].text != in.comps[j].text {
					t.Fatalf("component %d: %s, strict parser %s", j, comps[j].text, in.comps[j].text)
				}
			}
		}
	})
}
