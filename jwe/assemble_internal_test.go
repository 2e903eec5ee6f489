package jwe

import (
	"bytes"
	"encoding/base64"
	"testing"

	"github.com/signet-go/signet"
)

// TestAssembleInPlace checks the token assemble builds in its own buffer
// (the ciphertext sealed and then encoded forward in place) byte for byte
// against one built from separate buffers with encoding/base64, for every
// content encryption and every plaintext length up to 300 bytes and some
// beyond, with the cached header and with a per-message one (cty).
func TestAssembleInPlace(t *testing.T) {
	enc := base64.RawURLEncoding.EncodeToString
	for _, c := range ces {
		key, err := signet.NewEncryptionKeyWithID(signet.Dir, c.enc, "k1", bytes.Repeat([]byte{9}, c.cekSize))
		if err != nil {
			t.Fatal(err)
		}
		st := stateOf(key)
		ivFill := bytes.Repeat([]byte{0xA5}, c.ivSize)
		lengths := []int{1000, 4095, 4096, 4097, 70000}
		for n := 0; n <= 300; n++ {
			lengths = append(lengths, n)
		}
		for _, n := range lengths {
			pt := make([]byte, n)
			for i := range pt {
				pt[i] = byte(i*31 + n)
			}
			for _, cty := range []string{"", "example"} {
				got, err := st.encrypt("k1", pt, cty, &Options{}, bytes.NewReader(ivFill))
				if err != nil {
					t.Fatal(err)
				}
				hjson := `{"alg":"dir","enc":"` + string(c.enc) + `","kid":"k1"`
				if cty != "" {
					hjson += `,"cty":"` + cty + `"`
				}
				hdr := enc([]byte(hjson + "}"))
				raw := make([]byte, c.ctSize(n)+c.tagSize)
				copy(raw, pt)
				iv := append([]byte(nil), ivFill...)
				ct, tag := st.dir.seal(raw, iv, n, []byte(hdr))
				want := hdr + ".." + enc(iv) + "." + enc(ct) + "." + enc(tag)
				if got != want {
					t.Fatalf("%s, %d bytes, cty %q: token differs from the reference", c.enc, n, cty)
				}
				back, _, err := DecryptBytes(key, got, Policy{MaxSize: 1 << 20})
				if err != nil || !bytes.Equal(back, pt) {
					t.Fatalf("%s, %d bytes, cty %q: round trip: %v", c.enc, n, cty, err)
				}
			}
		}
	}
}
