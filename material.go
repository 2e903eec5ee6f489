package signet

import (
	"crypto/ecdsa"
	"crypto/rsa"
	"math/big"
)

// The copies below share no big.Int or slice with their source: a key
// keeps copies of what a caller hands to NewKey, and hands out copies
// (Material, PublicMaterial), so that no caller holds a handle on the
// values a key signs and verifies with.

// cloneInt returns a copy of x; nil stays nil (an incomplete key supplied
// by a caller is refused after the copy, not by it).
func cloneInt(x *big.Int) *big.Int {
	if x == nil {
		return nil
	}
	return new(big.Int).Set(x)
}

func copyRSAPublic(p *rsa.PublicKey) *rsa.PublicKey {
	return &rsa.PublicKey{N: cloneInt(p.N), E: p.E}
}

// copyRSAPrivate copies N, E, D and the primes of p; with crt, also its
// CRT values (a key's own, consistent ones), and precomputes the copy so
// that it signs as fast as the original. Without crt nothing derived is
// copied: the values of a key a caller hands in are recomputed from the
// ones checked.
func copyRSAPrivate(p *rsa.PrivateKey, crt bool) *rsa.PrivateKey {
	c := &rsa.PrivateKey{PublicKey: *copyRSAPublic(&p.PublicKey), D: cloneInt(p.D)}
	if p.Primes != nil {
		c.Primes = make([]*big.Int, len(p.Primes))
		for i, q := range p.Primes {
			c.Primes[i] = cloneInt(q)
		}
	}
	if crt {
		c.Precomputed.Dp = cloneInt(p.Precomputed.Dp)
		c.Precomputed.Dq = cloneInt(p.Precomputed.Dq)
		c.Precomputed.Qinv = cloneInt(p.Precomputed.Qinv)
		c.Precompute()
	}
	return c
}

func copyECPublic(p *ecdsa.PublicKey) *ecdsa.PublicKey {
	//lint:ignore SA1019 a copy of the coordinates is a copy of the key; both were checked when the key was made.
	return &ecdsa.PublicKey{Curve: p.Curve, X: cloneInt(p.X), Y: cloneInt(p.Y)}
}

func copyECPrivate(p *ecdsa.PrivateKey) *ecdsa.PrivateKey {
	//lint:ignore SA1019 as copyECPublic: the scalar was checked when the key was made.
	return &ecdsa.PrivateKey{PublicKey: *copyECPublic(&p.PublicKey), D: cloneInt(p.D)}
}
