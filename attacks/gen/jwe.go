package main

import (
	"bytes"
	"compress/flate"
	"crypto/aes"
	"crypto/cipher"
	"crypto/ecdh"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/hmac"
	"crypto/pbkdf2"
	"crypto/rsa"
	"crypto/sha256"
	"crypto/x509"
	"encoding/binary"
	"fmt"
	"math/big"
	"strings"

	"github.com/signet-go/signet/attacks"
)

// JWE (RFC 7516 compact) cases, built by hand: AES-GCM and AES-CBC with
// HMAC-SHA-256 from the standard library, AES key wrap (RFC 3394), the
// Concat KDF (RFC 7518 §4.6.2), PBES2 and RSA-OAEP/PKCS #1 v1.5 padding
// written out here, with fixed IVs, CEKs, salts and ephemeral keys so that
// the output is deterministic.

// jweKeys are the JWE verifiers' keys.
type jweKeys struct {
	dir, cbc, kw []byte // dir+A256GCM, dir+A128CBC-HS256, A256KW
	password     []byte // PBES2-HS256+A128KW
	ec           *ecdh.PrivateKey
	ecPEM        string // the same key, PKCS #8
	rsaPEM       string // g.rsa, PKCS #8
}

func (g *gen) jweKeys() jweKeys {
	k := jweKeys{
		dir:      derive("JWE dir A256GCM key", 32),
		cbc:      derive("JWE dir A128CBC-HS256 key", 32),
		kw:       derive("JWE A256KW key", 32),
		password: []byte("corpus-password-0123456789"),
	}
	priv := must(ecdsa.ParseRawPrivateKey(elliptic.P256(), derive("JWE ECDH-ES P-256 key", 32)))
	k.ec = must(priv.ECDH())
	k.ecPEM = pemOf("PRIVATE KEY", must(x509.MarshalPKCS8PrivateKey(priv)))
	k.rsaPEM = pemOf("PRIVATE KEY", must(x509.MarshalPKCS8PrivateKey(g.rsa)))
	return k
}

// jweParts is a compact JWE's five segments, raw.
type jweParts struct {
	header       string // the protected header's JSON
	ek, iv, ct   []byte
	tag          []byte
	headerB64    string // when set, the header segment as sent (else seg(header))
	encodedExtra string // appended to the token as sent
}

func (p jweParts) String() string {
	h := p.headerB64
	if h == "" {
		h = seg(p.header)
	}
	return strings.Join([]string{h, b64u(p.ek), b64u(p.iv), b64u(p.ct), b64u(p.tag)}, ".") + p.encodedExtra
}

// seal encrypts pt under cek with enc, the header (as encoded) the AAD.
func seal(enc string, cek, iv []byte, header string, pt []byte) (ct, tag []byte) {
	aad := []byte(seg(header))
	switch enc {
	case "A256GCM", "A128GCM":
		g := must(cipher.NewGCM(must(aes.NewCipher(cek))))
		out := g.Seal(nil, iv, pt, aad)
		return out[:len(out)-16], out[len(out)-16:]
	case "A128CBC-HS256":
		n := 16 - len(pt)%16
		padded := append(append([]byte(nil), pt...), bytes.Repeat([]byte{byte(n)}, n)...)
		return cbcSeal(cek, iv, aad, padded)
	}
	panic("gen: no enc " + enc)
}

// cbcSeal is AES-CBC over an already padded plaintext, with the RFC 7518
// §5.2.2 tag (HMAC-SHA-256 over AAD ‖ IV ‖ C ‖ AL, first 16 bytes).
func cbcSeal(cek, iv, aad, padded []byte) (ct, tag []byte) {
	ct = make([]byte, len(padded))
	cipher.NewCBCEncrypter(must(aes.NewCipher(cek[16:])), iv).CryptBlocks(ct, padded)
	m := hmac.New(sha256.New, cek[:16])
	m.Write(aad)
	m.Write(iv)
	m.Write(ct)
	m.Write(binary.BigEndian.AppendUint64(nil, uint64(len(aad))*8))
	return ct, m.Sum(nil)[:16]
}

// kwWrap is RFC 3394 AES key wrap.
func kwWrap(kek, key []byte) []byte {
	b := must(aes.NewCipher(kek))
	n := len(key) / 8
	r := append(make([]byte, 8), key...)
	a := uint64(0xA6A6A6A6A6A6A6A6)
	var buf [16]byte
	for j := range 6 {
		for i := 1; i <= n; i++ {
			binary.BigEndian.PutUint64(buf[:8], a)
			copy(buf[8:], r[8*i:8*i+8])
			b.Encrypt(buf[:], buf[:])
			a = binary.BigEndian.Uint64(buf[:8]) ^ uint64(n*j+i)
			copy(r[8*i:], buf[8:])
		}
	}
	binary.BigEndian.PutUint64(r[:8], a)
	return r
}

// concatKDF is RFC 7518 §4.6.2 with empty apu and apv, one SHA-256 round.
func concatKDF(z []byte, alg string, size int) []byte {
	in := binary.BigEndian.AppendUint32(nil, 1)
	in = append(in, z...)
	in = binary.BigEndian.AppendUint32(in, uint32(len(alg)))
	in = append(in, alg...)
	in = binary.BigEndian.AppendUint32(in, 0)
	in = binary.BigEndian.AppendUint32(in, 0)
	in = binary.BigEndian.AppendUint32(in, uint32(size*8))
	sum := sha256.Sum256(in)
	return sum[:size]
}

// mgf1 is MGF1 with SHA-256 (RFC 8017 B.2.1).
func mgf1(seed []byte, n int) []byte {
	var out []byte
	for c := uint32(0); len(out) < n; c++ {
		h := sha256.Sum256(binary.BigEndian.AppendUint32(append([]byte(nil), seed...), c))
		out = append(out, h[:]...)
	}
	return out[:n]
}

// rsaRaw is m^e mod n, left-padded to the modulus size.
func rsaRaw(pub *rsa.PublicKey, em []byte) []byte {
	c := new(big.Int).Exp(new(big.Int).SetBytes(em), big.NewInt(int64(pub.E)), pub.N)
	return c.FillBytes(make([]byte, pub.Size()))
}

// oaep256 encrypts msg with RSA-OAEP (SHA-256, MGF1-SHA-256, empty label)
// with a fixed seed (RFC 8017 §7.1.1).
func oaep256(pub *rsa.PublicKey, msg, seed []byte) []byte {
	k := pub.Size()
	lHash := sha256.Sum256(nil)
	db := make([]byte, k-32-1)
	copy(db, lHash[:])
	db[len(db)-len(msg)-1] = 1
	copy(db[len(db)-len(msg):], msg)
	for i, m := range mgf1(seed, len(db)) {
		db[i] ^= m
	}
	s := append([]byte(nil), seed...)
	for i, m := range mgf1(db, 32) {
		s[i] ^= m
	}
	return rsaRaw(pub, append(append([]byte{0}, s...), db...))
}

// pkcs1v15 encrypts msg with RSAES-PKCS1-v1_5, its padding derived from a
// label (nonzero bytes).
func pkcs1v15(pub *rsa.PublicKey, msg []byte) []byte {
	ps := derive("JWE RSA1_5 padding", 64)
	for len(ps) < pub.Size()-3-len(msg) {
		ps = append(ps, ps...)
	}
	ps = ps[:pub.Size()-3-len(msg)]
	for i := range ps {
		if ps[i] == 0 {
			ps[i] = 1
		}
	}
	return rsaRaw(pub, append(append(append([]byte{0, 2}, ps...), 0), msg...))
}

// epkJSON is an EC JWK of a public point, x and y given.
func epkJSON(crv string, x, y []byte) string {
	return fmt.Sprintf(`{"kty":"EC","crv":%q,"x":%q,"y":%q}`, crv, b64u(x), b64u(y))
}

// deflate compresses b (RFC 1951), as a JWE with zip DEF carries it.
func deflate(b []byte) []byte {
	var buf bytes.Buffer
	w := must(flate.NewWriter(&buf, flate.BestCompression))
	w.Write(b)
	w.Close()
	return buf.Bytes()
}

func (g *gen) jwe() []attacks.Case {
	k := g.jweKeys()
	good := []byte(claims("user@example.com", exp))
	iv12 := derive("JWE GCM IV", 12)
	iv16 := derive("JWE CBC IV", 16)
	cek32 := derive("JWE CEK 32", 32)
	cek16 := derive("JWE CEK 16", 16)

	keyDir := attacks.Key{Secret: b64u(k.dir)}
	keyCBC := attacks.Key{Secret: b64u(k.cbc)}
	keyKW := attacks.Key{Secret: b64u(k.kw)}
	keyPW := attacks.Key{Secret: b64u(k.password)}
	keyEC := attacks.Key{PEM: k.ecPEM}
	keyRSA := attacks.Key{PEM: k.rsaPEM}

	// dir + A256GCM, header h, plaintext pt.
	dirTok := func(h string, pt []byte) jweParts {
		ct, tag := seal("A256GCM", k.dir, iv12, h, pt)
		return jweParts{header: h, iv: iv12, ct: ct, tag: tag}
	}
	const hDir = `{"alg":"dir","enc":"A256GCM"}`
	const hCBC = `{"alg":"dir","enc":"A128CBC-HS256"}`
	cbcTok := func(h string, pt []byte) jweParts {
		ct, tag := seal("A128CBC-HS256", k.cbc, iv16, h, pt)
		return jweParts{header: h, iv: iv16, ct: ct, tag: tag}
	}
	const hKW = `{"alg":"A256KW","enc":"A256GCM"}`
	kwTok := func(kek []byte, pt []byte) jweParts {
		ct, tag := seal("A256GCM", cek32, iv12, hKW, pt)
		return jweParts{header: hKW, ek: kwWrap(kek, cek32), iv: iv12, ct: ct, tag: tag}
	}
	// ECDH-ES+A256KW with the ephemeral key eph (its public point as
	// epk, or the epk given).
	eph := must(ecdh.P256().NewPrivateKey(derive("JWE ECDH-ES ephemeral key", 32)))
	ephPub := eph.PublicKey().Bytes()
	ecTok := func(epk string) jweParts {
		z := must(eph.ECDH(k.ec.PublicKey()))
		h := `{"alg":"ECDH-ES+A256KW","enc":"A256GCM","epk":` + epk + `}`
		ct, tag := seal("A256GCM", cek32, iv12, h, good)
		return jweParts{header: h, ek: kwWrap(concatKDF(z, "ECDH-ES+A256KW", 32), cek32), iv: iv12, ct: ct, tag: tag}
	}
	goodEPK := epkJSON("P-256", ephPub[1:33], ephPub[33:])
	// PBES2-HS256+A128KW with p2c.
	p2s := derive("JWE PBES2 salt", 16)
	pbesTok := func(p2c int, real bool) jweParts {
		h := fmt.Sprintf(`{"alg":"PBES2-HS256+A128KW","enc":"A128GCM","p2s":%q,"p2c":%d}`, b64u(p2s), p2c)
		ct, tag := seal("A128GCM", cek16, iv12, h, good)
		ek := derive("JWE PBES2 unwrapped filler", 24)
		if real {
			salt := append([]byte("PBES2-HS256+A128KW\x00"), p2s...)
			ek = kwWrap(must(pbkdf2.Key(sha256.New, string(k.password), salt, p2c, 16)), cek16)
		}
		return jweParts{header: h, ek: ek, iv: iv12, ct: ct, tag: tag}
	}
	const hRSA = `{"alg":"RSA-OAEP-256","enc":"A256GCM"}`
	rsaTok := func() jweParts {
		ct, tag := seal("A256GCM", cek32, iv12, hRSA, good)
		return jweParts{header: hRSA, ek: oaep256(&g.rsa.PublicKey, cek32, derive("JWE OAEP seed", 32)), iv: iv12, ct: ct, tag: tag}
	}
	if got, err := rsa.DecryptOAEP(sha256.New(), nil, g.rsa, rsaTok().ek, nil); err != nil || !bytes.Equal(got, cek32) {
		panic("gen: the hand-made RSA-OAEP-256 does not decrypt")
	}

	flip := func(b []byte, i int) []byte {
		out := append([]byte(nil), b...)
		out[i] ^= 0x01
		return out
	}
	with := func(p jweParts, f func(*jweParts)) string { f(&p); return p.String() }

	refs7516 := []string{"RFC 7516 §5.2"}
	var cs []attacks.Case
	add := func(id, title, alg, enc string, key attacks.Key, tok, sentinel string, refs []string, notes string) {
		cs = append(cs, attacks.Case{ID: "jwe-" + id, Title: title, Alg: alg, Enc: enc, Key: key, Token: tok, SignetError: sentinel, References: refs, Notes: notes})
	}

	// Controls.
	add("control-dir-a256gcm", "Valid dir + A256GCM token (control)", "dir", "A256GCM", keyDir, dirTok(hDir, good).String(), "", []string{"RFC 7516 §5.1", "RFC 7518 §4.5, §5.3"}, "")
	add("control-dir-a128cbc-hs256", "Valid dir + A128CBC-HS256 token (control)", "dir", "A128CBC-HS256", keyCBC, cbcTok(hCBC, good).String(), "", []string{"RFC 7518 §5.2"}, "")
	add("control-a256kw", "Valid A256KW + A256GCM token (control)", "A256KW", "A256GCM", keyKW, kwTok(k.kw, good).String(), "", []string{"RFC 7518 §4.4"}, "")
	add("control-ecdh-es-a256kw", "Valid ECDH-ES+A256KW + A256GCM token, P-256 (control)", "ECDH-ES+A256KW", "A256GCM", keyEC, ecTok(goodEPK).String(), "", []string{"RFC 7518 §4.6"}, "")
	add("control-rsa-oaep-256", "Valid RSA-OAEP-256 + A256GCM token (control)", "RSA-OAEP-256", "A256GCM", keyRSA, rsaTok().String(), "", []string{"RFC 7518 §4.3"}, "")
	add("control-pbes2", "Valid PBES2-HS256+A128KW + A128GCM token, p2c 10000 (control)", "PBES2-HS256+A128KW", "A128GCM", keyPW, pbesTok(10000, true).String(), "", []string{"RFC 7518 §4.8"}, "p2c 10000: jwx's default decryption cap, within signet's and go-jose's")

	// Key agreement.
	offCurve := append([]byte(nil), ephPub[33:]...)
	offCurve[31] ^= 0x01
	add("ecdh-invalid-curve-epk", "ECDH-ES epk off the P-256 curve (invalid-curve attack)", "ECDH-ES+A256KW", "A256GCM", keyEC, ecTok(epkJSON("P-256", ephPub[1:33], offCurve)).String(), "signet.ErrWeakKey",
		[]string{"CVE-2017-16007", "RFC 8725 §3.4", "RFC 7518 §4.6", "SEC 1 §3.2.2"}, "A point off the curve lets the attacker learn the private key modulo small orders, one crafted token at a time (the 2017 invalid-curve advisories against JOSE libraries, CVE-2017-16007 among them)")
	eph384 := must(ecdh.P384().NewPrivateKey(derive("JWE P-384 ephemeral key", 48))).PublicKey().Bytes()
	add("ecdh-wrong-curve-epk-p384", "ECDH-ES epk on P-384 for a P-256 key", "ECDH-ES+A256KW", "A256GCM", keyEC, ecTok(epkJSON("P-384", eph384[1:49], eph384[49:])).String(), "signet.ErrWeakKey",
		[]string{"RFC 7518 §4.6.1.1", "RFC 8725 §3.4"}, "The epk must be on the recipient key's curve")
	ephX := must(ecdh.X25519().NewPrivateKey(derive("JWE X25519 ephemeral key", 32))).PublicKey().Bytes()
	add("ecdh-wrong-curve-epk-x25519", "ECDH-ES epk on X25519 for a P-256 key", "ECDH-ES+A256KW", "A256GCM", keyEC, ecTok(fmt.Sprintf(`{"kty":"OKP","crv":"X25519","x":%q}`, b64u(ephX))).String(), "signet.ErrWeakKey",
		[]string{"RFC 8037 §3.2", "RFC 7518 §4.6.1.1"}, "")

	// PBES2 iteration counts.
	add("pbes2-p2c-1e9", "PBES2 p2c of 10^9 (a CPU denial of service)", "PBES2-HS256+A128KW", "A128GCM", keyPW, pbesTok(1_000_000_000, false).String(), "signet.ErrTooLarge",
		[]string{"CVE-2022-36083", "RFC 7518 §4.8.1.2"}, "A verifier must refuse the count before any PBKDF2 work: 10^9 iterations are minutes of CPU per token (jose npm's CVE-2022-36083; jwx and go-jose now cap p2c)")
	add("pbes2-p2c-1", "PBES2 p2c of 1 (below RFC 7518's 1000)", "PBES2-HS256+A128KW", "A128GCM", keyPW, pbesTok(1, true).String(), "signet.ErrWeakKey",
		[]string{"RFC 7518 §4.8.1.2"}, "")

	// Refused features.
	bomb := []byte(strings.TrimSuffix(string(good), "}") + `,"pad":"` + strings.Repeat("A", 4<<20) + `"}`)
	const hZip = `{"alg":"dir","enc":"A256GCM","zip":"DEF"}`
	add("zip-deflate-bomb", "zip DEF: 4 MiB of claims deflated to a few KiB", "dir", "A256GCM", keyDir, dirTok(hZip, deflate(bomb)).String(), "signet.ErrUnsupported",
		[]string{"CVE-2024-28180", "RFC 7516 §4.1.3", "RFC 8725 §3.6"}, "Inflating attacker-chosen data is a decompression bomb (go-jose's CVE-2024-28180; jwx bounds it with WithMaxDecompressBufferSize); compressing before encrypting leaks the plaintext through its length")
	const hCrit = `{"alg":"dir","enc":"A256GCM","crit":["urn:example:must-check"],"urn:example:must-check":true}`
	add("crit-unknown", "crit names an extension the verifier does not understand", "dir", "A256GCM", keyDir, dirTok(hCrit, good).String(), "signet.ErrUnsupported",
		[]string{"RFC 7516 §4.1.13", "RFC 7515 §4.1.11"}, "")
	const h15 = `{"alg":"RSA1_5","enc":"A256GCM"}`
	ct15, tag15 := seal("A256GCM", cek32, iv12, h15, good)
	add("rsa1_5", "alg RSA1_5 (PKCS #1 v1.5 key transport, a padding oracle) to an RSA-OAEP-256 key", "RSA-OAEP-256", "A256GCM", keyRSA,
		jweParts{header: h15, ek: pkcs1v15(&g.rsa.PublicKey, cek32), iv: iv12, ct: ct15, tag: tag15}.String(), "signet.ErrUnsupported",
		[]string{"RFC 8725 §3.2", "RFC 7516 §11.5", "Bleichenbacher 1998"}, "")

	// alg/enc swaps.
	swapKW := kwTok(k.dir, good)
	add("alg-swap-a256kw-to-dir-key", "alg A256KW to a dir key (the same 32 bytes used as a KEK)", "dir", "A256GCM", keyDir, swapKW.String(), "signet.ErrAlgorithmMismatch",
		[]string{"RFC 7516 §10.9", "RFC 8725 §3.1"}, "The key, not the header, decides the algorithm")
	swapEnc := jweParts{header: hCBC, iv: iv16}
	swapEnc.ct, swapEnc.tag = seal("A128CBC-HS256", k.dir, iv16, hCBC, good)
	add("enc-swap-cbc-to-gcm-key", "enc A128CBC-HS256 to a dir + A256GCM key (same key size)", "dir", "A256GCM", keyDir, swapEnc.String(), "signet.ErrAlgorithmMismatch",
		[]string{"RFC 7516 §10.9", "RFC 8725 §3.1"}, "")
	add("alg-none", `alg "none" to a dir key`, "dir", "A256GCM", keyDir, dirTok(`{"alg":"none","enc":"A256GCM"}`, good).String(), "signet.ErrAlgorithmMismatch",
		[]string{"RFC 8725 §3.1", "RFC 7518 §3.6"}, "")
	add("alg-swap-dir-to-ecdh-key", "alg dir to an ECDH-ES+A256KW key", "ECDH-ES+A256KW", "A256GCM", keyEC, dirTok(hDir, good).String(), "signet.ErrAlgorithmMismatch",
		[]string{"RFC 7516 §10.9"}, "")

	// Authentication.
	ok := dirTok(hDir, good)
	add("tag-truncated", "GCM tag truncated to 8 bytes", "dir", "A256GCM", keyDir, with(ok, func(p *jweParts) { p.tag = p.tag[:8] }), "signet.ErrMalformed",
		[]string{"RFC 7518 §5.3", "CWE-347"}, "A verifier that takes a short tag is forgeable by brute force")
	add("tag-bit-flip", "GCM tag with one bit flipped", "dir", "A256GCM", keyDir, with(ok, func(p *jweParts) { p.tag = flip(p.tag, 5) }), "signet.ErrSignatureInvalid", refs7516, "")
	add("ciphertext-bit-flip", "Ciphertext with one bit flipped", "dir", "A256GCM", keyDir, with(ok, func(p *jweParts) { p.ct = flip(p.ct, 3) }), "signet.ErrSignatureInvalid", refs7516, "")
	add("iv-bit-flip", "IV with one bit flipped", "dir", "A256GCM", keyDir, with(ok, func(p *jweParts) { p.iv = flip(p.iv, 0) }), "signet.ErrSignatureInvalid", refs7516, "")
	add("header-tampered", "Protected header changed after encryption (a kid added)", "dir", "A256GCM", keyDir, with(ok, func(p *jweParts) { p.header = `{"alg":"dir","enc":"A256GCM","kid":"x"}` }), "signet.ErrSignatureInvalid",
		[]string{"RFC 7516 §5.1 step 14"}, "The encoded header is the AAD")
	okCBC := cbcTok(hCBC, good)
	add("cbc-tag-bit-flip", "A128CBC-HS256 tag with one bit flipped", "dir", "A128CBC-HS256", keyCBC, with(okCBC, func(p *jweParts) { p.tag = flip(p.tag, 7) }), "signet.ErrSignatureInvalid", []string{"RFC 7518 §5.2.2.2"}, "")
	badPad := append(append([]byte(nil), good...), bytes.Repeat([]byte{0}, 16-len(good)%16)...)
	bp := jweParts{header: hCBC, iv: iv16}
	bp.ct, bp.tag = cbcSeal(k.cbc, iv16, []byte(seg(hCBC)), badPad)
	add("cbc-bad-padding-valid-tag", "A128CBC-HS256 with a valid tag over invalid PKCS #7 padding", "dir", "A128CBC-HS256", keyCBC, bp.String(), "signet.ErrMalformed",
		[]string{"RFC 7518 §5.2.2.2", "Vaudenay 2002"}, "The tag is checked first, so only the key's holder can reach the padding check: no padding oracle")
	add("kw-wrong-kek", "A256KW token wrapped under another key", "A256KW", "A256GCM", keyKW, kwTok(derive("JWE attacker KEK", 32), good).String(), "signet.ErrSignatureInvalid",
		[]string{"RFC 3394 §2.2.3"}, "")

	// Structure and size.
	add("segments-four", "Four segments (the tag dropped)", "dir", "A256GCM", keyDir, strings.Join(strings.Split(ok.String(), ".")[:4], "."), "signet.ErrMalformed", []string{"RFC 7516 §7.1"}, "")
	add("segments-six", "Six segments", "dir", "A256GCM", keyDir, ok.String()+".AAAA", "signet.ErrMalformed", []string{"RFC 7516 §7.1"}, "")
	add("segment-padded", "Ciphertext segment with base64 padding", "dir", "A256GCM", keyDir, func() string {
		s := strings.Split(ok.String(), ".")
		s[3] += "=="
		return strings.Join(s, ".")
	}(), "signet.ErrMalformed", []string{"RFC 7515 §2", "RFC 7516 §2"}, "base64url without padding only")
	add("dir-with-encrypted-key", "dir token with a non-empty encrypted key", "dir", "A256GCM", keyDir, with(ok, func(p *jweParts) { p.ek = cek32 }), "signet.ErrMalformed", []string{"RFC 7518 §4.5"}, "")
	add("iv-wrong-size", "GCM IV of 16 bytes", "dir", "A256GCM", keyDir, func() string {
		p := jweParts{header: hDir, iv: iv16}
		g := must(cipher.NewGCMWithNonceSize(must(aes.NewCipher(k.dir)), 16))
		out := g.Seal(nil, iv16, good, []byte(seg(hDir)))
		p.ct, p.tag = out[:len(out)-16], out[len(out)-16:]
		return p.String()
	}(), "signet.ErrMalformed", []string{"RFC 7518 §5.3"}, "A256GCM's IV is 96 bits")
	big := []byte(strings.TrimSuffix(string(good), "}") + `,"pad":"` + strings.Repeat("B", 70<<10) + `"}`)
	add("oversized", "A valid token of 93 KiB (over 64 KiB)", "dir", "A256GCM", keyDir, dirTok(hDir, big).String(), "signet.ErrTooLarge",
		[]string{"CWE-400"}, "A size limit before any parsing bounds the work an attacker can ask for")
	add("expired", "Valid encryption, claims expired", "dir", "A256GCM", keyDir, dirTok(hDir, []byte(claims("user@example.com", expired))).String(), "signet.ErrExpired",
		[]string{"RFC 7519 §4.1.4"}, "")
	return finish(cs)
}
