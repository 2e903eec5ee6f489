//go:build unix

package main

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/signet-go/signet"
)

// runBounded runs the CLI in a goroutine and fails the test if it has not
// returned by a generous deadline: a read that waits on a pipe would hang
// the test otherwise. unblock, called on a hang, frees the stuck read.
func runBounded(t *testing.T, unblock func(), stdin string, args ...string) result {
	t.Helper()
	done := make(chan result, 1)
	go func() {
		var out, errb bytes.Buffer
		c := &cli{stdin: strings.NewReader(stdin), stderr: &errb, now: func() time.Time { return testNow }}
		code := c.main(args, &out)
		done <- result{code, out.String(), errb.String()}
	}()
	select {
	case r := <-done:
		checkInvariants(t, args, r)
		return r
	case <-time.After(30 * time.Second):
		unblock()
		t.Fatalf("%q did not return within 30 s: it waits on a file that is not a regular file", args)
		return result{}
	}
}

// TestNotRegularFileRefused: a key, claims, JWK Set or request file that
// is a named pipe, a directory or a device is refused at once (exit 1,
// signet.ErrUnsupported), never waited on or read without end: issue 14,
// a FIFO hung the CLI.
func TestNotRegularFileRefused(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	fifo := filepath.Join(dir, "fifo")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatalf("mkfifo: %v", err)
	}
	// Frees a reader stuck opening the FIFO: opening it to write, without
	// blocking, succeeds once a reader is there.
	unblockFIFO := func() {
		if f, err := os.OpenFile(fifo, os.O_WRONLY|syscall.O_NONBLOCK, 0); err == nil {
			f.Close()
		}
	}
	pr, pw, err := os.Pipe() // an anonymous pipe, as /dev/stdin is when piped
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { pr.Close(); pw.Close() })
	pipePath := "/dev/fd/" + strconv.Itoa(int(pr.Fd()))
	unblockPipe := func() { pw.Close() }

	files := []struct {
		name, path string
		unblock    func()
		want       string
	}{
		{"named pipe", fifo, unblockFIFO, "named pipe"},
		{"directory", dir, func() {}, "directory"},
		{"/dev/zero", "/dev/zero", func() {}, "device"},
	}
	if _, err := os.Stat(pipePath); err == nil {
		files = append(files, struct {
			name, path string
			unblock    func()
			want       string
		}{"pipe as /dev/fd/N", pipePath, unblockPipe, "named pipe"})
	} else if _, err := os.Stat("/dev/fd"); err == nil {
		t.Fatalf("%s: %v", pipePath, err)
	}
	_, keyPath := newKeyFile(t, dir, signet.EdDSA, "ed")
	v4 := writeFile(t, dir, "v4.key", []byte(runCLI(t, "", "keygen", "v4.local").stdout))
	_, hsig := newKeyFile(t, dir, signet.Ed25519, "web")
	for _, f := range files {
		for _, args := range [][]string{
			{"jwt", "sign", "--key", f.path},
			{"jwt", "sign", "--key", keyPath, "--claims", f.path},
			{"jwt", "verify", "--key", f.path},
			{"jwt", "verify", "--jwks", f.path},
			{"jwt", "sign", "--key", f.path, "--alg", "HS256", "--secret-encoding", "raw"},
			{"paseto", "encrypt", "--key", f.path, "--no-exp"},
			{"paseto", "encrypt", "--key", v4, "--claims", f.path, "--no-exp"},
			{"httpsig", "sign", "--key", f.path, "--label", "s", "--components", "@method"},
			{"httpsig", "verify", "--key", hsig, "--request", f.path},
		} {
			r := runBounded(t, f.unblock, `{"sub":"a"}`, args...)
			wantCode(t, r, exitRejected, f.name+": "+strings.Join(args, " "))
			if !strings.Contains(r.stderr, f.want) || !strings.Contains(r.stderr, "not a regular file") {
				t.Errorf("%s: %q: stderr %q, want it to name %q", f.name, args, r.stderr, f.want)
			}
		}
		_, err := readFile(f.path, "key file")
		if !errors.Is(err, signet.ErrUnsupported) {
			t.Errorf("%s: readFile: %v, want ErrUnsupported", f.name, err)
		}
	}
	// A symbolic link to a regular file is read; one to a FIFO is not.
	link := filepath.Join(dir, "link.jwk")
	if err := os.Symlink(keyPath, link); err != nil {
		t.Fatal(err)
	}
	if _, err := readFile(link, "key file"); err != nil {
		t.Errorf("link to a regular file: %v", err)
	}
	flink := filepath.Join(dir, "link.fifo")
	if err := os.Symlink(fifo, flink); err != nil {
		t.Fatal(err)
	}
	r := runBounded(t, unblockFIFO, "", "jwt", "verify", "--key", flink)
	wantCode(t, r, exitRejected, "link to a FIFO")
}
