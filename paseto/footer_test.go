package paseto

import (
	"bytes"
	"errors"
	"strings"
	"testing"

	"github.com/signet-go/signet"
)

// footerSentinels are the errors a footer is refused with, at issue or
// when read.
var footerSentinels = []error{signet.ErrFooter, signet.ErrMalformed, signet.ErrKeyNotFound, signet.ErrTooLarge}

// footerVerdict names the sentinel err wraps: "" for nil, "other" for an
// error that wraps none of footerSentinels.
func footerVerdict(err error) string {
	if err == nil {
		return ""
	}
	for _, s := range footerSentinels {
		if errors.Is(err, s) {
			return s.Error()
		}
	}
	return "other: " + err.Error()
}

// footerKeys are a v4.local and a v4.public key, both with kid "k1".
func footerKeys(tb testing.TB) (local, secret *signet.Key) {
	tb.Helper()
	local, err := signet.NewKey(signet.V4Local, bytes.Repeat([]byte{7}, 32))
	if err != nil {
		tb.Fatal(err)
	}
	secret, err = signet.GenerateKey(signet.V4Public)
	if err != nil {
		tb.Fatal(err)
	}
	return local.WithKeyID("k1"), secret.WithKeyID("k1")
}

// checkFooterIssueRead is the property of issue-time footer checks: a
// footer is refused at issue exactly when a reader holding the issuing key
// would refuse a token carrying it, and with the same sentinel. The
// reader's verdict comes from a token made past the issue-time check.
func checkFooterIssueRead(t *testing.T, local, secret *signet.Key, footer []byte) {
	t.Helper()
	payload := []byte(`{"sub":"a"}`)
	public, err := secret.Public()
	if err != nil {
		t.Fatal(err)
	}
	o := Options{Footer: footer}
	for _, c := range []struct {
		name   string
		issue  func() (string, error)
		forge  func() (string, error) // the same token, without the issue-time check
		read   func(tok string) error
		public bool
	}{
		{"v4.local",
			func() (string, error) { return EncryptBytes(local, payload, o) },
			func() (string, error) { return encryptV4(local, payload, footer, nil, nil) },
			func(tok string) error { _, err := DecryptBytes(local, tok, Policy{MaxSize: 1 << 20}); return err }, false},
		{"v4.public",
			func() (string, error) { return SignBytes(secret, payload, o) },
			func() (string, error) { return sign(secret, payload, &o) },
			func(tok string) error { _, err := VerifyBytes(public, tok, Policy{MaxSize: 1 << 20}); return err }, true},
	} {
		tok, issueErr := c.issue()
		if issueErr == nil {
			if err := c.read(tok); err != nil {
				t.Fatalf("%s: footer %q: issued, then refused when read: %v", c.name, footer, err)
			}
			got, err := Footer(tok)
			if err != nil || !bytes.Equal(got, footer) {
				t.Fatalf("%s: footer %q read back as %q, %v", c.name, footer, got, err)
			}
			continue
		}
		if footerVerdict(issueErr)[:5] == "other" {
			t.Fatalf("%s: footer %q refused at issue without a footer sentinel: %v", c.name, footer, issueErr)
		}
		if len(footer) > MaxFooterSize {
			if !errors.Is(issueErr, signet.ErrTooLarge) {
				t.Fatalf("%s: oversized footer refused with %v", c.name, issueErr)
			}
			continue // a reader refuses the token before it is made
		}
		forged, err := c.forge()
		if err != nil {
			t.Fatalf("%s: footer %q: making the token past the check: %v", c.name, footer, err)
		}
		readErr := c.read(forged)
		if footerVerdict(readErr) != footerVerdict(issueErr) {
			t.Fatalf("%s: footer %q refused at issue with %v, but read with %v", c.name, footer, issueErr, readErr)
		}
	}
}

// TestFooterIssuedIsReadable: a footer is refused at issue exactly when
// readers refuse it, with their sentinel (issue 14: no {…} footer that the
// reader will refuse).
func TestFooterIssuedIsReadable(t *testing.T) {
	local, secret := footerKeys(t)
	tests := []struct {
		footer string
		want   error // at issue and when read
	}{
		{"", nil},
		{"k4.lid.AAAA", nil},
		{"not json, no kid", nil},
		{"[1,2,3]", nil}, // not an object: opaque bytes
		{`{"kid":"k1"}`, nil},
		{` {"kid":"k1","x":[1,2]}`, nil},
		{`{"a":1}`, nil},
		{`{"kid":"k2"}`, signet.ErrKeyNotFound},
		{`{"kid":1}`, signet.ErrMalformed},
		{`{"kid":null}`, signet.ErrMalformed},
		{`{"kid":["k1"]}`, signet.ErrMalformed},
		{`{"Kid":"k1"}`, signet.ErrFooter},
		{`{"KID":"k1"}`, signet.ErrFooter},
		{`{"kid":"k1","kid":"k1"}`, signet.ErrFooter},
		{`{"kid":"k1","KID":"k2"}`, signet.ErrFooter},
		{`{"a":{"b":{"c":1}},"kid":"k1"}`, signet.ErrFooter},
		{`{"a":[[1]]}`, signet.ErrFooter},
		{`{"kid":"k1","a":1,"b":2,"c":3,"d":4,"e":5,"f":6,"g":7,"h":8,"i":9,"j":10,"k":11,"l":12,"m":13,"n":14,"o":15,"p":16}`, signet.ErrFooter},
		{`{kid:"k1"}`, signet.ErrFooter},
		{`{"kid":"k1"`, signet.ErrFooter},
		{`{"kid":"k1"} trailing`, signet.ErrFooter},
		{"{\"kid\":\"\xff\"}", signet.ErrFooter},
		{`{`, signet.ErrFooter},
		{"{not json at all", signet.ErrFooter},
		// PASERK (README, "Safe in Footer?"): a key in the clear (local,
		// public, secret) or under a password (local-pw, secret-pw) must
		// never be in a footer, under kid, wpk or any other name, nor be
		// the footer; IDs and wrapped or sealed keys may.
		{`{"wpk":"k4.local.cHFyc3R1dnd4eXp7fH1-f4CBgoOEhYaHiImKi4yNjo8"}`, signet.ErrFooter},
		{`{"kid":"k1","wpk":"k3.secret.cHFyc3R1dnd4eXp7fH1-f4CBgoOEhYaHiImKi4yNjo-QkZKTlJWWl5iZmpucnZ6f"}`, signet.ErrFooter},
		{`{"kid":"k4.public.cHFyc3R1dnd4eXp7fH1-f4CBgoOEhYaHiImKi4yNjo8"}`, signet.ErrFooter},
		{`{"kid":"k1","wpk":"k4.local-pw.AAAA"}`, signet.ErrFooter},
		{`{"kid":"k1","wpk":"k4.secret-pw.AAAA"}`, signet.ErrFooter},
		{`{"kid":"k1","key":"k4.secret.AAAA"}`, signet.ErrFooter},
		{`{"kid":"k1","wpk":"k4.\u006cocal.AAAA"}`, signet.ErrFooter},
		{"k4.local.cHFyc3R1dnd4eXp7fH1-f4CBgoOEhYaHiImKi4yNjo8", signet.ErrFooter},
		{"k10.secret.AAAA", signet.ErrFooter},
		{`{"kid":"k1","wpk":"k4.local-wrap.pie.AAAA"}`, nil},
		{`{"kid":"k1","wpk":"k4.secret-wrap.pie.AAAA"}`, nil},
		{`{"kid":"k1","wpk":"k4.seal.AAAA"}`, nil},
		{`{"kid":"k1","x":"k4.localhost"}`, nil},
		{"k4.pid.AAAA", nil},
		{"k4.local", nil},
		{"kx.local.AAAA", nil},
		{strings.Repeat("x", MaxFooterSize), nil},
		{strings.Repeat("x", MaxFooterSize+1), signet.ErrTooLarge},
	}
	for _, tt := range tests {
		_, err := EncryptBytes(local, []byte(`{"sub":"a"}`), Options{Footer: []byte(tt.footer)})
		if tt.want == nil && err != nil || tt.want != nil && !errors.Is(err, tt.want) {
			t.Errorf("footer %.40q: issue error %v, want %v", tt.footer, err, tt.want)
		}
		checkFooterIssueRead(t, local, secret, []byte(tt.footer))
	}
	// A key without a kid issues any kid; so does a nil key reach the
	// key check (refused there, not here).
	if err := checkFooter(local.WithKeyID(""), []byte(`{"kid":"k2"}`)); err != nil {
		t.Errorf("key without kid: %v", err)
	}
}

// FuzzFooterIssueRead: whatever the footer, the issuer refuses it exactly
// when readers do, with the same sentinel, and a footer issued is read
// back as it was.
func FuzzFooterIssueRead(f *testing.F) {
	for _, s := range []string{"", `{"kid":"k1"}`, `{"kid":"k2"}`, `{"kid":1}`, `{"KID":"k1"}`, `{"a":{"b":{}}}`, "{", "x", `{"kid":"k1","kid":"k1"}`, " \t{\"kid\":\"k1\"}", `{"wpk":"k4.local.AAAA"}`, "k3.public.AAAA", `{"kid":"k1","wpk":"k4.local-wrap.pie.AAAA"}`} {
		f.Add([]byte(s))
	}
	local, secret := footerKeys(f)
	f.Fuzz(func(t *testing.T, footer []byte) {
		checkFooterIssueRead(t, local, secret, footer)
	})
}
