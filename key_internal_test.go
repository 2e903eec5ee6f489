package signet

import (
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

// The OID contents readPKCS8 compares with are those of oidRSA and
// oidRSAPSS.
func TestOIDContents(t *testing.T) {
	for _, c := range []struct {
		oid      asn1.ObjectIdentifier
		contents string
	}{{oidRSA, oidRSADER}, {oidRSAPSS, oidRSAPSSDER}} {
		der, err := asn1.Marshal(c.oid)
		if err != nil {
			t.Fatal(err)
		}
		if string(der[2:]) != c.contents || int(der[1]) != len(c.contents) {
			t.Errorf("%v: DER % x, constant % x", c.oid, der, c.contents)
		}
	}
}
