package interop_test

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"testing"
)

// repoRoot returns the repository root, relative to the package directory
// (the test's working directory).
func repoRoot(t *testing.T) string {
	t.Helper()
	root := ".."
	if b, err := os.ReadFile(filepath.Join(root, "go.mod")); err != nil || !bytes.Contains(b, []byte("module github.com/signet-go/signet\n")) {
		t.Fatalf("cannot find the repository root at %s from the package directory (go.mod: %v)", root, err)
	}
	return root
}

// unavailable reports a missing peer: a skip, or a failure when
// SIGNET_INTEROP=1 says the interop tests must run.
func unavailable(t *testing.T, peer, format string, args ...any) {
	t.Helper()
	msg := fmt.Sprintf(format, args...) + "; run `bash interop/setup.sh` from the repository root"
	if os.Getenv(envRequire) == "1" {
		t.Fatalf("%s (%s=1: the %s interop test must run)", msg, envRequire, peer)
	}
	t.Skipf("%s (set %s=1 to make this a failure)", msg, envRequire)
}
