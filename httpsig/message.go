package httpsig

import (
	"io"
	"net/http"
	"net/url"
	"slices"
	"strings"
)

// message is what a signature base is built from: a request or a
// response, with, for a response, the request it answers (for the req
// parameter).
type message struct {
	response bool
	status   int

	// Request parts.
	method       string
	scheme       string // lowercase
	authority    string // lowercase host[:port], default port omitted
	path         string // escaped, "/" when empty
	query        string // raw, without "?"
	requestURI   string // request-target as received (servers); "" for clients
	forceQuery   bool
	header       http.Header
	trailer      http.Header
	related      *message // the request a response answers
	host         string   // Host as sent: net/http keeps it out of the header map
	te           []string // Transfer-Encoding, likewise
	hasAuthority bool

	// body, for a verifier, is the body of a message that announces
	// trailers: read (once, then nil) only when a selected signature
	// covers a trailer field.
	body *io.ReadCloser
}

// Origin is the scheme and authority clients use to reach a server, for
// verifiers behind a TLS-terminating proxy or a load balancer, where the
// request as received does not show them (RFC 9421 §7.4.3).
type Origin struct {
	Scheme    string // "https"
	Authority string // "api.example.com" (a default port is dropped)
}

// requestMessage views r. A request read by a server (RequestURI set)
// takes its scheme from r.TLS and its authority from r.Host unless origin
// names them, and its path and query from RequestURI; a request made by a
// client takes them from r.URL and r.Host.
func requestMessage(r *http.Request, origin *Origin) message {
	m := message{method: r.Method, header: r.Header, trailer: r.Trailer, te: r.TransferEncoding}
	if m.method == "" {
		m.method = http.MethodGet
	}
	u := r.URL
	if u == nil {
		u = &url.URL{}
	}
	host := r.Host
	if host == "" {
		host = u.Host
	}
	if r.RequestURI == "" {
		// A client's request says where it goes; a server's request line
		// (even in absolute form) says nothing of the connection.
		m.scheme = strings.ToLower(u.Scheme)
	}
	if m.scheme == "" {
		m.scheme = "http"
		if r.TLS != nil {
			m.scheme = "https"
		}
	}
	if origin != nil {
		if origin.Scheme != "" {
			m.scheme = strings.ToLower(origin.Scheme)
		}
		if origin.Authority != "" {
			host = origin.Authority
		}
	}
	m.host = r.Host
	if m.host == "" {
		m.host = u.Host
	}
	m.authority = normalizeAuthority(host, m.scheme)
	m.hasAuthority = m.authority != ""
	if path, query, ok := targetParts(r.RequestURI, m.method); ok {
		// A server's request: the path and query as received, not as a
		// handler in front (http.StripPrefix, a router) may have
		// rewritten r.URL, or a signature for /report would pass on
		// /admin/report behind StripPrefix("/admin").
		m.path, m.query = path, query
	} else {
		m.path = u.EscapedPath()
		if u.Opaque != "" {
			m.path = u.Opaque
		}
		if m.path == "" {
			m.path = "/"
		}
		m.query = u.RawQuery
	}
	m.requestURI, m.forceQuery = r.RequestURI, u.ForceQuery
	return m
}

// targetParts splits a request-target as a server received it
// (RequestURI) into its escaped path and raw query; ok is false for none
// (a client's request), for CONNECT's authority form, and for a target
// that does not parse (the request's URL is used then).
func targetParts(target, method string) (path, query string, ok bool) {
	switch {
	case target == "" || method == http.MethodConnect:
		return "", "", false
	case target[0] == '/': // origin form: no allocation
		path, query, _ = strings.Cut(target, "?")
		return path, query, true
	case target == "*":
		return "*", "", true
	}
	u, err := url.ParseRequestURI(target) // absolute form
	if err != nil || u.Opaque != "" {
		return "", "", false
	}
	if path = u.EscapedPath(); path == "" {
		path = "/"
	}
	return path, u.RawQuery, true
}

// responseMessage views a response with status and fields; req, when not
// nil, is the request it answers.
func responseMessage(status int, h, trailer http.Header, req *message) message {
	return message{response: true, status: status, header: h, trailer: trailer, related: req}
}

// fieldLines returns the lines of field name (lowercase), or ok = false
// when there are none. net/http moves three fields out of the header map
// (Host into Request.Host, Transfer-Encoding and the Trailer announcement
// into their own members); they are rebuilt from there.
func (m *message) fieldLines(name, canon string, trailer bool) ([]string, bool) {
	if trailer {
		return headerLines(m.trailer, name, canon)
	}
	if v, ok := headerLines(m.header, name, canon); ok {
		return v, ok
	}
	switch name {
	case "host":
		if !m.response && m.host != "" {
			return []string{m.host}, true
		}
	case "transfer-encoding":
		if len(m.te) > 0 {
			return []string{strings.Join(m.te, ", ")}, true
		}
	case "trailer":
		if len(m.trailer) > 0 {
			names := make([]string, 0, len(m.trailer))
			for k := range m.trailer {
				names = append(names, k)
			}
			slices.Sort(names) // the order sent is lost; sorted is the best guess
			return []string{strings.Join(names, ", ")}, true
		}
	}
	return nil, false
}

// headerLines returns the lines of field name in h, whose canonical key
// is canon.
func headerLines(h http.Header, name, canon string) ([]string, bool) {
	if h == nil {
		return nil, false
	}
	v, ok := h[canon]
	if ok && len(v) == 0 {
		// net/http announces trailers with empty entries until the body
		// has been read: not yet a field.
		return nil, false
	}
	if !ok {
		// A header map filled directly may use another case.
		for k, lines := range h {
			if strings.EqualFold(k, name) && len(lines) > 0 {
				return lines, true
			}
		}
	}
	return v, ok
}

// normalizeAuthority lowercases host[:port] and drops the scheme's default
// port, or an empty one (RFC 9421 §2.2.3, RFC 9110 §4.2.3).
func normalizeAuthority(host, scheme string) string {
	host = strings.ToLower(host)
	i := strings.LastIndexByte(host, ':')
	if i < 0 || strings.IndexByte(host[i:], ']') >= 0 {
		return host // no port; an IPv6 literal's colons are inside brackets
	}
	switch port := host[i+1:]; {
	case port == "", scheme == "http" && port == "80", scheme == "https" && port == "443":
		return host[:i]
	}
	return host
}

// appendTargetURI appends @target-uri: scheme://authority/path?query.
// The asterisk form (OPTIONS *) has an empty path and query (RFC 9112
// §3.3): scheme://authority.
func (m *message) appendTargetURI(dst []byte) []byte {
	dst = append(dst, m.scheme...)
	dst = append(dst, "://"...)
	dst = append(dst, m.authority...)
	if m.path == "*" {
		return dst
	}
	dst = append(dst, m.path...)
	if m.query != "" {
		dst = append(dst, '?')
		dst = append(dst, m.query...)
	}
	return dst
}

// appendTarget appends @request-target: as received by a server, or as a
// client sends it (origin form; for CONNECT, the authority form, which is
// the Host as given, default port and case included, as net/http sends
// it).
func (m *message) appendTarget(dst []byte) []byte {
	switch {
	case m.requestURI != "":
		return append(dst, m.requestURI...)
	case m.method == http.MethodConnect:
		return append(dst, m.host...)
	}
	dst = append(dst, m.path...)
	if m.forceQuery || m.query != "" {
		dst = append(dst, '?')
		dst = append(dst, m.query...)
	}
	return dst
}
