package main

import (
	"context"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"os"
	"time"
)

// serverGroup is the HTTP servers of one command (serve, guard), each
// serving its own listener, run until the command stops.
type serverGroup struct {
	servers []*http.Server
	served  chan error // each server's Serve error, when it returns
	// log, when set, buffers the logs while the servers run (see
	// logWriter) and writes them at once again from shutdown on.
	log *logWriter
}

// startServers serves servers[i] on listeners[i], over TLS when the
// server has a TLSConfig (its certificates in it), each in its own
// goroutine.
func startServers(servers []*http.Server, listeners []net.Listener) *serverGroup {
	g := &serverGroup{servers: servers, served: make(chan error, len(servers))}
	for i, s := range servers {
		go func() {
			var err error
			if s.TLSConfig != nil {
				err = s.ServeTLS(listeners[i], "", "")
			} else {
				err = s.Serve(listeners[i])
			}
			g.served <- err
		}()
	}
	return g
}

// run waits until ctx is done or a server stops by itself, calling onHUP
// for each value hup delivers (a nil hup never does). Then it shuts every
// server down gracefully, closing those whose requests are still in
// flight after timeout. cmd names the command in the logs ("signet cmd:
// shutting down", then "signet cmd: stopped") and in the error, returned
// only when a server stopped by itself.
func (g *serverGroup) run(ctx context.Context, cmd string, hup <-chan os.Signal, onHUP func(), timeout time.Duration, logger *slog.Logger) error {
	var failed error
	if g.log != nil {
		g.log.buffer()
	}
loop:
	for {
		select {
		case <-ctx.Done():
			break loop
		case <-hup:
			onHUP()
		case err := <-g.served:
			failed = fmt.Errorf("%s: the server stopped: %w", cmd, err)
			logger.Error("server stopped", "err", err)
			break loop
		}
	}
	if g.log != nil {
		g.log.direct()
	}
	logger.Info("signet " + cmd + ": shutting down")
	shutCtx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	for _, s := range g.servers {
		if err := s.Shutdown(shutCtx); err != nil {
			logger.Warn("shutdown: requests still in flight were cut off", "err", err)
			s.Close()
		}
	}
	if failed == nil {
		logger.Info("signet " + cmd + ": stopped")
	}
	return failed
}
