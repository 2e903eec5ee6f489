package lab

// Peers is the set of libraries a run measures and judges, per format,
// signet first in each list. The lab's own adapters are DefaultPeers;
// a caller adds others (the studies' libraries, bench/studies) with
// Add, and gives the set to Cases (Options.Peers), RunAttacks and
// RunConformance.
type Peers struct {
	JWT     []JWTLib
	PASETO  []PASETOLib
	HTTPSig []HTTPSigLib
	JWE     []JWELib
}

// DefaultPeers returns the lab's own adapters: signet, then the peers
// the lab always builds with (golang-jwt, jwx, go-jose, cristalhq,
// kataras; go-paseto, o1egl; yaronf, remitly, common-fate; for JWE
// jwx and go-jose).
func DefaultPeers() Peers {
	return Peers{
		JWT:     []JWTLib{signetJWT{}, golangJWT{}, jwxJWT{}, goJoseJWT{}, cristalhqJWT{}, katarasJWT{}},
		PASETO:  []PASETOLib{signetPASETO{}, goPASETO{}, o1eglPASETO{}},
		HTTPSig: []HTTPSigLib{signetHTTPSig{}, yaronfHTTPSig{}, remitlyHTTPSig{}, commonFateHTTPSig{}},
		JWE:     []JWELib{signetJWE{}, jwxJWE{}, goJoseJWE{}},
	}
}

// Add returns p with more's libraries after p's own, format by format
// (p's lists are not modified).
func (p Peers) Add(more Peers) Peers {
	return Peers{
		JWT:     append(append([]JWTLib(nil), p.JWT...), more.JWT...),
		PASETO:  append(append([]PASETOLib(nil), p.PASETO...), more.PASETO...),
		HTTPSig: append(append([]HTTPSigLib(nil), p.HTTPSig...), more.HTTPSig...),
		JWE:     append(append([]JWELib(nil), p.JWE...), more.JWE...),
	}
}

// Names lists the libraries of one format ("JWT", "PASETO", "HTTPSig", "JWE")
// in p's order; none for another format.
func (p Peers) Names(format string) []string {
	var out []string
	switch format {
	case "JWT":
		for _, l := range p.JWT {
			out = append(out, l.Name())
		}
	case "PASETO":
		for _, l := range p.PASETO {
			out = append(out, l.Name())
		}
	case "HTTPSig":
		for _, l := range p.HTTPSig {
			out = append(out, l.Name())
		}
	case "JWE":
		for _, l := range p.JWE {
			out = append(out, l.Name())
		}
	}
	return out
}
