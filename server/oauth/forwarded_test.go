package oauth

import (
	"net/http"
	"net/netip"
	"testing"
)

func TestForwardedFor(t *testing.T) {
	f := ForwardedFor([]netip.Prefix{netip.MustParsePrefix("10.0.0.0/8"), netip.MustParsePrefix("fd00::/8")})
	runForwarded(t, f, []forwardedCase{
		{"direct client, header ignored", "203.0.113.9:5000", []string{"198.51.100.1"}, "203.0.113.9"},
		{"one trusted proxy", "10.0.0.2:5000", []string{"198.51.100.1"}, "198.51.100.1"},
		{"client-written entries left of the proxy's are not reached", "10.0.0.2:5000", []string{"1.2.3.4, 198.51.100.1"}, "198.51.100.1"},
		{"two trusted proxies", "10.0.0.2:5000", []string{"198.51.100.1, 10.0.0.7"}, "198.51.100.1"},
		{"hops over several header lines", "10.0.0.2:5000", []string{"1.2.3.4", "198.51.100.1, 10.0.0.7"}, "198.51.100.1"},
		{"trusted proxy, no header", "10.0.0.2:5000", nil, "10.0.0.2"},
		{"only trusted hops", "10.0.0.2:5000", []string{"10.0.0.3"}, "10.0.0.3"},
		{"garbage ends the walk at the last trusted hop", "10.0.0.2:5000", []string{"198.51.100.1, not-an-ip, 10.0.0.7"}, "10.0.0.7"},
		{"IPv4-mapped proxy address", "[::ffff:10.0.0.2]:5000", []string{"198.51.100.1"}, "198.51.100.1"},
		{"IPv6 proxy", "[fd00::1]:5000", []string{"2001:db8::1"}, "2001:db8::1"},
	})
}

// TestForwardedForMappedPrefix: a proxy given in its IPv4-mapped form (as
// dual-stack tools print an IPv4 peer, ::ffff:10.0.0.2) is trusted
// whichever form its requests arrive in; an address outside the prefix
// is not.
func TestForwardedForMappedPrefix(t *testing.T) {
	f := ForwardedFor([]netip.Prefix{netip.MustParsePrefix("::ffff:10.0.0.0/104"), netip.MustParsePrefix("::ffff:192.0.2.7/128")})
	runForwarded(t, f, []forwardedCase{
		{"mapped CIDR, IPv4 request", "10.0.0.2:5000", []string{"198.51.100.1"}, "198.51.100.1"},
		{"mapped CIDR, mapped request", "[::ffff:10.0.0.2]:5000", []string{"198.51.100.1"}, "198.51.100.1"},
		{"mapped address, IPv4 request", "192.0.2.7:5000", []string{"198.51.100.1"}, "198.51.100.1"},
		{"mapped CIDR, trusted hop in the header", "10.0.0.2:5000", []string{"198.51.100.1, 10.0.0.9"}, "198.51.100.1"},
		{"outside the mapped CIDR, header ignored", "11.0.0.2:5000", []string{"198.51.100.1"}, "11.0.0.2"},
	})
}

// forwardedCase is one request to a SourceAddr and the source it must give.
type forwardedCase struct {
	name   string
	remote string
	xff    []string
	want   string
}

func runForwarded(t *testing.T, f func(*http.Request) netip.Addr, cases []forwardedCase) {
	t.Helper()
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := &http.Request{RemoteAddr: c.remote, Header: http.Header{}}
			for _, v := range c.xff {
				r.Header.Add("X-Forwarded-For", v)
			}
			if got := f(r); got != netip.MustParseAddr(c.want) {
				t.Fatalf("got %v, want %s", got, c.want)
			}
		})
	}
}
