package redisstore

import (
	"bytes"
	"context"
	"fmt"
	"net"
	"os/exec"
	"strconv"
	"syscall"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"
)

// redisServer is a redis-server process of a test's own, on a free
// loopback port, without persistence; it is killed when the test ends.
type redisServer struct {
	t    *testing.T
	bin  string
	dir  string
	port int
	cmd  *exec.Cmd
	done chan struct{} // closed when the process has exited
	out  *bytes.Buffer
}

// startRedis starts a redis-server for t and waits until it answers. A
// test that needs Redis and cannot start it fails: the project's
// scripts/install-redis.sh (make server-deps) installs it.
func startRedis(t *testing.T) *redisServer {
	t.Helper()
	bin, err := exec.LookPath("redis-server")
	if err != nil {
		bin = "/usr/bin/redis-server"
		if _, err := exec.LookPath(bin); err != nil {
			t.Fatalf("redis-server not found (run scripts/install-redis.sh or make server-deps): %v", err)
		}
	}
	r := &redisServer{t: t, bin: bin, dir: t.TempDir()}
	t.Cleanup(r.stop)
	// The free port found may be taken by someone else before Redis binds
	// it: then another.
	for attempt := 1; ; attempt++ {
		l, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		r.port = l.Addr().(*net.TCPAddr).Port
		l.Close()
		err = r.tryStart()
		if err == nil {
			return r
		}
		if attempt == 3 {
			t.Fatalf("starting redis-server: %v", err)
		}
	}
}

// addr is the server's host:port; url its redis:// URL.
func (r *redisServer) addr() string { return "127.0.0.1:" + strconv.Itoa(r.port) }
func (r *redisServer) url() string  { return "redis://" + r.addr() + "/0" }

// start runs redis-server again on the same port (a restart).
func (r *redisServer) start() {
	r.t.Helper()
	if err := r.tryStart(); err != nil {
		r.t.Fatalf("restarting redis-server: %v", err)
	}
}

// tryStart runs redis-server on r.port and waits (up to 30 s) for it to
// answer PING.
func (r *redisServer) tryStart() error {
	r.out = &bytes.Buffer{}
	r.cmd = exec.Command(r.bin, "--bind", "127.0.0.1", "--port", strconv.Itoa(r.port), "--dir", r.dir,
		"--save", "", "--appendonly", "no", "--daemonize", "no", "--protected-mode", "yes")
	r.cmd.Stdout, r.cmd.Stderr = r.out, r.out
	if err := r.cmd.Start(); err != nil {
		r.cmd = nil
		return err
	}
	done := make(chan struct{})
	r.done = done
	go func(cmd *exec.Cmd) { cmd.Wait(); close(done) }(r.cmd)
	c := redis.NewClient(&redis.Options{Addr: r.addr(), MaxRetries: -1, DisableIdentity: true})
	defer c.Close()
	deadline := time.Now().Add(30 * time.Second)
	for {
		ctx, cancel := context.WithTimeout(context.Background(), time.Second)
		err := c.Ping(ctx).Err()
		cancel()
		if err == nil {
			return nil
		}
		select {
		case <-done:
			r.cmd = nil
			return fmt.Errorf("redis-server on %s exited: %s", r.addr(), r.out)
		default:
		}
		if time.Now().After(deadline) {
			r.stop()
			return fmt.Errorf("redis-server on %s did not answer within 30 s: %v\n%s", r.addr(), err, r.out)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// stop kills the server and waits for it to exit.
func (r *redisServer) stop() {
	if r.cmd == nil {
		return
	}
	r.cmd.Process.Kill()
	<-r.done
	r.cmd = nil
}

// pause stops the process (SIGSTOP): it keeps its port but answers
// nothing, as a hung Redis would; resume continues it.
func (r *redisServer) pause() {
	r.t.Helper()
	if err := r.cmd.Process.Signal(syscall.SIGSTOP); err != nil {
		r.t.Fatal(err)
	}
}

func (r *redisServer) resume() {
	r.t.Helper()
	if err := r.cmd.Process.Signal(syscall.SIGCONT); err != nil {
		r.t.Fatal(err)
	}
}

// client is a plain client of r, for looking at what the store wrote.
func (r *redisServer) client() *redis.Client {
	c := redis.NewClient(&redis.Options{Addr: r.addr(), DisableIdentity: true})
	r.t.Cleanup(func() { c.Close() })
	return c
}
