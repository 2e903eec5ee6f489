package paseto

import (
	"sync"
	"unsafe"
)

// pool is a typed sync.Pool of per-key states.
type pool[T any] struct{ p sync.Pool }

func newPool[T any](make func() *T) *pool[T] {
	return &pool[T]{p: sync.Pool{New: func() any { return make() }}}
}

func (p *pool[T]) get() *T  { return p.p.Get().(*T) }
func (p *pool[T]) put(v *T) { p.p.Put(v) }

// bytesToString views b as a string. b must never be written again.
func bytesToString(b []byte) string { return unsafe.String(unsafe.SliceData(b), len(b)) }
