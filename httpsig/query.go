package httpsig

import (
	"fmt"
	"strings"

	"github.com/signet-go/signet/internal/clip"
)

// queryParam returns the value of @query-param;name=name (RFC 9421
// §2.2.8): the query is parsed as application/x-www-form-urlencoded
// (WHATWG URL §5.1), and names and values are re-encoded with
// percent-encoding, so that a space is "%20" whether it was sent as "+"
// or "%20". name is in that encoded form. A parameter that is absent or
// occurs more than once is an error.
func queryParam(query, name string) (string, error) {
	value, found := "", 0
	for pair := range strings.SplitSeq(query, "&") {
		if pair == "" {
			continue
		}
		n, v, _ := strings.Cut(pair, "=")
		if encodeQuery(decodeQuery(n)) != name {
			continue
		}
		found++
		value = encodeQuery(decodeQuery(v))
	}
	switch found {
	case 0:
		return "", fmt.Errorf("%w: @query-param: no parameter %q", ErrComponent, clip.String(name))
	case 1:
		return value, nil
	}
	return "", fmt.Errorf("%w: @query-param: parameter %q occurs %d times", ErrComponent, clip.String(name), found)
}

// decodeQuery is the WHATWG form-urlencoded decoding of one name or value:
// '+' is a space, and %XX sequences are decoded; a '%' not followed by two
// hex digits is kept as it is.
func decodeQuery(s string) string {
	if !strings.ContainsAny(s, "+%") {
		return s
	}
	b := make([]byte, 0, len(s))
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c == '+':
			b = append(b, ' ')
		case c == '%' && i+2 < len(s) && isHex(s[i+1]) && isHex(s[i+2]):
			b = append(b, unhex(s[i+1])<<4|unhex(s[i+2]))
			i += 2
		default:
			b = append(b, c)
		}
	}
	return string(b)
}

// encodeQuery percent-encodes every byte but ASCII letters, digits and
// "*-._" (the application/x-www-form-urlencoded percent-encode set), with
// a space as "%20".
func encodeQuery(s string) string {
	plain := true
	for i := range len(s) {
		if !queryPlain(s[i]) {
			plain = false
			break
		}
	}
	if plain {
		return s
	}
	const hex = "0123456789ABCDEF"
	b := make([]byte, 0, len(s)*3)
	for i := range len(s) {
		if c := s[i]; queryPlain(c) {
			b = append(b, c)
		} else {
			b = append(b, '%', hex[c>>4], hex[c&15])
		}
	}
	return string(b)
}

func queryPlain(c byte) bool {
	return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' ||
		c == '*' || c == '-' || c == '.' || c == '_'
}

func isHex(c byte) bool {
	return '0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F'
}

func unhex(c byte) byte {
	switch {
	case c <= '9':
		return c - '0'
	case c <= 'F':
		return c - 'A' + 10
	}
	return c - 'a' + 10
}
