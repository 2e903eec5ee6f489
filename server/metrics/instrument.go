package metrics

import (
	"net/http"
	"strconv"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/signet-go/signet/server/internal/statuswriter"
	"github.com/signet-go/signet/server/oauth"
)

// durKey is one series of the latency histogram.
type durKey struct {
	handler, method string
	code            int
}

// routes are the handler label's values; any other path is "other".
var routes = map[string]string{
	oauth.PathToken: oauth.PathToken, oauth.PathIntrospect: oauth.PathIntrospect, oauth.PathRevoke: oauth.PathRevoke,
	oauth.PathMetadata: oauth.PathMetadata, oauth.PathJWKS: oauth.PathJWKS,
	oauth.PathHealth: oauth.PathHealth, oauth.PathReady: oauth.PathReady, Path: Path,
}

// methods are the method label's values (RFC 9110 §9); any other is
// "other".
var methods = map[string]string{
	http.MethodGet: http.MethodGet, http.MethodHead: http.MethodHead, http.MethodPost: http.MethodPost,
	http.MethodPut: http.MethodPut, http.MethodPatch: http.MethodPatch, http.MethodDelete: http.MethodDelete,
	http.MethodConnect: http.MethodConnect, http.MethodOptions: http.MethodOptions, http.MethodTrace: http.MethodTrace,
}

func label(set map[string]string, v string) string {
	if l, ok := set[v]; ok {
		return l
	}
	return "other"
}

// Instrument wraps the service's handler (oauth.Server.Handler, or a mux
// holding it): each request's duration, from the call to the return of
// next, goes to http_request_duration_seconds{handler,method,code}, with
// handler the request path when it is one of the service's (the oauth
// Path* constants or Path), else "other".
func (m *Metrics) Instrument(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		start := time.Now()
		sw := &statuswriter.Writer{ResponseWriter: w}
		next.ServeHTTP(sw, r)
		code := sw.Status
		if code == 0 {
			code = http.StatusOK
		}
		m.observer(durKey{label(routes, r.URL.Path), label(methods, r.Method), code}).Observe(time.Since(start).Seconds())
	})
}

// observer returns the histogram series of k, made once.
func (m *Metrics) observer(k durKey) prometheus.Observer {
	m.mu.RLock()
	o, ok := m.durBy[k]
	m.mu.RUnlock()
	if !ok {
		o = m.duration.WithLabelValues(k.handler, k.method, strconv.Itoa(k.code))
		m.mu.Lock()
		m.durBy[k] = o
		m.mu.Unlock()
	}
	return o
}
