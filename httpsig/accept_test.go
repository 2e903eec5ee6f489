package httpsig

import (
	"bytes"
	"errors"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"testing"

	"github.com/signet-go/signet"
)

// TestParseAcceptSignature: the parser's limits and typed errors.
func TestParseAcceptSignature(t *testing.T) {
	if wants, err := ParseAcceptSignature(http.Header{}); wants != nil || err != nil {
		t.Fatalf("absent field: %v %v", wants, err)
	}
	manyComps := make([]string, maxComponents+1)
	for i := range manyComps {
		manyComps[i] = fmt.Sprintf(`"x-h%d"`, i)
	}
	var manyMembers []string
	for i := range maxSignatures + 1 {
		manyMembers = append(manyMembers, fmt.Sprintf(`s%d=("@status")`, i))
	}
	for _, c := range []struct {
		name  string
		lines []string
		want  error
	}{
		{"over the size limit", []string{`a=("` + strings.Repeat("x", DefaultMaxHeader) + `")`}, signet.ErrTooLarge},
		{"over the size limit in many lines", slices.Repeat([]string{`a=("@status")`}, DefaultMaxHeader/10), signet.ErrTooLarge},
		{"too many members", []string{strings.Join(manyMembers, ", ")}, signet.ErrTooLarge},
		{"too many components", []string{"a=(" + strings.Join(manyComps, " ") + ")"}, ErrComponent},
		{"not a dictionary", []string{`("@status")`}, signet.ErrMalformed},
		{"a member that is no inner list", []string{`a="@status"`}, signet.ErrMalformed},
		{"an unknown derived component", []string{`a=("@nope")`}, ErrComponent},
		{"a component twice", []string{`a=("@status" "@status")`}, ErrComponent},
		{"a nonce that is no string", []string{`a=("@status");nonce=1`}, signet.ErrMalformed},
		{"created with a negative value", []string{`a=("@status");created=-1`}, signet.ErrMalformed},
		{"an unknown alg", []string{`a=("@status");alg="none"`}, signet.ErrUnsupported},
		{"a JWS alg", []string{`a=("@status");alg="RS256"`}, signet.ErrUnsupported},
	} {
		t.Run(c.name, func(t *testing.T) {
			wants, err := ParseAcceptSignature(http.Header{"Accept-Signature": c.lines})
			if !errors.Is(err, c.want) || wants != nil {
				t.Fatalf("got %v, want %v", err, c.want)
			}
			if c.want == ErrComponent && !errors.Is(err, signet.ErrMalformed) {
				t.Fatalf("%v does not wrap ErrMalformed", err)
			}
		})
	}
	// Several lines are one dictionary; created and expires may be asked
	// for with or without a value.
	wants, err := ParseAcceptSignature(http.Header{"Accept-Signature": {`a=("@status");created=1;expires`, `b=("content-type";req);nonce="n";keyid="k";tag="t";alg="hmac-sha256";x=1`}})
	if err != nil || len(wants) != 2 {
		t.Fatal(wants, err)
	}
	if a, b := wants[0], wants[1]; a.Label != "a" || !a.Created || !a.Expires || b.Label != "b" || b.Created || b.Nonce != "n" || b.KeyID != "k" || b.Tag != "t" || b.Alg != signet.HMACSHA256 || b.Components[0].String() != `"content-type";req` {
		t.Fatalf("%+v", wants)
	}
}

// FuzzAcceptSignature: any Accept-Signature field parses or fails with a
// sentinel; what parses is produced again by AcceptSignature and read
// back the same; and whatever it asks, SignResponses's answer covers an
// allowed set with @status, with the server's tag and never the client's
// nonce, or is refused with a sentinel.
func FuzzAcceptSignature(f *testing.F) {
	for _, s := range []string{
		`sig1=("@method" "@path" "content-type");created;expires;nonce="n-123";alg="ed25519";keyid="k";tag="t"`,
		`a=("content-type" "content-digest");tag="partner";nonce="chosen"`,
		`a=("@method";req "@path";req), b=("@status")`,
		`a=("content-type";tr), b=("@status";req), c=()`,
		`a=("@query-param";name="id" "x";key="k";sf "y";bs);alg="hmac-sha256";keyid="srv"`,
		`a=("@status");created=1;expires=2;x=?1`,
		`a="@status"`,
		`a=("@status");alg="RS256"`,
		`("@status")`,
	} {
		f.Add(s)
	}
	k, err := signet.NewKey(signet.HMACSHA256, bytes.Repeat([]byte{7}, 32))
	if err != nil {
		f.Fatal(err)
	}
	s, err := NewSigner(k.WithKeyID("srv"), Options{Tag: "srv-tag", Digest: SHA256, Now: fixedNow})
	if err != nil {
		f.Fatal(err)
	}
	rp, err := newResponder(s, ResponseOptions{Answer: [][]string{
		{"@status", "content-type", "content-digest"},
		{"@status", `"@method";req`, `"@path";req`},
		{"@status"},
	}})
	if err != nil {
		f.Fatal(err)
	}
	req, _ := http.NewRequest(http.MethodGet, "https://api.example/x", nil)
	parseSentinels := []error{signet.ErrMalformed, signet.ErrTooLarge, signet.ErrUnsupported}
	answerSentinels := []error{ErrComponent, signet.ErrUnsupported, signet.ErrKeyNotFound, signet.ErrAlgorithmMismatch, signet.ErrTooLarge}
	f.Fuzz(func(t *testing.T, field string) {
		wants, err := ParseAcceptSignature(http.Header{"Accept-Signature": {field}})
		if err != nil {
			if wants != nil || !slices.ContainsFunc(parseSentinels, func(s error) bool { return errors.Is(err, s) }) {
				t.Fatalf("%v (wants %v)", err, wants)
			}
			return
		}
		again, err := AcceptSignature(wants...)
		if err != nil {
			t.Fatalf("%+v cannot be asked for again: %v", wants, err)
		}
		back, err := ParseAcceptSignature(http.Header{"Accept-Signature": {again}})
		if err != nil || !sameWants(wants, back) {
			t.Fatalf("%q reads back as %+v: %v", again, back, err)
		}
		for _, w := range wants {
			a, err := rp.answer(w, rp.own)
			if err != nil {
				if !slices.ContainsFunc(answerSentinels, func(s error) bool { return errors.Is(err, s) }) {
					t.Fatalf("answer without a sentinel: %v", err)
				}
				continue
			}
			if a.label != w.Label || a.o.Tag != "srv-tag" || a.o.NonceValue != "" || a.keyid != "srv" ||
				!slices.ContainsFunc(rp.sets, func(set answerSet) bool { return slices.Equal(set.text, a.o.Components) }) {
				t.Fatalf("%+v answered with %+v", w, a.o)
			}
			h := http.Header{"Content-Type": {"text/plain"}}
			if err := a.SignResponse(http.StatusOK, h, nil, req, []byte("hi")); err != nil {
				t.Fatal(err)
			}
			in := h.Get("Signature-Input")
			if !strings.HasPrefix(in, w.Label+`=("@status"`) || !strings.Contains(in, `;tag="srv-tag"`) ||
				w.Nonce != "" && strings.Contains(in, `nonce="`+w.Nonce+`"`) {
				t.Fatalf("%+v answered with %s", w, in)
			}
		}
	})
}

// sameWants compares Wants, their components by identifier.
func sameWants(a, b []Want) bool {
	return slices.EqualFunc(a, b, func(x, y Want) bool {
		return x.Label == y.Label && x.Created == y.Created && x.Expires == y.Expires && x.Nonce == y.Nonce &&
			x.Tag == y.Tag && x.KeyID == y.KeyID && x.Alg == y.Alg &&
			slices.EqualFunc(x.Components, y.Components, func(c, d Component) bool { return c.String() == d.String() })
	})
}
