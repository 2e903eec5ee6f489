package load

import (
	_ "embed"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
)

// faultLua holds the faults' own wrk script, faultlua/fault.lua (run
// after lua/lib.lua and before lua/report.lua, as every script of the
// lab).
//
//go:embed faultlua/fault.lua
var faultLua []byte

// faultCounts is what fault.lua writes in done(): the answers saying
// active, and wrk's socket errors by kind.
type faultCounts struct {
	Active  int64 `json:"active"`
	Connect int64 `json:"connect"`
	Read    int64 `json:"read"`
	Write   int64 `json:"write"`
	Timeout int64 `json:"timeout"`
	Status  int64 `json:"status"`
}

// withFaultScript makes s run fault.lua (written into dir) with the same
// arguments, and returns the file its counts go to (see readFaultCounts).
func withFaultScript(dir string, s WrkSpec) (WrkSpec, string, error) {
	script := filepath.Join(dir, "fault.lua")
	if err := os.WriteFile(script, faultLua, 0o644); err != nil {
		return s, "", err
	}
	f, err := os.CreateTemp(dir, "wrk-counts-*.json")
	if err != nil {
		return s, "", err
	}
	out := f.Name()
	f.Close()
	s.Script = script
	s.Args = append(append([]string(nil), s.Args...), "out="+out)
	return s, out, nil
}

// readFaultCounts reads what fault.lua wrote to path.
func readFaultCounts(path string) (faultCounts, error) {
	var c faultCounts
	b, err := os.ReadFile(path)
	if err != nil {
		return c, fmt.Errorf("the counts of fault.lua: %w", err)
	}
	if err := json.Unmarshal(b, &c); err != nil {
		return c, fmt.Errorf("the counts of fault.lua: %q: %w", b, err)
	}
	return c, nil
}
