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
// address ends the walk at the last trusted hop. IPv4 addresses match
// trusted prefixes written either way, 10.0.0.0/8 or ::ffff:10.0.0.0/104.
func ForwardedFor(trusted []netip.Prefix) func(r *http.Request) netip.Addr {
	ps := make([]netip.Prefix, len(trusted))
	for i, p := range trusted {
		// A request's address is unmapped before it is looked up: an
		// IPv4-mapped prefix (::ffff:10.0.0.0/104, as dual-stack tools
		// print IPv4 peers) is the IPv4 prefix it maps. A shorter IPv6
		// prefix stays IPv6 only.
		if p.Addr().Is4In6() && p.Bits() >= 96 {
			p = netip.PrefixFrom(p.Addr().Unmap(), p.Bits()-96)
		}
		ps[i] = p
	}
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
