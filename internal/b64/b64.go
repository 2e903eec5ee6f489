// Package b64 is strict unpadded base64url (RFC 4648 §5), the encoding of
// JWS, PASETO and PASERK: no padding, no line breaks, no characters outside
// the alphabet, and no non-zero trailing bits, so every byte string has
// exactly one encoding. It encodes three bytes per table step and decodes
// four characters per step, without allocating.
package b64

import (
	"encoding/binary"
	"errors"

	"github.com/signet-go/signet/internal/unsafex"
)

// ErrInvalid reports input that is not strict unpadded base64url.
var ErrInvalid = errors.New("not strict base64url")

const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"

// pairs maps 12 bits to their two characters; dec maps a character to its
// 6 bits, or 0xFF outside the alphabet. Both are constant after init.
var (
	pairs [4096][2]byte
	pair  [4096]uint16 // pairs as little-endian uint16, for 8-byte stores
	url   = newDecoder("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_")
	std   = newDecoder("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/")
)

// decoder holds the decoding tables of one alphabet. dec maps a character
// to its 6 bits, or 0xFF outside the alphabet; dec0..dec3 hold each
// character's 6 bits pre-shifted to its place in a 24-bit group, or bad (a
// bit above the group) outside the alphabet: four characters decode with
// four loads and three ORs.
type decoder struct {
	dec                    [256]byte
	dec0, dec1, dec2, dec3 [256]uint32
}

func newDecoder(alphabet string) *decoder {
	d := new(decoder)
	for i := range d.dec {
		d.dec[i] = 0xFF
		d.dec0[i], d.dec1[i], d.dec2[i], d.dec3[i] = bad, bad, bad, bad
	}
	for i := 0; i < len(alphabet); i++ {
		c := alphabet[i]
		d.dec[c] = byte(i)
		d.dec0[c], d.dec1[c], d.dec2[c], d.dec3[c] = uint32(i)<<18, uint32(i)<<12, uint32(i)<<6, uint32(i)
	}
	return d
}

const bad = 1 << 31

func init() {
	for i := range pairs {
		pairs[i] = [2]byte{alphabet[i>>6], alphabet[i&63]}
		pair[i] = uint16(alphabet[i>>6]) | uint16(alphabet[i&63])<<8
	}
}

// EncodedLen is the length of the encoding of n bytes.
func EncodedLen(n int) int { return (n*8 + 5) / 6 }

// DecodedLen is the length of the bytes that n characters decode to, when
// n is a valid length (n mod 4 ≠ 1).
func DecodedLen(n int) int { return n * 6 / 8 }

// AppendEncode appends the encoding of src to dst.
func AppendEncode(dst, src []byte) []byte {
	n := EncodedLen(len(src))
	start := len(dst)
	if cap(dst)-start < n {
		grown := make([]byte, start, start+n)
		copy(grown, dst)
		dst = grown
	}
	out := dst[start : start+n]
	// Six bytes to eight characters per step, reading and writing 8 bytes;
	// two steps at a time while there is room, which lets the two lookups
	// chains overlap.
	in, o := src, out
	for len(in) >= 14 && len(o) >= 16 {
		v := binary.BigEndian.Uint64(in)
		w := binary.BigEndian.Uint64(in[6:])
		x := uint64(pair[v>>52]) | uint64(pair[v>>40&0xFFF])<<16 | uint64(pair[v>>28&0xFFF])<<32 | uint64(pair[v>>16&0xFFF])<<48
		y := uint64(pair[w>>52]) | uint64(pair[w>>40&0xFFF])<<16 | uint64(pair[w>>28&0xFFF])<<32 | uint64(pair[w>>16&0xFFF])<<48
		binary.LittleEndian.PutUint64(o, x)
		binary.LittleEndian.PutUint64(o[8:], y)
		in, o = in[12:], o[16:]
	}
	for len(in) >= 8 && len(o) >= 8 {
		v := binary.BigEndian.Uint64(in)
		x := uint64(pair[v>>52]) | uint64(pair[v>>40&0xFFF])<<16 | uint64(pair[v>>28&0xFFF])<<32 | uint64(pair[v>>16&0xFFF])<<48
		binary.LittleEndian.PutUint64(o, x)
		in, o = in[6:], o[8:]
	}
	i, j := len(src)-len(in), len(out)-len(o)
	for ; i+3 <= len(src); i, j = i+3, j+4 {
		v := uint(src[i])<<16 | uint(src[i+1])<<8 | uint(src[i+2])
		p, q := pairs[v>>12], pairs[v&0xFFF]
		out[j], out[j+1], out[j+2], out[j+3] = p[0], p[1], q[0], q[1]
	}
	switch len(src) - i {
	case 2:
		v := uint(src[i])<<16 | uint(src[i+1])<<8
		p := pairs[v>>12]
		out[j], out[j+1], out[j+2] = p[0], p[1], alphabet[v>>6&63]
	case 1:
		p := pairs[uint(src[i])<<4]
		out[j], out[j+1] = p[0], p[1]
	}
	return dst[:start+n]
}

// EncodeToString returns the encoding of src.
func EncodeToString(src []byte) string { return string(AppendEncode(nil, src)) }

// Decode decodes src into dst, which must have room for DecodedLen(len(src))
// bytes, and returns the number of bytes written.
func Decode(dst []byte, src string) (int, error) { return url.decode(dst, src) }

// DecodeStd decodes strict padded standard base64 (RFC 4648 §4, the Byte
// Sequences of HTTP Structured Fields): the length a multiple of 4, '='
// only as the one or two final characters, and no non-zero bits under the
// padding. dst must have room for DecodedLen(len(src)) bytes.
func DecodeStd(dst []byte, src string) (int, error) {
	if len(src)%4 != 0 {
		return 0, ErrInvalid
	}
	switch {
	case len(src) >= 2 && src[len(src)-2] == '=':
		if src[len(src)-1] != '=' {
			return 0, ErrInvalid
		}
		src = src[:len(src)-2]
	case len(src) >= 1 && src[len(src)-1] == '=':
		src = src[:len(src)-1]
	}
	return std.decode(dst, src)
}

func (d *decoder) decode(dst []byte, src string) (int, error) {
	dec, dec0, dec1, dec2, dec3 := &d.dec, &d.dec0, &d.dec1, &d.dec2, &d.dec3
	n := DecodedLen(len(src))
	if len(src)%4 == 1 || len(dst) < n {
		return 0, ErrInvalid
	}
	// Eight characters to six bytes per step, writing 8 bytes (the last two
	// overwritten by the next step or the tail), never past dst[:n].
	dst = dst[:n]
	in, o := src, dst
	for len(in) >= 8 && len(o) >= 8 {
		v := dec0[in[0]] | dec1[in[1]] | dec2[in[2]] | dec3[in[3]]
		w := dec0[in[4]] | dec1[in[5]] | dec2[in[6]] | dec3[in[7]]
		if (v|w)&bad != 0 {
			return 0, ErrInvalid
		}
		binary.BigEndian.PutUint64(o, uint64(v)<<40|uint64(w)<<16)
		in, o = in[8:], o[6:]
	}
	i, j := len(src)-len(in), len(dst)-len(o)
	for ; i+4 <= len(src); i, j = i+4, j+3 {
		in := src[i : i+4]
		v := dec0[in[0]] | dec1[in[1]] | dec2[in[2]] | dec3[in[3]]
		if v&bad != 0 {
			return 0, ErrInvalid
		}
		o := dst[j : j+3]
		o[0], o[1], o[2] = byte(v>>16), byte(v>>8), byte(v)
	}
	switch len(src) - i {
	case 3:
		a, b, c := dec[src[i]], dec[src[i+1]], dec[src[i+2]]
		if (a|b|c)&0x80 != 0 || c&3 != 0 {
			return 0, ErrInvalid
		}
		v := uint(a)<<18 | uint(b)<<12 | uint(c)<<6
		dst[j], dst[j+1] = byte(v>>16), byte(v>>8)
	case 2:
		a, b := dec[src[i]], dec[src[i+1]]
		if (a|b)&0x80 != 0 || b&15 != 0 {
			return 0, ErrInvalid
		}
		dst[j] = byte(uint(a)<<2 | uint(b)>>4)
	}
	return n, nil
}

// DecodeInto decodes src into buf, or into a new buffer when buf lacks
// the capacity (not cleared first: Decode writes all of it, and it is
// dropped on error), and returns the bytes decoded.
func DecodeInto(buf []byte, src string) ([]byte, error) {
	n := DecodedLen(len(src))
	if cap(buf) < n {
		buf = unsafex.MakeNoZero(n)[:n]
	}
	buf = buf[:n]
	if _, err := Decode(buf, src); err != nil {
		return nil, err
	}
	return buf, nil
}

// DecodeString returns the bytes src encodes.
func DecodeString(src string) ([]byte, error) {
	if len(src)%4 == 1 {
		return nil, ErrInvalid
	}
	out := make([]byte, DecodedLen(len(src)))
	if _, err := Decode(out, src); err != nil {
		return nil, err
	}
	return out, nil
}
