package main

import (
	"bufio"
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/signet-go/signet"
	"github.com/signet-go/signet/bench/load"
)

// serveOps is what INFO commandstats counted per request of each endpoint
// of a signet serve on Redis: command → calls per request.
type serveOps struct {
	N      int // requests per endpoint
	Phases []serveOpsPhase
	Err    string
}

type serveOpsPhase struct {
	Endpoint string
	Calls    map[string]float64 // command → calls per request
}

// measureServeOps starts a redis-server and a signet serve on it
// (client_secret_basic, ES256), and sends n requests to each endpoint
// in turn — token, introspect (active tokens), revoke, introspect (the
// revoked tokens) — reading Redis's INFO commandstats before and after
// each: the Redis commands one request costs, as the scale model counts
// them from the code.
func measureServeOps(ctx context.Context, env *load.Env, n int) serveOps {
	out := serveOps{N: n}
	fail := func(err error) serveOps { out.Err = err.Error(); return out }
	if _, err := exec.LookPath("redis-server"); err != nil {
		return fail(fmt.Errorf("redis-server not installed (bash scripts/install-redis.sh)"))
	}
	dir, err := os.MkdirTemp(env.Tmp, "serveops-")
	if err != nil {
		return fail(err)
	}
	defer os.RemoveAll(dir)
	raddr, err := load.FreeAddr()
	if err != nil {
		return fail(err)
	}
	host, port, _ := net.SplitHostPort(raddr)
	redis, err := load.StartServer(ctx, load.ServerSpec{Name: "redis", CPUs: "-",
		Argv: []string{"redis-server", "--bind", host, "--port", port, "--save", "", "--appendonly", "no"}})
	if err != nil {
		return fail(err)
	}
	defer redis.Stop()
	if err := waitTCP(ctx, raddr, 10*time.Second); err != nil {
		return fail(err)
	}
	kek, err := exec.CommandContext(ctx, env.Signet(), "keygen", "v4.local").Output()
	if err != nil {
		return fail(fmt.Errorf("signet keygen v4.local: %w", err))
	}
	if err := os.WriteFile(filepath.Join(dir, "kek"), kek, 0o600); err != nil {
		return fail(err)
	}
	id, secret, err := writeServeClients(filepath.Join(dir, "clients.json"))
	if err != nil {
		return fail(err)
	}
	addr, err := load.FreeAddr()
	if err != nil {
		return fail(err)
	}
	base := "http://" + addr
	serve, err := load.StartServer(ctx, load.ServerSpec{Name: "signet-serve", CPUs: "-",
		Argv: []string{env.Signet(), "serve", "--clients", filepath.Join(dir, "clients.json"), "--redis", "redis://" + raddr + "/0",
			"--kek-file", filepath.Join(dir, "kek"), "--alg", "ES256", "--addr", addr},
		Ready: base + "/readyz"})
	if err != nil {
		return fail(err)
	}
	defer serve.Stop()

	basic := "Basic " + base64.StdEncoding.EncodeToString([]byte(url.QueryEscape(id)+":"+url.QueryEscape(secret)))
	client := &http.Client{Timeout: 5 * time.Second}
	post := func(path string, form url.Values) ([]byte, error) {
		req, err := http.NewRequestWithContext(ctx, http.MethodPost, base+path, strings.NewReader(form.Encode()))
		if err != nil {
			return nil, err
		}
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		req.Header.Set("Authorization", basic)
		resp, err := client.Do(req)
		if err != nil {
			return nil, err
		}
		defer resp.Body.Close()
		body, err := io.ReadAll(io.LimitReader(resp.Body, 1<<16))
		if err == nil && resp.StatusCode != http.StatusOK {
			err = fmt.Errorf("%s: %s: %s", path, resp.Status, body)
		}
		return body, err
	}
	var tokens []string
	phase := func(endpoint string, do func(i int) error) error {
		before, err := commandStats(raddr)
		if err != nil {
			return err
		}
		for i := range n {
			if err := do(i); err != nil {
				return fmt.Errorf("%s: %w", endpoint, err)
			}
		}
		after, err := commandStats(raddr)
		if err != nil {
			return err
		}
		p := serveOpsPhase{Endpoint: endpoint, Calls: map[string]float64{}}
		for cmd, c := range after {
			// INFO itself is the measurement's, not the service's.
			if d := c - before[cmd]; d > 0 && cmd != "info" {
				p.Calls[cmd] = float64(d) / float64(n)
			}
		}
		out.Phases = append(out.Phases, p)
		return nil
	}
	err = phase("token (client_secret_basic)", func(int) error {
		body, err := post("/oauth2/token", url.Values{"grant_type": {"client_credentials"}})
		if err != nil {
			return err
		}
		var t struct {
			AccessToken string `json:"access_token"`
		}
		if err := json.Unmarshal(body, &t); err != nil || t.AccessToken == "" {
			return fmt.Errorf("no access_token in %q", body)
		}
		tokens = append(tokens, t.AccessToken)
		return nil
	})
	expect := func(path string, active string) func(int) error {
		return func(i int) error {
			body, err := post(path, url.Values{"token": {tokens[i]}})
			if err == nil && active != "" && !strings.Contains(string(body), `"active":`+active) {
				err = fmt.Errorf("token %d: %s, want active %s", i, body, active)
			}
			return err
		}
	}
	if err == nil {
		err = phase("introspect (active)", expect("/oauth2/introspect", "true"))
	}
	if err == nil {
		err = phase("revoke", expect("/oauth2/revoke", ""))
	}
	if err == nil {
		err = phase("introspect (revoked)", expect("/oauth2/introspect", "false"))
	}
	if err != nil {
		return fail(err)
	}
	return out
}

// writeServeClients writes a clients file with one client_secret_basic
// client (a fresh secret; the file holds its SHA-256).
func writeServeClients(path string) (id, secret string, err error) {
	var b [32]byte
	if _, err := rand.Read(b[:]); err != nil {
		return "", "", err
	}
	id, secret = "load-ops", base64.RawURLEncoding.EncodeToString(b[:])
	sum := sha256.Sum256([]byte(secret))
	data, err := json.Marshal(map[string]any{"clients": []map[string]any{{
		"client_id": id, "client_secret_sha256": hex.EncodeToString(sum[:]),
		"token_endpoint_auth_method": "client_secret_basic", "scope": "read",
		"audience": []string{"https://api.load.test"}, "access_token_ttl": "1h",
	}}})
	if err != nil {
		return "", "", err
	}
	return id, secret, os.WriteFile(path, data, 0o600)
}

// maxInfo bounds the INFO reply commandStats reads.
const maxInfo = 1 << 20

// commandStats sends INFO commandstats to the Redis at addr (RESP, no
// client library) and returns the calls per command.
func commandStats(addr string) (map[string]int64, error) {
	c, err := net.DialTimeout("tcp", addr, 2*time.Second)
	if err != nil {
		return nil, err
	}
	defer c.Close()
	c.SetDeadline(time.Now().Add(5 * time.Second))
	if _, err := io.WriteString(c, "*2\r\n$4\r\nINFO\r\n$12\r\ncommandstats\r\n"); err != nil {
		return nil, err
	}
	r := bufio.NewReader(c)
	head, err := r.ReadString('\n')
	if err != nil {
		return nil, err
	}
	size, err := strconv.Atoi(strings.TrimSpace(strings.TrimPrefix(head, "$")))
	if !strings.HasPrefix(head, "$") || err != nil || size < 0 || size > maxInfo {
		return nil, fmt.Errorf("%w: INFO reply %q", signet.ErrMalformed, strings.TrimSpace(head))
	}
	body := make([]byte, size)
	if _, err := io.ReadFull(r, body); err != nil {
		return nil, err
	}
	return parseCommandStats(string(body))
}

// parseCommandStats reads INFO commandstats lines:
// "cmdstat_get:calls=12,usec=34,usec_per_call=2.83,…".
func parseCommandStats(info string) (map[string]int64, error) {
	out := map[string]int64{}
	for line := range strings.SplitSeq(info, "\n") {
		line = strings.TrimSpace(line)
		rest, ok := strings.CutPrefix(line, "cmdstat_")
		if !ok {
			continue
		}
		name, fields, ok := strings.Cut(rest, ":")
		if !ok {
			return nil, fmt.Errorf("%w: INFO line %q", signet.ErrMalformed, line)
		}
		for f := range strings.SplitSeq(fields, ",") {
			if v, ok := strings.CutPrefix(f, "calls="); ok {
				n, err := strconv.ParseInt(v, 10, 64)
				if err != nil || n < 0 {
					return nil, fmt.Errorf("%w: INFO line %q", signet.ErrMalformed, line)
				}
				out[strings.ToLower(name)] = n
			}
		}
	}
	return out, nil
}

// callsText writes a phase's calls per request: "evalsha 1.00, get 0.00".
func (p serveOpsPhase) callsText() string {
	var cmds []string
	for c := range p.Calls {
		cmds = append(cmds, c)
	}
	slices.Sort(cmds)
	var parts []string
	for _, c := range cmds {
		parts = append(parts, fmt.Sprintf("%s %.2f", strings.ToUpper(c), p.Calls[c]))
	}
	if len(parts) == 0 {
		return "none"
	}
	return strings.Join(parts, ", ")
}
