package jwt

import (
	"reflect"
	"unsafe"

	"github.com/signet-go/signet/internal/claimcheck"
	"github.com/signet-go/signet/internal/claimsjson"
	"github.com/signet-go/signet/internal/unsafex"
)

// AppendClaims appends to dst the claims set Sign would sign for claims
// and opts (the same JSON, the same issuing defaults and refusals), for
// formats that carry a JWT claims set otherwise than in a JWS: package jwe
// encrypts it. Use Sign for signed tokens.
func AppendClaims[T any](dst []byte, claims T, opts ...Options) ([]byte, error) {
	o, err := issueOptions(opts)
	if err != nil {
		return dst, err
	}
	if c, ok := any(&claims).(*Claims); ok {
		// c is AppendClaims' copy.
		if err := issueDefaults(c, &o); err != nil {
			return dst, err
		}
		return c.appendJSON(dst), nil
	}
	if t := reflect.TypeFor[T](); t.Kind() == reflect.Struct {
		// As Sign: the branches take claims by value, so that its
		// address does not escape and claims stays on the stack.
		if plan, can := split.Lookup(t); plan != nil {
			return appendPlan(dst, plan, claims, &o)
		} else if can {
			return appendEmbedded(dst, claims, &o)
		}
	}
	return appendOther(dst, claims, &o)
}

// appendPlan is signPlan's payload.
func appendPlan[T any](dst []byte, plan *claimsjson.Plan, claims T, o *claimcheck.Issue) ([]byte, error) {
	v := unsafe.Pointer(&claims)
	reg := *(*Claims)(plan.Registered(v))
	if err := issueDefaults(&reg, o); err != nil {
		return dst, err
	}
	return plan.Append(reg.appendJSON(dst), v)
}

// appendEmbedded is signEmbedded's payload.
func appendEmbedded[T any](dst []byte, claims T, o *claimcheck.Issue) ([]byte, error) {
	rc := any(&claims).(registeredClaims).registered()
	reg := *rc
	*rc = Claims{} // claims is a copy: the caller's value is not touched
	if err := issueDefaults(&reg, o); err != nil {
		return dst, err
	}
	rest, err := claimsjson.Object(claims)
	if err != nil {
		return dst, err
	}
	return claimsjson.Join(reg.appendJSON(dst), rest), nil
}

// appendOther is Sign's payload for other types.
func appendOther[T any](dst []byte, claims T, o *claimcheck.Issue) ([]byte, error) {
	payload, err := claimsjson.Object(claims)
	if err != nil {
		return dst, err
	}
	var c Claims
	has, err := decodeClaims(unsafex.String(payload), &c) // read before payload is appended to
	if err != nil {
		return dst, err
	}
	if payload, err = addDefaults(payload, has, o); err != nil {
		return dst, err
	}
	return append(dst, payload...), nil
}

// ParseClaims reads and validates a JWT claims set whose integrity
// something else has established, as Verify does once the signature holds:
// package jwe calls it on the plaintext of a JWE it decrypted. It checks
// no signature and no header (of p, MaxSize and Type do not apply): never
// call it on a payload that has not been authenticated. The T returned
// may share memory with payload, which must not change afterwards.
func ParseClaims[T any](payload []byte, p Policy) (T, error) {
	var zero T
	if _, err := p.check(); err != nil {
		return zero, err
	}
	return claimsOf[T](unsafex.String(payload), &p)
}

// claimsOf is the claims part of verifyClaims.
func claimsOf[T any](payload string, p *Policy) (T, error) {
	var out T
	_, isClaims := any(&out).(*Claims)
	if !isClaims {
		if plan := claimsjson.PlanFor[T](split); plan != nil {
			return verifyPlan[T](plan, payload, p)
		}
	}
	var c Claims
	var at instants
	has, folded, err := readClaims(payload, &c, &at, !isClaims && claimsjson.Folds[T, Map](), nil, nil)
	if err != nil {
		return out, err
	}
	if err := p.validate(&c, has, &at); err != nil {
		return out, err
	}
	if o, ok := any(&out).(*Claims); ok {
		*o = c
		return out, nil
	}
	return decodeInto[T](payload, &c, folded)
}
