// Package sf parses and serializes HTTP Structured Field Values as defined
// by RFC 9651 (which obsoletes RFC 8941). It is the wire format of the
// Signature-Input, Signature and Accept-Signature fields of RFC 9421 (HTTP
// Message Signatures) and of Content-Digest and Repr-Digest (RFC 9530).
//
// A field is one of three top-level types, each with its own parser:
//
//	l, err := sf.ParseList(`sha-256, ("@method" "@path");created=1618884473`)
//	d, err := sf.ParseDictionary(`sig1=("@method" "@authority");keyid="k1"`)
//	it, err := sf.ParseItem(`:cHJldGVuZCB0aGlzIGlzIGJpbmFyeSBjb250ZW50Lg==:`)
//
// Values are plain Go data. A bare item ([BareItem]) holds one of:
//
//	int64          Integer        42
//	Decimal        Decimal        1.5      (Decimal(1500): thousandths)
//	string         String         "foo"
//	Token          Token          foo/bar
//	[]byte         Byte Sequence  :AQID:
//	bool           Boolean        ?1
//	Date           Date           @1659578233
//	DisplayString  Display String %"f%c3%bc"
//
// An [Item] is a bare item with [Params]; an [InnerList] is a list of items
// with its own Params. Both are a [Member] of a [List] or a [Dictionary].
// Params and Dictionary are ordered: they keep keys in order of first
// appearance and, as the RFC requires, a key seen again overwrites the
// earlier value in place.
//
// Parsing follows RFC 9651 §4.2 strictly and fails with an error wrapping
// [ErrSyntax] (or [ErrTooLong]) that names the byte offset of the fault.
// Byte Sequences must be canonical standard base64: '=' padding is required
// and non-zero pad bits are refused (both are "SHOULD NOT fail" in the RFC
// and optional in the official test suite; strictness keeps signatures and
// digests free of alternative encodings).
//
// Serializing follows §4.1 and always yields the canonical form.
// [SerializeList], [SerializeDictionary] and [SerializeItem] report values
// that have no serialization (an out-of-range Integer, a bad key, a String
// with a control character, a BareItem of an unsupported Go type...) with an
// error wrapping [ErrInvalid]; the String methods are shorthand that return
// "" in that case. Whatever a parser returns always serializes.
package sf

import (
	"errors"
	"fmt"
)

// MaxLen is the longest field value, in bytes, that the parsers accept.
// Longer input is refused with [ErrTooLong] before any parsing.
const MaxLen = 64 << 10

// ErrSyntax is wrapped by every error reporting input that is not a valid
// Structured Field Value of the requested type.
var ErrSyntax = errors.New("sf: syntax error")

// ErrTooLong is returned for input longer than [MaxLen].
var ErrTooLong = errors.New("sf: field value too long")

// ErrInvalid is wrapped by every error reporting a value that cannot be
// serialized.
var ErrInvalid = errors.New("sf: invalid value")

// Limits of RFC 9651 §3.3.1 and §3.3.2.
const (
	maxInteger = 999_999_999_999_999
	maxDecimal = 999_999_999_999_999 // in thousandths: 12 integer digits
)

// BareItem is the value of an Item or a parameter. It holds one of the Go
// types int64, [Decimal], string, [Token], []byte, bool, [Date] or
// [DisplayString]; any other type fails serialization.
type BareItem any

// Decimal is a Structured Field Decimal, counted in thousandths:
// Decimal(1500) is 1.5 and Decimal(-25) is -0.025.
type Decimal int64

// Token is a Structured Field Token, such as foo or text/html.
type Token string

// Date is a Structured Field Date, in seconds since the Unix epoch.
type Date int64

// DisplayString is a Structured Field Display String: Unicode text, sent
// as percent-encoded UTF-8.
type DisplayString string

// Param is one parameter: a key and its value.
type Param struct {
	Key   string
	Value BareItem
}

// Params are the ordered parameters of an Item or an InnerList.
type Params []Param

// Get returns the value of the parameter key and whether it is present.
func (p Params) Get(key string) (BareItem, bool) {
	for _, kv := range p {
		if kv.Key == key {
			return kv.Value, true
		}
	}
	return nil, false
}

// Set sets the parameter key to v, in place if key is present, else at
// the end.
func (p *Params) Set(key string, v BareItem) {
	for i := range *p {
		if (*p)[i].Key == key {
			(*p)[i].Value = v
			return
		}
	}
	*p = append(*p, Param{key, v})
}

// Member is a member of a List or a Dictionary: an [Item] or an
// [InnerList]. No other type implements it.
type Member interface {
	member()
}

// Item is a bare item with parameters.
type Item struct {
	Value  BareItem
	Params Params
}

// InnerList is a parenthesized list of Items with parameters of its own.
type InnerList struct {
	Items  []Item
	Params Params
}

func (Item) member()      {}
func (InnerList) member() {}

// List is a Structured Field List.
type List []Member

// DictMember is one member of a Dictionary.
type DictMember struct {
	Key   string
	Value Member
}

// Dictionary is a Structured Field Dictionary: ordered members with
// unique keys.
type Dictionary []DictMember

// Get returns the member named key and whether it is present.
func (d Dictionary) Get(key string) (Member, bool) {
	for _, kv := range d {
		if kv.Key == key {
			return kv.Value, true
		}
	}
	return nil, false
}

// Set sets the member key to m, in place if key is present, else at the
// end.
func (d *Dictionary) Set(key string, m Member) {
	for i := range *d {
		if (*d)[i].Key == key {
			(*d)[i].Value = m
			return
		}
	}
	*d = append(*d, DictMember{key, m})
}

// Keys returns the keys of d in order.
func (d Dictionary) Keys() []string {
	keys := make([]string, len(d))
	for i, kv := range d {
		keys[i] = kv.Key
	}
	return keys
}

// String returns the canonical serialization of it, or "" if it cannot be
// serialized (see [SerializeItem]).
func (it Item) String() string {
	s, _ := SerializeItem(it)
	return s
}

// String returns the canonical serialization of l, or "" if l is empty or
// cannot be serialized (see [SerializeList]).
func (l List) String() string {
	s, _ := SerializeList(l)
	return s
}

// String returns the canonical serialization of d, or "" if d is empty or
// cannot be serialized (see [SerializeDictionary]).
func (d Dictionary) String() string {
	s, _ := SerializeDictionary(d)
	return s
}

// String returns d in Structured Field form, such as 1.5 or -0.025.
func (d Decimal) String() string {
	return string(appendDecimal(nil, d))
}

// syntaxError reports a parse failure at byte offset off.
func syntaxError(off int, format string, args ...any) error {
	return fmt.Errorf("%w at offset %d: %s", ErrSyntax, off, fmt.Sprintf(format, args...))
}

func invalid(format string, args ...any) error {
	return fmt.Errorf("%w: %s", ErrInvalid, fmt.Sprintf(format, args...))
}
