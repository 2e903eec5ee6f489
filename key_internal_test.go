package signet

import (
	"crypto"
	"encoding/asn1"
	"testing"
	"unsafe"
)

// A Key is four words (spec, kid, shared data): WithKeyID copies only
// those, and a service binding a key pays one small allocation for the
// copy. The material lives in keyData, made with the key in one
// allocation (keyBlock; secretBlock holds a secret of up to 64 bytes too).
func TestKeyLayout(t *testing.T) {
	if got, want := unsafe.Sizeof(Key{}), 4*unsafe.Sizeof(uintptr(0)); got != want {
		t.Errorf("Key is %d bytes, want %d", got, want)
	}
	if got := unsafe.Sizeof(keyBlock{}); got > 128 {
		t.Errorf("keyBlock is %d bytes, want at most 128 (a size class)", got)
	}
	if got := unsafe.Sizeof(secretBlock{}); got > 192 {
		t.Errorf("secretBlock is %d bytes, want at most 192 (a size class)", got)
	}
}

// The OID contents the envelope and PSS parameter readers compare with are
// those of the OIDs they name.
func TestOIDContents(t *testing.T) {
	type oidCase struct {
		oid      asn1.ObjectIdentifier
		contents string
	}
	cases := []oidCase{
		{oidRSA, oidRSADER}, {oidRSAPSS, oidRSAPSSDER},
		{asn1.ObjectIdentifier{1, 2, 840, 113549, 1, 1, 8}, oidMGF1DER},
	}
	hashes := map[crypto.Hash]asn1.ObjectIdentifier{
		crypto.SHA1:       {1, 3, 14, 3, 2, 26},
		crypto.SHA224:     {2, 16, 840, 1, 101, 3, 4, 2, 4},
		crypto.SHA256:     {2, 16, 840, 1, 101, 3, 4, 2, 1},
		crypto.SHA384:     {2, 16, 840, 1, 101, 3, 4, 2, 2},
		crypto.SHA512:     {2, 16, 840, 1, 101, 3, 4, 2, 3},
		crypto.SHA512_224: {2, 16, 840, 1, 101, 3, 4, 2, 5},
		crypto.SHA512_256: {2, 16, 840, 1, 101, 3, 4, 2, 6},
	}
	if len(hashes) != len(pssHashes) {
		t.Fatalf("%d hashes named here, %d in pssHashes", len(hashes), len(pssHashes))
	}
	for _, h := range pssHashes {
		cases = append(cases, oidCase{hashes[h.hash], h.oid})
	}
	for _, c := range cases {
		der, err := asn1.Marshal(c.oid)
		if err != nil {
			t.Fatal(err)
		}
		if string(der[2:]) != c.contents || int(der[1]) != len(c.contents) {
			t.Errorf("%v: DER % x, constant % x", c.oid, der, c.contents)
		}
	}
}
