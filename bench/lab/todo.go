package lab

import "errors"

// errTodo marks scaffolding that the adapters replace; this file goes when
// they have.
var errTodo = errors.New("lab: adapter not written yet")
