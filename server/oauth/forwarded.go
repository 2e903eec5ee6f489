package oauth

import (
	"net/http"
	"net/netip"
	"strings"
)

// ForwardedFor returns a Config.SourceAddr for a service behind proxies
// whose addresses are in trusted: a request from a trusted proxy counts
// by the address its X-Forwarded-For names as the hop before the trusted
// ones, read from the right (the entries a client wrote itself come
// first, to the left, and are never reached while a trusted proxy
// appended after them); a request from any other address counts by that
// address, its X-Forwarded-For ignored. An entry that is not an IP
// address ends the walk at the last trusted hop.
func ForwardedFor(trusted []netip.Prefix) func(r *http.Request) netip.Addr {
	ps := append([]netip.Prefix(nil), trusted...)
	isTrusted := func(a netip.Addr) bool {
		a = a.Unmap()
		for _, p := range ps {
			if p.Contains(a) {
				return true
			}
		}
		return false
	}
	return func(r *http.Request) netip.Addr {
		src := remoteAddr(r)
		if !isTrusted(src) {
			return src
		}
		values := r.Header.Values("X-Forwarded-For")
		for i := len(values) - 1; i >= 0; i-- {
			hops := strings.Split(values[i], ",")
			for j := len(hops) - 1; j >= 0; j-- {
				hop, err := netip.ParseAddr(strings.TrimSpace(hops[j]))
				if err != nil {
					return src
				}
				if !isTrusted(hop) {
					return hop
				}
				src = hop
			}
		}
		return src
	}
}
