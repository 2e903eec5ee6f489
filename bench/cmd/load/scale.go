package main

import (
	"bytes"
	"fmt"
	"math"
)

// redisPerRequest is what one request of each endpoint costs in Redis
// round trips, counted from the code paths (server/oauth and
// server/storage/redisstore at the time of writing; the scale test of a
// run may confirm them with INFO commandstats).
var redisPerRequest = []struct {
	endpoint string
	ops      float64
	command  string // the command the model prices it at (redisCap's Name)
	path     string
}{
	{"token (client_secret_basic)", 0, "", "oauth/token.go: keys.Manager.Signer serves the ring in memory; the ring is reloaded by one HMGET per instance every keys.Config.Reload (30 s), a SwapKeys script at a rotation"},
	{"token (private_key_jwt)", 1, "EVAL revoke", "oauth/auth.go: Store.UseOnce, the assertion's replay check (a script: GET, compare, SET PX)"},
	{"introspect (a token that verifies)", 1, "GET", "oauth/introspect.go: Store.Revoked (GET `revoked:<jti>`); a token that does not verify costs none"},
	{"revoke", 1, "EVAL revoke", "oauth/introspect.go: Store.Revoke (a script: GET, compare, SET PX)"},
	{"/readyz", 1, "GET", "oauth/server.go: Store.Ping (PING, priced as a GET)"},
	{"resource server: signet guard, the bearer middleware", 0, "", "tokens verified against the JWKS (fetched from /jwks, cached): no Redis, no token service"},
}

// perCore is a measured endpoint's requests/s on one core.
type perCore struct {
	endpoint string
	row      string
	rps      float64
	ops      float64
	command  string
}

// scaleRows picks the measured rows the model multiplies: the real
// service's endpoints where measured, else the study handlers standing in.
func (r *report) scaleRows() []perCore {
	cand := []perCore{
		{endpoint: "token (client_secret_basic)", row: "token/ES256/signet-serve", ops: 0},
		{endpoint: "introspect", row: "introspect/ES256/signet-serve", ops: 1, command: "GET"},
		{endpoint: "revoke", row: "revoke/ES256/signet-serve", ops: 1, command: "EVAL revoke"},
		{endpoint: "signet guard (cache off, ES256)", row: "guard-nocache/ES256/signet-guard", ops: 0},
		{endpoint: "bearer middleware (ES256)", row: "middleware/ES256/signet", ops: 0},
		{endpoint: "issue handler (ES256, stand-in for token)", row: "issue/ES256/signet", ops: 0},
		{endpoint: "check handler (ES256, stand-in for a verifying resource server)", row: "check/ES256/signet", ops: 0},
	}
	var out []perCore
	for _, c := range cand {
		if v := r.rps(c.row); v > 0 {
			c.rps = v
			out = append(out, c)
		}
	}
	return out
}

// capacity returns the measured requests/s per CPU second of a command,
// or the order of magnitude when Redis was not measured.
func (r *report) capacity(command string) (float64, bool) {
	if r.redis != nil {
		for _, op := range r.redis.Ops {
			if op.Name == command && op.PerCPUSec > 0 {
				return op.PerCPUSec, true
			}
		}
	}
	if command == "EVAL revoke" {
		return 5e4, false
	}
	return 1e5, false
}

func (r *report) scaleSection(b *bytes.Buffer) {
	fmt.Fprintf(b, "## A paper model of scale\n\n")
	fmt.Fprintf(b, "Requests/s per core, times instances; what each request asks of Redis; where one Redis stops being enough.\n\n")
	fmt.Fprintf(b, "### Redis operations per request (from the code paths)\n\n| endpoint | Redis round trips | where |\n|---|--:|---|\n")
	for _, e := range redisPerRequest {
		fmt.Fprintf(b, "| %s | %g | %s |\n", e.endpoint, e.ops, e.path)
	}
	fmt.Fprintln(b)
	fmt.Fprintf(b, "### One Redis on one core, this machine\n\n")
	switch {
	case r.redis == nil:
		fmt.Fprintf(b, "Not measured in this run (`--only` left it out); the model uses orders of magnitude: 10⁵ GET/s and 5·10⁴ script calls/s per Redis core.\n\n")
	case r.redis.Err != "":
		fmt.Fprintf(b, "Not measured: %s. The model uses orders of magnitude: 10⁵ GET/s and 5·10⁴ script calls/s per Redis core.\n\n", mdEscape(r.redis.Err))
	default:
		fmt.Fprintf(b, "redis-server (no persistence) on CPU 0, redis-benchmark on CPU 1 (50 clients, 100,000 random keys). Redis runs commands on one thread: one Redis is one core, whatever the machine.\n\n| command | stands for | clients got req/s | req per second of Redis CPU |\n|---|---|--:|--:|\n")
		for _, op := range r.redis.Ops {
			fmt.Fprintf(b, "| %s | %s | %s | %s |\n", op.Name, op.Description, fmtRPS(op.RPS), fmtRPS(op.PerCPUSec))
		}
		fmt.Fprintln(b)
	}
	rows := r.scaleRows()
	if len(rows) == 0 {
		fmt.Fprintf(b, "No endpoint row was measured in this run: the model needs the token, introspection or handler rows.\n\n")
		return
	}
	fmt.Fprintf(b, "### Instances\n\nEach instance one core (GOMAXPROCS=1, as measured); the aggregate assumes the load balancer and the network keep up, and that instances scale linearly (they share nothing but Redis). Redis load is the aggregate times the round trips per request, as a share of one Redis core.\n\n")
	ns := []int{1, 4, 16, 64}
	fmt.Fprintf(b, "| endpoint | row | req/s per core | Redis ops/req |")
	for _, n := range ns {
		fmt.Fprintf(b, " %d instances: req/s · Redis |", n)
	}
	fmt.Fprintf(b, " one Redis is enough up to |\n|---|---|--:|--:|")
	for range ns {
		fmt.Fprintf(b, "--:|")
	}
	fmt.Fprintf(b, "--:|\n")
	for _, c := range rows {
		capRPS, measured := r.capacity(c.command)
		fmt.Fprintf(b, "| %s | `%s` | %s | %g |", c.endpoint, c.row, fmtRPS(c.rps), c.ops)
		for _, n := range ns {
			agg := c.rps * float64(n)
			load := "0%"
			if c.ops > 0 {
				load = fmt.Sprintf("%.0f%%", 100*agg*c.ops/capRPS)
			}
			fmt.Fprintf(b, " %s · %s |", fmtRPS(agg), load)
		}
		if c.ops == 0 {
			fmt.Fprintf(b, " no Redis on the path |\n")
			continue
		}
		limit := capRPS / c.ops / c.rps
		src := "measured"
		if !measured {
			src = "order of magnitude"
		}
		fmt.Fprintf(b, " %.0f instances (%s req/s; Redis %s) |\n", math.Floor(limit), fmtRPS(capRPS/c.ops), src)
	}
	fmt.Fprintln(b)
	fmt.Fprintf(b, "### What then\n\n")
	fmt.Fprintf(b, "- **Issuing does not need Redis per request** (client_secret_basic): the key ring lives in memory and is reloaded every 30 s, so token endpoints scale with cores until the key-ring reloads (one HMGET per instance per 30 s) matter, which they never do at any plausible instance count.\n")
	fmt.Fprintf(b, "- **Introspection and revocation** put one round trip per request on Redis. When the table's limit comes near, shard: the revocations are one key per token (`revoked:<jti>`), so **Redis Cluster** spreads them over hash slots with no hot key (the key ring is one hash, read once per 30 s per instance). Read replicas would take the GETs but add replication lag to revocation: a token revoked on the primary could read as active on a replica for the lag, so introspection should stay on the primaries.\n")
	fmt.Fprintf(b, "- **The verify path needs no Redis at all**: a resource server that verifies the signature against the published JWKS (`signet guard`, the bearer middleware) costs the token service nothing per request and scales with its own cores. Revocation is then bounded by the token's lifetime (short-lived access tokens), and introspection is kept for the calls that must see a revocation at once.\n\n")
}
