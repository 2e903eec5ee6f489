package guard

import (
	"crypto/rand"
	"encoding/hex"
	"strconv"
	"sync/atomic"
)

// idSource makes request ids: a random prefix per Guard and a counter,
// unique without a random read per request.
type idSource struct {
	prefix string
	n      atomic.Uint64
}

func newIDSource() *idSource {
	var b [6]byte
	rand.Read(b[:]) // never fails (crypto/rand)
	return &idSource{prefix: hex.EncodeToString(b[:]) + "-"}
}

// maxRequestID is the longest incoming request id kept.
const maxRequestID = 64

// requestID returns the request's id: the incoming one when it is at
// most maxRequestID characters of letters, digits, '-', '_', '.' and
// ':' (safe in a header and a log line), else a new one.
func (s *idSource) requestID(in string) string {
	if in != "" && len(in) <= maxRequestID && plainID(in) {
		return in
	}
	return s.prefix + strconv.FormatUint(s.n.Add(1), 36)
}

func plainID(s string) bool {
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case 'a' <= c && c <= 'z', 'A' <= c && c <= 'Z', '0' <= c && c <= '9', c == '-', c == '_', c == '.', c == ':':
		default:
			return false
		}
	}
	return true
}
