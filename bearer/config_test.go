package bearer_test

import (
	"errors"
	"testing"
	"time"

	"github.com/signet-go/signet"
	"github.com/signet-go/signet/bearer"
	"github.com/signet-go/signet/jwt"
)

// TestNewRefuses checks that options that cannot work are refused when
// the middleware is made, not request by request.
func TestNewRefuses(t *testing.T) {
	f := newFixture(t, signet.HS256)
	p := policy()
	at := func(change func(*jwt.Policy)) bearer.Options {
		q := policy()
		change(&q)
		return bearer.Options{Policy: q, AccessToken: true}
	}
	for name, c := range map[string]struct {
		keys signet.Keys
		opts bearer.Options
	}{
		"nil keys":                      {nil, bearer.Options{Policy: p}},
		"negative MaxSize":              {f.pub, bearer.Options{Policy: jwt.Policy{Issuer: issuer, Audience: p.Audience, MaxSize: -1}}},
		"leeway over MaxLeeway":         {f.pub, bearer.Options{Policy: jwt.Policy{Audience: p.Audience, Leeway: jwt.MaxLeeway + time.Second}}},
		"Audience with IgnoreAudience":  {f.pub, bearer.Options{Policy: jwt.Policy{Audience: p.Audience, IgnoreAudience: true}}},
		"empty scope":                   {f.pub, bearer.Options{Policy: p, Scopes: []string{""}}},
		"scope with a space":            {f.pub, bearer.Options{Policy: p, Scopes: []string{"a b"}}},
		"scope with a quote":            {f.pub, bearer.Options{Policy: p, Scopes: []string{`a"b`}}},
		"scope with a backslash":        {f.pub, bearer.Options{Policy: p, Scopes: []string{`a\b`}}},
		"scope not ASCII":               {f.pub, bearer.Options{Policy: p, Scopes: []string{"é"}}},
		"realm with a line break":       {f.pub, bearer.Options{Policy: p, Realm: "api\r\nSet-Cookie: x=y"}},
		"access token without issuer":   {f.pub, at(func(q *jwt.Policy) { q.Issuer = "" })},
		"access token without audience": {f.pub, at(func(q *jwt.Policy) { q.Audience = nil })},
		"access token ignoring audience": {f.pub, at(func(q *jwt.Policy) {
			q.Audience, q.IgnoreAudience = nil, true
		})},
		"access token without expiry": {f.pub, at(func(q *jwt.Policy) { q.NoExpiry = true })},
		"access token of type JWT":    {f.pub, at(func(q *jwt.Policy) { q.Type = "JWT" })},
	} {
		m, err := bearer.New[Claims](c.keys, c.opts)
		if !errors.Is(err, signet.ErrUnsupported) || m != nil {
			t.Errorf("%s: %v", name, err)
		}
	}
	for name, opts := range map[string]bearer.Options{
		"zero options":                  {},
		"access token":                  at(func(*jwt.Policy) {}),
		"access token, application/typ": at(func(q *jwt.Policy) { q.Type = "application/AT+JWT" }),
		"realm with quotes":             {Policy: p, Realm: `the "api" \ realm`},
	} {
		if _, err := bearer.New[Claims](f.pub, opts); err != nil {
			t.Errorf("%s: %v", name, err)
		}
	}
}

// TestNilMiddleware: a Middleware that New did not make fails closed.
func TestNilMiddleware(t *testing.T) {
	var m *bearer.Middleware[Claims]
	f := newFixture(t, signet.HS256)
	res := serve(t, m, request("Bearer "+f.sign(t, claims(), "")))
	if res.reached || res.rec.Code != 500 {
		t.Fatalf("nil middleware: %d, reached %v", res.rec.Code, res.reached)
	}
}
