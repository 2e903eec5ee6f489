package load

import "net"

// FreeAddr returns a 127.0.0.1 address with a port free at the time of the
// call (the kernel's choice), for a server about to start.
func FreeAddr() (string, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return "", err
	}
	addr := l.Addr().String()
	return addr, l.Close()
}
