//go:build unix

package main

import (
	"context"
	"net/http"
	"os"
	"strings"
	"testing"
)

// TestServeClientsFileWorldWritable: whoever can write the clients file
// registers clients, and so gets tokens for any audience it names. A
// clients file every local user may write (o+w) stops the start (exit 1),
// and a reload of one keeps the clients loaded before; a file only its
// owner (and group) may write is read as before.
func TestServeClientsFileWorldWritable(t *testing.T) {
	clients := writeClients(t, "", []string{"svc-a"}, []string{secretA})
	if err := os.Chmod(clients, 0o666); err != nil {
		t.Fatal(err)
	}
	var stdout, stderr syncBuffer
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	code := serve(ctx, []string{"--clients", clients, "--data", t.TempDir(), "--addr", "127.0.0.1:0"}, &stdout, &stderr,
		serveHooks{getenv: func(string) string { return "" }, ready: func(*instance) {
			t.Error("started with a world-writable clients file")
			cancel()
		}})
	if code != exitRejected || !strings.Contains(stderr.String(), "every user can write") {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}

	if err := os.Chmod(clients, 0o664); err != nil {
		t.Fatal(err)
	}
	r := startServe(t, []string{"--clients", clients, "--data", t.TempDir(), "--addr", "127.0.0.1:0"}, nil)
	r.token("svc-a", secretA)
	writeClients(t, clients, []string{"svc-b"}, []string{secretB})
	if err := os.Chmod(clients, 0o646); err != nil {
		t.Fatal(err)
	}
	if err := r.inst.reload(); err == nil || !strings.Contains(err.Error(), "every user can write") {
		t.Fatalf("a world-writable clients file reloaded: %v", err)
	}
	r.token("svc-a", secretA)
	if code, _ := post(t, r.url("/oauth2/token"), grant, "svc-b", secretB); code != http.StatusUnauthorized {
		t.Fatalf("a client of the refused file got %d, want 401", code)
	}
}
