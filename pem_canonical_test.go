package signet

import (
	"bytes"
	"encoding/pem"
	"testing"
)

// checkCanonicalPEM requires canonicalPEM, where it reads data, to give
// what pem.Decode gives: the same type and bytes, no headers, and nothing
// but white space after the block.
func checkCanonicalPEM(t *testing.T, data []byte) bool {
	t.Helper()
	typ, der, ok := canonicalPEM(data)
	if !ok {
		return false
	}
	block, rest := pem.Decode(data)
	if block == nil || block.Type != typ || !bytes.Equal(block.Bytes, der) || len(block.Headers) != 0 || len(bytes.TrimSpace(rest)) != 0 {
		t.Fatalf("%q: canonicalPEM %q %x, pem.Decode %+v rest %q", data, typ, der, block, rest)
	}
	return true
}

func TestCanonicalPEM(t *testing.T) {
	body := bytes.Repeat([]byte{0x30, 0x82, 0xff, 0x00, 0x7e}, 30)
	enc := pem.EncodeToMemory(&pem.Block{Type: "PRIVATE KEY", Bytes: body})
	if !checkCanonicalPEM(t, enc) {
		t.Fatal("encoding/pem's own output not read")
	}
	for _, typ := range []string{"PUBLIC KEY", "RSA PRIVATE KEY", "RSA PUBLIC KEY", "EC PRIVATE KEY"} {
		if !checkCanonicalPEM(t, pem.EncodeToMemory(&pem.Block{Type: typ, Bytes: body[:7]})) {
			t.Errorf("%s not read", typ)
		}
	}
	if !checkCanonicalPEM(t, append(bytes.TrimSuffix(enc, []byte("\n")), " \n\t\n"...)) {
		t.Error("trailing white space not read")
	}
	// Everything else goes to pem.Decode.
	for _, data := range [][]byte{
		pem.EncodeToMemory(&pem.Block{Type: "PRIVATE KEY", Headers: map[string]string{"Proc-Type": "4,ENCRYPTED"}, Bytes: body}),
		pem.EncodeToMemory(&pem.Block{Type: "EC PARAMETERS", Bytes: body[:5]}),
		pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: body}),
		append([]byte("junk\n"), enc...),
		append(append([]byte(nil), enc...), enc...),
		bytes.ReplaceAll(enc, []byte("\n"), []byte("\r\n")),
		bytes.Replace(enc, []byte("END PRIVATE"), []byte("END PUBLIC"), 1),
		bytes.Replace(enc, []byte("MIL/"), []byte("MI L/"), 1),
		bytes.Replace(enc, []byte("\n-----END"), []byte("-----END"), 1),
		enc[:len(enc)-3],
		[]byte("-----BEGIN PRIVATE KEY-----\n!!!!\n-----END PRIVATE KEY-----\n"),
		[]byte("-----BEGIN PRIVATE KEY-----"),
	} {
		if _, _, ok := canonicalPEM(data); ok {
			checkCanonicalPEM(t, data)
			t.Errorf("%q: read as canonical", data)
		}
	}
}

// FuzzCanonicalPEM: whatever canonicalPEM reads, pem.Decode reads the
// same way.
func FuzzCanonicalPEM(f *testing.F) {
	f.Add(pem.EncodeToMemory(&pem.Block{Type: "PRIVATE KEY", Bytes: []byte{1, 2, 3, 4, 5}}))
	f.Add([]byte("-----BEGIN PUBLIC KEY-----\n-----END PUBLIC KEY-----\n"))
	f.Add([]byte("-----BEGIN EC PRIVATE KEY-----\nAAA=\n-----END EC PRIVATE KEY----- \n"))
	f.Fuzz(func(t *testing.T, data []byte) { checkCanonicalPEM(t, data) })
}
