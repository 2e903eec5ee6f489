//go:build unix

package main

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestServeTLSFilesRegularOnly: --tls-cert and --tls-key are read as every
// file the CLI reads is: a regular file of at most 1 MiB. A named pipe
// with no writer (which os.ReadFile would wait on forever) or a file
// over the limit stops the start at once (exit 1), before listening.
func TestServeTLSFilesRegularOnly(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "key.fifo")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	big := filepath.Join(dir, "big.pem")
	if err := os.WriteFile(big, make([]byte, maxInput+1), 0o600); err != nil {
		t.Fatal(err)
	}
	ok := filepath.Join(dir, "ok.pem")
	if err := os.WriteFile(ok, []byte("not PEM"), 0o600); err != nil {
		t.Fatal(err)
	}
	clients := writeClients(t, "", []string{"svc-a"}, []string{secretA})
	for _, tc := range []struct {
		name, cert, key, want string
	}{
		{"key a named pipe", ok, fifo, "not a regular file"},
		{"certificate a named pipe", fifo, ok, "not a regular file"},
		{"key too large", ok, big, "larger than"},
	} {
		var stdout, stderr syncBuffer
		done := make(chan int, 1)
		go func() {
			done <- serve(t.Context(), []string{"--clients", clients, "--data", dir, "--addr", "127.0.0.1:0", "--tls-cert", tc.cert, "--tls-key", tc.key},
				&stdout, &stderr, serveHooks{getenv: func(string) string { return "" }, ready: func(*instance) { t.Errorf("%s: started", tc.name) }})
		}()
		select {
		case code := <-done:
			if code != exitRejected || !strings.Contains(stderr.String(), tc.want) {
				t.Errorf("%s: exit %d: %s", tc.name, code, stderr.String())
			}
		case <-time.After(10 * time.Second):
			// Free the stuck read: a writer opens the pipe and closes it.
			if w, err := os.OpenFile(fifo, os.O_WRONLY, 0); err == nil {
				w.Close()
			}
			<-done
			t.Errorf("%s: serve waited on the file", tc.name)
		}
	}
}
