package load

import (
	"context"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"time"

	"github.com/signet-go/signet"
	"github.com/signet-go/signet/paserk"
)

// faultWorld is what the faults share under one directory: the signet
// binary, the clients file and a key-encryption key for --redis.
type faultWorld struct {
	env     *Env
	dir     string // the fault's own directory under env.Tmp
	signet  string // the signet binary
	clients string // the clients file (svc-a, svc-b)
	kek     string // SIGNET_KEK for --redis
}

// newFaultWorld makes a directory for one fault under env.Tmp, with the
// clients file and a fresh key-encryption key.
func newFaultWorld(env *Env, name string) (*faultWorld, error) {
	dir, err := os.MkdirTemp(env.Tmp, "fault-"+name+"-")
	if err != nil {
		return nil, err
	}
	w := &faultWorld{env: env, dir: dir, signet: filepath.Join(env.Bin, "signet")}
	if _, err := os.Stat(w.signet); err != nil {
		return nil, fmt.Errorf("the signet binary: %w", err)
	}
	if w.clients, err = writeFaultClients(dir); err != nil {
		return nil, err
	}
	kek, err := signet.GenerateKey(signet.V4Local)
	if err != nil {
		return nil, err
	}
	if w.kek, err = paserk.Encode(kek); err != nil {
		return nil, err
	}
	return w, nil
}

// writeFaultClients writes the clients file of svc-a and svc-b.
func writeFaultClients(dir string) (string, error) {
	var list []map[string]any
	for _, c := range [][2]string{{faultClientA, faultSecretA}, {faultClientB, faultSecretB}} {
		sum := sha256.Sum256([]byte(c[1]))
		list = append(list, map[string]any{"client_id": c[0], "client_secret_sha256": hex.EncodeToString(sum[:]),
			"scope": "read write", "audience": []string{faultAudience}})
	}
	b, err := json.Marshal(map[string]any{"clients": list})
	if err != nil {
		return "", err
	}
	path := filepath.Join(dir, "clients.json")
	return path, os.WriteFile(path, b, 0o600)
}

// serveOpts are the flags of one signet serve of a fault.
type serveOpts struct {
	name   string
	addr   string // host:port; a free loopback port when ""
	data   string // --data DIR
	redis  string // --redis URL
	rotate time.Duration
}

// serveProc is a running signet serve.
type serveProc struct {
	*Server
	base string // http://addr
}

// startServe starts signet serve on loopback (pinned to CPU 0, GOMAXPROCS
// 1) and waits until /readyz answers 200.
func (w *faultWorld) startServe(ctx context.Context, o serveOpts) (*serveProc, error) {
	if o.addr == "" {
		port, err := freePort()
		if err != nil {
			return nil, err
		}
		o.addr = "127.0.0.1:" + port
	}
	argv := []string{w.signet, "serve", "--clients", w.clients, "--addr", o.addr, "--issuer", faultIssuer}
	if o.data != "" {
		argv = append(argv, "--data", o.data)
	}
	if o.redis != "" {
		argv = append(argv, "--redis", o.redis)
	}
	if o.rotate > 0 {
		argv = append(argv, "--rotate", o.rotate.String())
	}
	base := "http://" + o.addr
	s, err := StartServer(ctx, ServerSpec{Name: o.name, Argv: argv, Env: []string{"SIGNET_KEK=" + w.kek}, CPUs: w.env.ServerCPUs,
		Ready: base + pathReady, ReadyTimeout: 20 * time.Second})
	if err != nil {
		return nil, err
	}
	return &serveProc{Server: s, base: base}, nil
}

// tokenWrk is the wrk run that hammers the token endpoint of base
// (client_secret_basic, svc-a).
func tokenWrk(base string, conns int, d time.Duration) WrkSpec {
	return WrkSpec{URL: base + pathToken, Script: "request.lua", Connections: conns, Duration: d,
		Args: []string{"method=POST", "body=grant_type=client_credentials",
			"header=Content-Type: application/x-www-form-urlencoded",
			"header=Authorization: " + basicAuth(faultClientA, faultSecretA)}}
}

// introspectWrk is the wrk run that hammers the introspection endpoint
// of base with tok (svc-b authenticates).
func introspectWrk(base, tok string, conns int, d time.Duration) WrkSpec {
	return WrkSpec{URL: base + pathIntrospect, Script: "request.lua", Connections: conns, Duration: d,
		Args: []string{"method=POST", "body=" + url.Values{"token": {tok}}.Encode(),
			"header=Content-Type: application/x-www-form-urlencoded",
			"header=Authorization: " + basicAuth(faultClientB, faultSecretB)}}
}

// basicAuth is the Authorization value of client_secret_basic (RFC 6749
// §2.3.1: id and secret form-encoded first).
func basicAuth(id, secret string) string {
	return "Basic " + base64.StdEncoding.EncodeToString([]byte(url.QueryEscape(id)+":"+url.QueryEscape(secret)))
}

// wrkRun is a wrk run in the background.
type wrkRun struct {
	done chan struct{}
	res  WrkResult
	err  error
}

// startWrk runs s in the background.
func startWrk(ctx context.Context, s WrkSpec) *wrkRun {
	r := &wrkRun{done: make(chan struct{})}
	go func() {
		defer close(r.done)
		r.res, r.err = RunWrk(ctx, s)
	}()
	return r
}

// wait returns the run's result once wrk exited.
func (r *wrkRun) wait() (WrkResult, error) {
	<-r.done
	return r.res, r.err
}
