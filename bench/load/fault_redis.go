package load

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"net"
	"os/exec"
	"strconv"
	"sync"
	"syscall"
	"time"
)

// redisWait bounds the wait for a redis-server to answer PING, and for
// one to exit on SIGTERM.
const redisWait = 10 * time.Second

// redisProc is a redis-server of the faults' own, on a free loopback
// port, that a fault stops and restarts on the same port. It keeps its
// data in an append-only file written at every command, so that a
// restart in the same directory finds the key ring and the revocations
// again.
type redisProc struct {
	bin    string
	port   string
	dir    string
	cpus   string // taskset list, "" for none
	cmd    *exec.Cmd
	exited chan struct{}
	out    *lockedBuffer
}

// startRedis starts redis-server in dir on a free 127.0.0.1 port,
// pinned to cpus when taskset is there. A missing redis-server is an
// error (scripts/install-redis.sh installs it).
func startRedis(dir, cpus string) (*redisProc, error) {
	bin, err := exec.LookPath("redis-server")
	if err != nil {
		return nil, fmt.Errorf("load: redis-server not found (run scripts/install-redis.sh): %w", err)
	}
	p := &redisProc{bin: bin, dir: dir, cpus: cpus}
	for attempt := 1; ; attempt++ {
		port, err := freePort()
		if err != nil {
			return nil, err
		}
		p.port = port
		if err = p.start(); err == nil {
			return p, nil
		}
		if attempt == 3 {
			return nil, err
		}
	}
}

// freePort returns a loopback port free a moment ago.
func freePort() (string, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return "", err
	}
	defer l.Close()
	return strconv.Itoa(l.Addr().(*net.TCPAddr).Port), nil
}

func (p *redisProc) addr() string { return "127.0.0.1:" + p.port }
func (p *redisProc) url() string  { return "redis://" + p.addr() + "/0" }

// start starts redis-server on p.port in p.dir and waits until it
// answers PING.
func (p *redisProc) start() error {
	args := []string{"--bind", "127.0.0.1", "--port", p.port, "--dir", p.dir,
		"--save", "", "--appendonly", "yes", "--appendfsync", "always",
		"--daemonize", "no", "--protected-mode", "yes"}
	name := p.bin
	if p.cpus != "" {
		if ts, err := exec.LookPath("taskset"); err == nil {
			args = append([]string{"-c", p.cpus, p.bin}, args...)
			name = ts
		}
	}
	p.out = &lockedBuffer{}
	p.cmd = exec.Command(name, args...)
	p.cmd.Stdout, p.cmd.Stderr = p.out, p.out
	if err := p.cmd.Start(); err != nil {
		return fmt.Errorf("load: starting redis-server: %w", err)
	}
	p.exited = make(chan struct{})
	cmd, exited := p.cmd, p.exited
	go func() { cmd.Wait(); close(exited) }()
	if err := waitRedis(p.addr(), exited); err != nil {
		p.kill()
		return fmt.Errorf("load: redis-server on %s: %w\n%s", p.addr(), err, p.out)
	}
	return nil
}

// terminate stops it gracefully (SIGTERM: the append-only file is
// complete) and waits until it exited.
func (p *redisProc) terminate() error {
	if err := p.cmd.Process.Signal(syscall.SIGTERM); err != nil {
		return fmt.Errorf("load: SIGTERM to redis-server: %w", err)
	}
	select {
	case <-p.exited:
		return nil
	case <-time.After(redisWait):
		p.kill()
		return fmt.Errorf("load: redis-server did not stop on SIGTERM within %v", redisWait)
	}
}

// kill kills it, if it runs, and waits until it exited.
func (p *redisProc) kill() {
	if p.cmd == nil || p.exited == nil {
		return
	}
	select {
	case <-p.exited:
		return
	default:
	}
	p.cmd.Process.Kill()
	<-p.exited
}

// waitRedis waits until a Redis at addr answers PING (RESP), or the
// process exits, or redisWait passes.
func waitRedis(addr string, exited <-chan struct{}) error {
	deadline := time.Now().Add(redisWait)
	for {
		if pingRedis(addr) == nil {
			return nil
		}
		select {
		case <-exited:
			return errors.New("exited before answering")
		case <-time.After(20 * time.Millisecond):
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("no PONG within %v", redisWait)
		}
	}
}

// pingRedis sends one PING to addr.
func pingRedis(addr string) error {
	ctx, cancel := context.WithTimeout(context.Background(), time.Second)
	defer cancel()
	var d net.Dialer
	c, err := d.DialContext(ctx, "tcp", addr)
	if err != nil {
		return err
	}
	defer c.Close()
	c.SetDeadline(time.Now().Add(time.Second))
	if _, err := c.Write([]byte("*1\r\n$4\r\nPING\r\n")); err != nil {
		return err
	}
	line, err := bufio.NewReader(c).ReadString('\n')
	if err != nil {
		return err
	}
	if line != "+PONG\r\n" {
		return fmt.Errorf("PING answered %q", line)
	}
	return nil
}

// lockedBuffer is a bytes.Buffer safe for a process's output and a
// reader at once.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}
