package main

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"net"
	"os/exec"
	"strconv"
	"strings"
	"time"

	"github.com/signet-go/signet"
	"github.com/signet-go/signet/bench/load"
)

// redisCap is one Redis's capacity as measured on this machine: per
// command, the requests/s redis-benchmark reached and the requests per
// second of redis-server's CPU time (its one core).
type redisCap struct {
	Ops []redisOp
	Err string // why it was not measured
}

type redisOp struct {
	Name        string
	RPS         float64 // what the clients got
	PerCPUSec   float64 // requests per second of redis-server's CPU time
	Description string
}

// revokeLua is the shape of the token service's revoke script
// (server/storage/redisstore: a GET, a comparison, a SET with PX).
const revokeLua = "local c = redis.call('GET', KEYS[1]) if c and c >= ARGV[1] then return 0 end redis.call('SET', KEYS[1], ARGV[1], 'PX', 60000) return 1"

// measureRedis starts a redis-server on CPU 0 (no persistence) and runs
// redis-benchmark on CPU 1 against it: GET, SET and the revoke script's
// shape, n requests each from 50 clients over 100,000 random keys.
func measureRedis(ctx context.Context, env *load.Env, n int) redisCap {
	for _, p := range []string{"redis-server", "redis-benchmark"} {
		if _, err := exec.LookPath(p); err != nil {
			return redisCap{Err: p + " not installed (bash scripts/install-redis.sh)"}
		}
	}
	addr, err := load.FreeAddr()
	if err != nil {
		return redisCap{Err: err.Error()}
	}
	host, port, _ := net.SplitHostPort(addr)
	srv, err := load.StartServer(ctx, load.ServerSpec{Name: "redis", CPUs: env.ServerCPUs,
		Argv: []string{"redis-server", "--bind", host, "--port", port, "--save", "", "--appendonly", "no", "--protected-mode", "yes"}})
	if err != nil {
		return redisCap{Err: err.Error()}
	}
	defer srv.Stop()
	if err := waitTCP(ctx, addr, 10*time.Second); err != nil {
		return redisCap{Err: err.Error()}
	}
	runs := []struct {
		name, desc string
		args       []string
	}{
		{"GET", "introspection's revocation check (GET `revoked:<jti>`)", []string{"-t", "get"}},
		{"SET", "a plain write", []string{"-t", "set"}},
		{"EVAL revoke", "revocation, private_key_jwt replay (a script: GET, compare, SET PX)", []string{"EVAL", revokeLua, "1", "revoked:__rand_int__", "00000000001800000000"}},
	}
	var c redisCap
	for _, r := range runs {
		cpu0, err := srv.CPUTime()
		if err != nil {
			return redisCap{Err: err.Error()}
		}
		argv := []string{"redis-benchmark", "-h", host, "-p", port, "-c", "50", "-n", strconv.Itoa(n), "-r", "100000", "-q"}
		argv = append(argv, r.args...)
		if env.WrkCPUs != "-" {
			argv = append([]string{"taskset", "-c", env.WrkCPUs}, argv...)
		}
		out, err := exec.CommandContext(ctx, argv[0], argv[1:]...).CombinedOutput()
		if err != nil {
			return redisCap{Err: fmt.Sprintf("redis-benchmark %s: %v: %s", r.name, err, tail(string(out)))}
		}
		rps, err := parseRedisBenchmark(out)
		if err != nil {
			return redisCap{Err: fmt.Sprintf("redis-benchmark %s: %v", r.name, err)}
		}
		cpu1, err := srv.CPUTime()
		if err != nil {
			return redisCap{Err: err.Error()}
		}
		op := redisOp{Name: r.name, RPS: rps, Description: r.desc}
		if d := (cpu1 - cpu0).Seconds(); d > 0 {
			op.PerCPUSec = float64(n) / d
		}
		c.Ops = append(c.Ops, op)
	}
	return c
}

func waitTCP(ctx context.Context, addr string, limit time.Duration) error {
	deadline := time.Now().Add(limit)
	for {
		c, err := net.DialTimeout("tcp", addr, 200*time.Millisecond)
		if err == nil {
			return c.Close()
		}
		if time.Now().After(deadline) || ctx.Err() != nil {
			return fmt.Errorf("redis at %s did not accept within %v: %v", addr, limit, err)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// parseRedisBenchmark reads the requests/s of redis-benchmark -q's output
// ("GET: 141643.06 requests per second, p50=0.183 msec"; progress lines
// end in \r). One test per run.
func parseRedisBenchmark(out []byte) (float64, error) {
	if len(out) > 1<<20 {
		return 0, fmt.Errorf("%w: redis-benchmark output of %d bytes", signet.ErrTooLarge, len(out))
	}
	var found float64
	sc := bufio.NewScanner(bytes.NewReader(bytes.ReplaceAll(out, []byte("\r"), []byte("\n"))))
	for sc.Scan() {
		line := sc.Text()
		i := strings.Index(line, " requests per second")
		if i < 0 {
			continue
		}
		j := strings.LastIndex(line[:i], ": ")
		if j < 0 {
			continue
		}
		v, err := strconv.ParseFloat(strings.TrimSpace(line[j+2:i]), 64)
		if err != nil || v <= 0 {
			return 0, fmt.Errorf("%w: redis-benchmark rate %q", signet.ErrMalformed, line)
		}
		found = v
	}
	if found == 0 {
		return 0, fmt.Errorf("%w: no \"requests per second\" in redis-benchmark's output %q", signet.ErrMalformed, tail(string(out)))
	}
	return found, nil
}

func tail(s string) string {
	s = strings.TrimSpace(s)
	if len(s) > 400 {
		s = "…" + s[len(s)-400:]
	}
	return s
}
