package lab

// Scaffolding, replaced by the PASETO and RFC 9421 adapters (helper task B).

type signetPASETO struct{ todoP }
type goPASETO struct{ todoP }
type o1eglPASETO struct{ todoP }
type todoP struct{}

func (todoP) Name() string                { return "todo" }
func (todoP) Purposes() []string          { return nil }
func (todoP) New(KeySpec) (PASETO, error) { return nil, errTodo }

type signetHTTPSig struct{ todoH }
type yaronfHTTPSig struct{ todoH }
type remitlyHTTPSig struct{ todoH }
type commonFateHTTPSig struct{ todoH }
type todoH struct{}

func (todoH) Name() string                 { return "todo" }
func (todoH) Algs() []string               { return nil }
func (todoH) New(KeySpec) (HTTPSig, error) { return nil, errTodo }

func pasetoCases(k *Keys, purpose, size string, parallel bool) ([]Case, error) { return nil, nil }
func pasetoSizeCases(k *Keys, purpose, size string) ([]Case, error)            { return nil, nil }
func httpsigCases(k *Keys, alg string, parallel bool) ([]Case, error)          { return nil, nil }
