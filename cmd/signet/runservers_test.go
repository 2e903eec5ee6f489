package main

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"strings"
	"syscall"
	"testing"
	"time"
)

// groupOf starts n servers answering 204 on 127.0.0.1.
func groupOf(t *testing.T, n int) (*serverGroup, []net.Listener) {
	t.Helper()
	var servers []*http.Server
	var listeners []net.Listener
	for range n {
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { ln.Close() })
		servers = append(servers, &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			w.WriteHeader(http.StatusNoContent)
		})})
		listeners = append(listeners, ln)
	}
	return startServers(servers, listeners), listeners
}

// TestServerGroupHUPThenStop: each SIGHUP calls onHUP, every server
// answers, and the group stops without error when ctx is done, each
// server shut down (its listener closed).
func TestServerGroupHUPThenStop(t *testing.T) {
	g, lns := groupOf(t, 2)
	for _, ln := range lns {
		resp, err := http.Get("http://" + ln.Addr().String() + "/")
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != http.StatusNoContent {
			t.Fatalf("status %d", resp.StatusCode)
		}
	}
	ctx, cancel := context.WithCancel(context.Background())
	hup := make(chan os.Signal)
	hups := make(chan struct{}, 2)
	done := make(chan error, 1)
	go func() {
		done <- g.run(ctx, "test", hup, func() { hups <- struct{}{} }, 5*time.Second, slog.New(slog.NewTextHandler(io.Discard, nil)))
	}()
	for range 2 {
		hup <- syscall.SIGHUP // unbuffered: received by run's loop
		<-hups
	}
	cancel()
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("run = %v, want nil", err)
		}
	case <-time.After(30 * time.Second):
		t.Fatal("run did not return within 30 s of ctx done")
	}
	for _, ln := range lns {
		if c, err := net.Dial("tcp", ln.Addr().String()); err == nil {
			c.Close()
			t.Fatalf("%s still accepts after shutdown", ln.Addr())
		}
	}
}

// TestServerGroupServerStops: a server that stops by itself ends the
// group with an error naming the command, and the others are shut down.
func TestServerGroupServerStops(t *testing.T) {
	g, lns := groupOf(t, 2)
	lns[1].Close() // its Serve returns
	done := make(chan error, 1)
	go func() {
		done <- g.run(context.Background(), "test", nil, nil, 5*time.Second, slog.New(slog.NewTextHandler(io.Discard, nil)))
	}()
	select {
	case err := <-done:
		if err == nil || !strings.HasPrefix(err.Error(), "test: the server stopped: ") || !errors.Is(err, net.ErrClosed) {
			t.Fatalf("run = %v, want test: the server stopped: …%v", err, net.ErrClosed)
		}
	case <-time.After(30 * time.Second):
		t.Fatal("run did not return within 30 s of a server stopping")
	}
	if c, err := net.Dial("tcp", lns[0].Addr().String()); err == nil {
		c.Close()
		t.Fatalf("%s still accepts after shutdown", lns[0].Addr())
	}
}
