package main

import (
	"context"
	"os"
	"os/signal"
	"syscall"
)

// processSignals is the process's side of serve: a context that ends on
// SIGTERM or SIGINT (graceful shutdown) and a channel of SIGHUP (reload
// the clients file). stop undoes both.
func processSignals(parent context.Context) (context.Context, <-chan os.Signal, func()) {
	ctx, stopCtx := signal.NotifyContext(parent, syscall.SIGTERM, os.Interrupt)
	hup := make(chan os.Signal, 1)
	signal.Notify(hup, syscall.SIGHUP)
	return ctx, hup, func() {
		signal.Stop(hup)
		stopCtx()
	}
}
