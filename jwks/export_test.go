package jwks

// Waiters is how many callers of Select's miss path and of Refresh wait
// for the fetch in flight (0 when none runs). Tests wait for it before
// letting a held fetch end, so that every caller has chosen the fetch it
// shares.
func Waiters(r *Remote) int {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.inflight == nil {
		return 0
	}
	return r.inflight.waiters
}
