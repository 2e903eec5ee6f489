package guard

import (
	"fmt"
	"net/http"
	"strings"

	"github.com/signet-go/signet"
	"github.com/signet-go/signet/bearer"
)

// errDotSegment refuses a request whose path has a dot segment.
var errDotSegment = &bearer.Error{
	Status:      http.StatusBadRequest,
	Code:        bearer.CodeInvalidRequest,
	Description: "the path has a dot segment",
	Err:         fmt.Errorf("%w: guard: a dot segment in the request path", signet.ErrMalformed),
}

// dotSpellings maps what an upstream may read as '.' or '/' to it.
var dotSpellings = strings.NewReplacer("%2e", ".", "%2f", "/", "%5c", "/", "\\", "/")

// dotSegment reports whether the escaped path p has a "." or ".."
// segment as an upstream may read it: with %2E for '.', %2F for '/'
// (nginx decodes it before it resolves dot segments), '\' or %5C for
// '/' (IIS, some Java servers), and a segment ending at ';' (Tomcat
// reads "/..;/" as "/../"). The guard joins the request's path to
// Config.Upstream's as it is, so "/../x" would leave the upstream's
// path prefix once the upstream resolved it; a client that follows RFC
// 3986 §5.2.4 never sends one.
func dotSegment(p string) bool {
	if !strings.Contains(p, ".") && !strings.Contains(p, "%2e") && !strings.Contains(p, "%2E") {
		return false // no segment can read as "." or ".."
	}
	p = dotSpellings.Replace(strings.ToLower(p))
	for seg := range strings.SplitSeq(p, "/") {
		seg, _, _ = strings.Cut(seg, ";")
		if seg == "." || seg == ".." {
			return true
		}
	}
	return false
}
