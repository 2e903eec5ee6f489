//go:build unix

package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/signet-go/signet/jwk"
)

// TestKeygenStdoutFileMode: "signet keygen ALG > key.jwk" writes a private
// key to a file the shell made with the umask's mode, 0644 by default: one
// every local user can read. keygen makes such a file private (only the
// owner's bits kept) before it writes the key, and says so; a file only
// the owner can read, and anything that is not a regular file, are left
// as they are.
func TestKeygenStdoutFileMode(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	tests := []struct {
		mode, want os.FileMode
		warns      bool
	}{
		{0o644, 0o600, true},
		{0o666, 0o600, true},
		{0o640, 0o600, true},
		{0o604, 0o600, true},
		{0o700, 0o700, false},
		{0o600, 0o600, false},
		{0o400, 0o400, false},
	}
	for _, tt := range tests {
		for _, args := range [][]string{{"keygen", "ES256"}, {"keygen", "v4.local"}, {"keygen", "PBES2-HS256+A128KW"}} {
			path := filepath.Join(dir, strings.ReplaceAll(args[1], "+", "_")+"-"+tt.mode.String())
			f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE|os.O_EXCL, 0o600)
			if err != nil {
				t.Fatal(err)
			}
			if err := f.Chmod(tt.mode); err != nil { // whatever the umask
				t.Fatal(err)
			}
			var errb bytes.Buffer
			code := run(args, strings.NewReader(""), f, &errb)
			f.Close()
			if code != exitOK {
				t.Fatalf("%q to a %v file: exit %d: %s", args, tt.mode, code, errb.String())
			}
			fi, err := os.Stat(path)
			if err != nil {
				t.Fatal(err)
			}
			if got := fi.Mode().Perm(); got != tt.want {
				t.Errorf("%q to a %v file: the key file is %v, want %v", args, tt.mode, got, tt.want)
			}
			if warned := strings.Contains(errb.String(), "warning: the key file could be read by others"); warned != tt.warns {
				t.Errorf("%q to a %v file: stderr %q", args, tt.mode, errb.String())
			}
			data, _ := os.ReadFile(path)
			if args[1] == "ES256" {
				if k, err := jwk.ParseKey(data); err != nil || !k.CanSign() {
					t.Errorf("%q wrote %q (%v)", args, data, err)
				}
			} else if len(data) == 0 {
				t.Errorf("%q wrote nothing", args)
			}
		}
	}
	// pub prints a public key: the file keeps its mode.
	path := filepath.Join(dir, "pub")
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		t.Fatal(err)
	}
	if err := f.Chmod(0o644); err != nil {
		t.Fatal(err)
	}
	var errb bytes.Buffer
	code := run([]string{"pub"}, bytes.NewReader(privateJWK(t, "ES256")), f, &errb)
	f.Close()
	if fi, err := os.Stat(path); code != exitOK || err != nil || fi.Mode().Perm() != 0o644 || errb.Len() != 0 {
		t.Errorf("pub to a 0644 file: exit %d, %v, stderr %q", code, err, errb.String())
	}
}
