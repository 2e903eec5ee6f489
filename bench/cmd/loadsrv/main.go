// Command loadsrv is the HTTP lab's scenario server: the study's handler
// shapes (issue a token per request, check the Bearer token per request)
// for golang-jwt and signet, behind one flag set, beside the /hello
// baseline. bench/cmd/load builds it and starts one per run, pinned to
// the server's core with GOMAXPROCS=1 (package load).
//
//	loadsrv -addr 127.0.0.1:8080
//
// /hello answers "hello" (the baseline every scenario is measured
// against, and the readiness probe the harness polls).
package main

import (
	"flag"
	"fmt"
	"net/http"
	"os"
)

func main() {
	if err := run(os.Args[1:]); err != nil {
		fmt.Fprintln(os.Stderr, "loadsrv:", err)
		os.Exit(1)
	}
}

func run(args []string) error {
	fs := flag.NewFlagSet("loadsrv", flag.ContinueOnError)
	addr := fs.String("addr", "127.0.0.1:8080", "listen `address` (127.0.0.1 only in the lab)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	mux := http.NewServeMux()
	mux.HandleFunc("GET /hello", hello)
	return http.ListenAndServe(*addr, mux)
}

// hello is the baseline handler of the study: a fixed short body.
func hello(w http.ResponseWriter, _ *http.Request) {
	w.Header().Set("Content-Type", "text/plain")
	w.Write([]byte("hello"))
}
