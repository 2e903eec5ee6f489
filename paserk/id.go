package paserk

import (
	"github.com/signet-go/signet"
	"github.com/signet-go/signet/internal/b64"
)

// idLen is the length of the hash in a key ID: 264 bits, 44 base64url
// characters.
const idLen = 33

// ID returns the PASERK key ID of k: k4.lid or k3.lid for a local key,
// k4.pid or k3.pid for a public key, k4.sid or k3.sid for a private key.
// The ID is a hash of the key's PASERK (BLAKE2b-264 for k4, SHA-384
// truncated to 264 bits for k3, over the ID header and the PASERK), so it
// reveals nothing about the key and is safe to publish: it is the
// recommended "kid" of a PASETO footer.
//
// The ID of a private key differs from the ID of its public half; a
// verifier knows only the latter, so a signer should put
// ID(k.Public()) in its tokens.
//
// Keys of other algorithms fail with an error wrapping signet.ErrUnsupported.
func ID(k *signet.Key) (string, error) {
	v, kd, err := classify(k)
	if err != nil {
		return "", err
	}
	p, err := Encode(k)
	if err != nil {
		return "", err
	}
	typ := typeSID
	switch kd {
	case kindLocal:
		typ = typeLID
	case kindPublic:
		typ = typePID
	}
	h := v.name + "." + typ + "."
	var d []byte
	if v == k4 {
		d = blake2bSum(idLen, nil, []byte(h), []byte(p))
	} else {
		d = sha384([]byte(h), []byte(p))[:idLen]
	}
	return h + b64.EncodeToString(d), nil
}
