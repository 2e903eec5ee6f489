package paseto

import (
	"sync"

	"github.com/signet-go/signet/internal/unsafex"
)

// pool is a typed sync.Pool of per-key states.
type pool[T any] struct{ p sync.Pool }

func newPool[T any](make func() *T) *pool[T] {
	return &pool[T]{p: sync.Pool{New: func() any { return make() }}}
}

func (p *pool[T]) get() *T  { return p.p.Get().(*T) }
func (p *pool[T]) put(v *T) { p.p.Put(v) }

// bytesToString views b as a string (unsafex.String): b must never be
// written again.
func bytesToString(b []byte) string { return unsafex.String(b) }
