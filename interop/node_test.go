package interop_test

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"
)

// The npm peers (jose, http-message-signatures) live in interop/node,
// pinned in its package-lock.json, and are driven by scripts that take one
// JSON batch on stdin and answer on stdout.

// requireNodePeer returns the repository root and the node binary, with
// the npm package pkg installed at the version package-lock.json pins; or
// it skips the test (fails it when SIGNET_INTEROP=1).
func requireNodePeer(t *testing.T, pkg string) (root, node string) {
	t.Helper()
	root = repoRoot(t)
	node, err := exec.LookPath("node")
	if err != nil {
		unavailable(t, pkg, "node (Node.js >= 20) is not installed or not in PATH")
	}
	pinned := lockedVersion(t, root, pkg)
	installedPath := filepath.Join(root, peerDir, "node_modules", pkg, "package.json")
	var installed struct {
		Version string `json:"version"`
	}
	b, err := os.ReadFile(installedPath)
	if err != nil {
		unavailable(t, pkg, "npm %s is not installed in %s/node_modules", pkg, peerDir)
	}
	if err := json.Unmarshal(b, &installed); err != nil {
		unavailable(t, pkg, "cannot read %s: %v", installedPath, err)
	}
	if installed.Version != pinned {
		unavailable(t, pkg, "%s/node_modules has %s %s, package-lock.json pins %s", peerDir, pkg, installed.Version, pinned)
	}
	return root, node
}

// lockedVersion is the version of the npm package pkg that
// package-lock.json pins.
func lockedVersion(t *testing.T, root, pkg string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(root, peerDir, "package-lock.json"))
	if err != nil {
		t.Fatalf("read the pinned %s version: %v", pkg, err)
	}
	var lock struct {
		Packages map[string]struct {
			Version string `json:"version"`
		} `json:"packages"`
	}
	if err := json.Unmarshal(b, &lock); err != nil {
		t.Fatalf("read %s/package-lock.json: %v", peerDir, err)
	}
	v := lock.Packages["node_modules/"+pkg].Version
	if v == "" {
		t.Fatalf("%s/package-lock.json pins no %s", peerDir, pkg)
	}
	return v
}

// runNode runs script (relative to root) once with req as JSON on stdin
// and decodes its stdout into resp, strictly; it returns what the script
// wrote on stderr.
func runNode(t *testing.T, root, node, script string, timeout time.Duration, req, resp any) []byte {
	t.Helper()
	in, err := json.Marshal(req)
	if err != nil {
		t.Fatalf("encode the peer request: %v", err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, node, script)
	cmd.Dir = root
	cmd.Stdin = bytes.NewReader(in)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("node %s: %v\nstderr:\n%s", script, err, stderr.Bytes())
	}
	dec := json.NewDecoder(&stdout)
	dec.DisallowUnknownFields()
	if err := dec.Decode(resp); err != nil {
		t.Fatalf("decode the peer response: %v\nstdout:\n%.2000s\nstderr:\n%s", err, stdout.Bytes(), stderr.Bytes())
	}
	return stderr.Bytes()
}
