package lab

// Scaffolding, replaced by the JWT peer adapters (helper task A).

type golangJWT struct{ todo }
type jwxJWT struct{ todo }
type goJoseJWT struct{ todo }
type cristalhqJWT struct{ todo }
type katarasJWT struct{ todo }

type todo struct{}

func (todo) Name() string             { return "todo" }
func (todo) Algs() []string           { return nil }
func (todo) Purposes() []string       { return nil }
func (todo) New(KeySpec) (JWT, error) { return nil, errTodo }
