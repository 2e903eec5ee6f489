package bearer

import (
	"context"
	"fmt"
)

// claimsKey is the context key of verified claims of type T: one key per
// type, unexported, so that no other package can set or read them.
type claimsKey[T any] struct{}

// claimsContext is the context a verified request reaches its handler
// with: its parent and the claims, in one allocation (context.WithValue
// would add a second, for boxing the claims in an interface).
type claimsContext[T any] struct {
	context.Context
	claims T
}

// Value returns a *T of the claims for their key and asks the parent
// for any other.
func (c *claimsContext[T]) Value(key any) any {
	if _, ok := key.(claimsKey[T]); ok {
		return &c.claims
	}
	return c.Context.Value(key)
}

// String names the context without printing the claims.
func (c *claimsContext[T]) String() string {
	return fmt.Sprint(c.Context) + ".WithValue(bearer claims)"
}

// ClaimsFrom returns the claims that a Middleware[T] verified for the
// request whose context ctx is:
//
//	c, ok := bearer.ClaimsFrom[MyClaims](r.Context())
//
// ok is false when the request came through no Middleware[T] with the
// same T, or through an Optional one without a token.
func ClaimsFrom[T any](ctx context.Context) (T, bool) {
	if p, ok := ctx.Value(claimsKey[T]{}).(*T); ok {
		return *p, true
	}
	var zero T
	return zero, false
}
