package signet

import (
	"crypto"
	"encoding/asn1"
	"errors"
	"testing"

	"golang.org/x/crypto/cryptobyte"
	cbasn1 "golang.org/x/crypto/cryptobyte/asn1"
)

// pssDER builds RSASSA-PSS-params from its fields' DER, each written
// under its context tag when not nil.
func pssDER(fields ...[]byte) []byte {
	var tagged [][]byte
	for i, f := range fields {
		if f != nil {
			tagged = append(tagged, taggedDER(i, f))
		}
	}
	return seqDER(tagged...)
}

// taggedDER is der under context tag [i], constructed.
func taggedDER(i int, der []byte) []byte {
	var b cryptobyte.Builder
	b.AddASN1(cbasn1.Tag(i).Constructed().ContextSpecific(), func(b *cryptobyte.Builder) { b.AddBytes(der) })
	return b.BytesOrPanic()
}

// seqDER is a SEQUENCE of the elements given.
func seqDER(elems ...[]byte) []byte {
	var b cryptobyte.Builder
	b.AddASN1(cbasn1.SEQUENCE, func(b *cryptobyte.Builder) {
		for _, e := range elems {
			b.AddBytes(e)
		}
	})
	return b.BytesOrPanic()
}

// hashAlgDER is a HashAlgorithm with the given OID, with NULL parameters
// unless noNull.
func hashAlgDER(oid asn1.ObjectIdentifier, noNull bool) []byte {
	var b cryptobyte.Builder
	b.AddASN1(cbasn1.SEQUENCE, func(b *cryptobyte.Builder) {
		b.AddASN1ObjectIdentifier(oid)
		if !noNull {
			b.AddASN1NULL()
		}
	})
	return b.BytesOrPanic()
}

// mgfDER is a MaskGenAlgorithm: oid with a HashAlgorithm as parameters.
func mgfDER(oid asn1.ObjectIdentifier, hash []byte) []byte {
	var b cryptobyte.Builder
	b.AddASN1(cbasn1.SEQUENCE, func(b *cryptobyte.Builder) {
		b.AddASN1ObjectIdentifier(oid)
		b.AddBytes(hash)
	})
	return b.BytesOrPanic()
}

func intDER(v int64) []byte {
	var b cryptobyte.Builder
	b.AddASN1Int64(v)
	return b.BytesOrPanic()
}

// TestReadPSSParams: RSASSA-PSS-params read field by field, with RFC
// 4055's defaults for fields left out, and anything else refused.
func TestReadPSSParams(t *testing.T) {
	var (
		sha1   = asn1.ObjectIdentifier{1, 3, 14, 3, 2, 26}
		sha256 = asn1.ObjectIdentifier{2, 16, 840, 1, 101, 3, 4, 2, 1}
		sha512 = asn1.ObjectIdentifier{2, 16, 840, 1, 101, 3, 4, 2, 3}
		md5    = asn1.ObjectIdentifier{1, 2, 840, 113549, 2, 5}
		mgf1   = asn1.ObjectIdentifier{1, 2, 840, 113549, 1, 1, 8}
		h256   = hashAlgDER(sha256, false)
		m256   = mgfDER(mgf1, h256)
	)
	ok := []struct {
		name string
		der  []byte
		want pssParams
	}{
		{"absent", nil, pssParams{}},
		{"all defaults left out", pssDER(), pssParams{hash: crypto.SHA1, minSalt: 20}},
		{"defaults written out", pssDER(hashAlgDER(sha1, false), mgfDER(mgf1, hashAlgDER(sha1, false)), intDER(20), intDER(1)), pssParams{hash: crypto.SHA1, minSalt: 20}},
		{"OpenSSL's SHA-256", pssDER(h256, m256, intDER(32)), pssParams{hash: crypto.SHA256, minSalt: 32}},
		{"hash without NULL", pssDER(hashAlgDER(sha512, true), mgfDER(mgf1, hashAlgDER(sha512, true))), pssParams{hash: crypto.SHA512, minSalt: 20}},
		{"salt 0", pssDER(h256, m256, intDER(0)), pssParams{hash: crypto.SHA256}},
		{"largest salt", pssDER(h256, m256, intDER(maxPSSSalt)), pssParams{hash: crypto.SHA256, minSalt: maxPSSSalt}},
	}
	for _, c := range ok {
		got, err := readPSSParams(c.der)
		if err != nil || got != c.want {
			t.Errorf("%s: %+v, %v; want %+v", c.name, got, err, c.want)
		}
	}
	bad := []struct {
		name string
		der  []byte
		want error
	}{
		{"NULL", []byte{5, 0}, ErrMalformed},
		{"empty", []byte{}, ErrMalformed},
		{"bytes after the SEQUENCE", append(pssDER(h256, m256), 0), ErrMalformed},
		{"bytes after the last field", seqDER(taggedDER(0, h256), taggedDER(1, m256), []byte{5, 0}), ErrMalformed},
		{"fields out of order", seqDER(taggedDER(1, m256), taggedDER(0, h256)), ErrMalformed},
		{"a field not constructed", seqDER([]byte{0x80, 1, 0}), ErrMalformed},
		{"unknown hash", pssDER(hashAlgDER(md5, false), mgfDER(mgf1, hashAlgDER(md5, false))), ErrMalformed},
		{"hash with other parameters", pssDER(seqDER(h256[2:13], intDER(0))), ErrMalformed},
		{"two hashes", pssDER(append(h256, h256...)), ErrMalformed},
		{"MGF other than MGF1", pssDER(h256, mgfDER(sha256, h256)), ErrMalformed},
		{"MGF1 without a hash", pssDER(h256, mgfDER(mgf1, nil)), ErrMalformed},
		{"MGF1 with another hash", pssDER(h256, mgfDER(mgf1, hashAlgDER(sha512, false))), ErrUnsupported},
		{"MGF1 left out (SHA-1) with SHA-256", pssDER(h256), ErrUnsupported},
		{"negative salt", pssDER(h256, m256, intDER(-1)), ErrMalformed},
		{"salt too long for any key", pssDER(h256, m256, intDER(maxPSSSalt+1)), ErrMalformed},
		{"salt not an INTEGER", pssDER(h256, m256, []byte{4, 1, 32}), ErrMalformed},
		{"trailer 2", pssDER(h256, m256, intDER(32), intDER(2)), ErrMalformed},
		{"a fifth field", pssDER(h256, m256, intDER(32), intDER(1), intDER(0)), ErrMalformed},
	}
	for _, c := range bad {
		if got, err := readPSSParams(c.der); !errors.Is(err, c.want) {
			t.Errorf("%s (% x): %+v, %v; want %v", c.name, c.der, got, err, c.want)
		}
	}
}

// FuzzReadPSSParams: any DER is read or refused with ErrMalformed or
// ErrUnsupported, never a panic; what is read names a hash signet knows
// the size of and a salt within bounds, and the same DER with a byte after
// it is refused.
func FuzzReadPSSParams(f *testing.F) {
	sha256 := asn1.ObjectIdentifier{2, 16, 840, 1, 101, 3, 4, 2, 1}
	h256 := hashAlgDER(sha256, false)
	f.Add(pssDER())
	f.Add(pssDER(h256, mgfDER(asn1.ObjectIdentifier{1, 2, 840, 113549, 1, 1, 8}, h256), intDER(32), intDER(1)))
	f.Add([]byte{5, 0})
	f.Fuzz(func(t *testing.T, der []byte) {
		if der == nil {
			der = []byte{}
		}
		p, err := readPSSParams(der)
		if err != nil {
			if !errors.Is(err, ErrMalformed) && !errors.Is(err, ErrUnsupported) {
				t.Fatalf("error wraps neither ErrMalformed nor ErrUnsupported: %v", err)
			}
			return
		}
		if p.hash.Size() == 0 || p.minSalt < 0 || p.minSalt > maxPSSSalt {
			t.Fatalf("read %+v", p)
		}
		if _, err := readPSSParams(append(der[:len(der):len(der)], 0)); err == nil {
			t.Fatal("a byte after the parameters was ignored")
		}
	})
}
