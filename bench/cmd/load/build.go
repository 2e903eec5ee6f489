package main

import (
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"time"
)

// binaries the driver builds: name → (module directory relative to the
// repository root, package path in it).
var binaries = []struct{ name, dir, pkg string }{
	{"signet", "cmd/signet", "."},         // the real CLI: signet serve, signet guard
	{"loadsrv", "bench", "./cmd/loadsrv"}, // the scenario server (study shapes, /hello)
}

// build compiles the binaries into bin (go build; the go command's cache
// makes a second run quick).
func build(root, bin string, log io.Writer) error {
	if err := os.MkdirAll(bin, 0o755); err != nil {
		return err
	}
	for _, b := range binaries {
		start := time.Now()
		out := filepath.Join(bin, b.name)
		cmd := exec.Command("go", "build", "-o", out, b.pkg)
		cmd.Dir = filepath.Join(root, b.dir)
		msg, err := cmd.CombinedOutput()
		if err != nil {
			return fmt.Errorf("go build %s in %s: %w\n%s", b.pkg, cmd.Dir, err, msg)
		}
		fmt.Fprintf(log, "load: built %s (%v)\n", out, time.Since(start).Round(time.Millisecond))
	}
	return nil
}
