package guard

import (
	"net/http"
)

// The admin paths (on the main listener, or on an admin one).
const (
	PathHealth = "/healthz" // 200 while the process runs
	PathReady  = "/readyz"  // 200 when the key source can verify tokens, else 503
)

// AdminHandler serves PathHealth, PathReady and MetricsPath (404 for any
// other path). Mount it on an admin listener, or route those three paths
// to it on the main one (they then shadow the upstream's).
func (g *Guard) AdminHandler() http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("GET "+PathHealth, func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/plain; charset=utf-8")
		w.Header().Set("Cache-Control", "no-store")
		w.Write([]byte("ok\n"))
	})
	mux.HandleFunc("GET "+PathReady, func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/plain; charset=utf-8")
		w.Header().Set("Cache-Control", "no-store")
		if err := g.Ready(); err != nil {
			w.WriteHeader(http.StatusServiceUnavailable)
			w.Write([]byte("not ready: the keys that verify tokens are unavailable\n"))
			return
		}
		w.Write([]byte("ready\n"))
	})
	mux.Handle("GET "+MetricsPath, g.metrics.Handler())
	return mux
}

// Handler is the guard with the admin paths on the same listener:
// PathHealth, PathReady and MetricsPath answer there (GET), every other
// request is verified and forwarded.
func (g *Guard) Handler() http.Handler {
	admin := g.AdminHandler()
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case PathHealth, PathReady, MetricsPath:
			admin.ServeHTTP(w, r)
			return
		}
		g.ServeHTTP(w, r)
	})
}
