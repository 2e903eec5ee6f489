package load

import (
	"bytes"
	"context"
	"embed"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"time"
)

// WrkSpec is one wrk run: `taskset -c CPUs wrk -t Threads -c Connections
// -d Duration --latency -s <script> URL -- Args...`.
type WrkSpec struct {
	URL         string        // full URL, path included
	Script      string        // Lua file path, or "request.lua"/"tokens.lua" for the package's own; "" = plain GET
	Connections int           // 10 when 0 (the study's -c10)
	Threads     int           // 1 when 0
	Duration    time.Duration // set by Run; whole seconds (wrk takes no less), rounded up; 1 s when 0
	CPUs        string        // taskset list for wrk, "1" when ""
	Args        []string      // the script's arguments (after `--`), key=value, see lua/lib.lua
	Timeout     time.Duration // wrk's --timeout; 2 s when 0
}

// WrkResult is what one wrk run measured.
type WrkResult struct {
	Requests            int64
	Elapsed             time.Duration
	RPS                 float64
	P50, P90, P99, P999 time.Duration
	Max                 time.Duration
	Non2xx              int64 // wrk's "Non-2xx or 3xx responses"
	SocketErrors        int64 // connect + read + write + timeout
	Timeouts            int64
	Statuses            map[int]int64 // from lua/report.lua: responses per status code
}

// Errors is the run's failed requests: socket errors and non-2xx/3xx.
func (r WrkResult) Errors() int64 { return r.SocketErrors + r.Non2xx }

//go:embed lua/*.lua
var luaFS embed.FS

// Scripts lists the package's own scripts, usable by name in
// WrkSpec.Script.
var Scripts = []string{"request.lua", "tokens.lua"}

// ErrWrkMissing is returned by RunWrk when wrk is not on PATH.
var ErrWrkMissing = errors.New("wrk is not installed: run `bash scripts/install-wrk.sh` from the repository root (Debian's wrk package)")

// maxWrkOutput bounds what RunWrk reads of wrk's output.
const maxWrkOutput = 1 << 20

// Command returns the argv RunWrk runs for s, with the composed script at
// scriptPath (lib.lua, the scenario's script, report.lua).
func (s WrkSpec) Command(scriptPath string) []string {
	s = s.withDefaults()
	argv := []string{}
	if _, err := exec.LookPath("taskset"); err == nil && s.CPUs != "-" {
		argv = append(argv, "taskset", "-c", s.CPUs)
	}
	argv = append(argv, "wrk",
		"-t", strconv.Itoa(s.Threads), "-c", strconv.Itoa(s.Connections),
		"-d", durationArg(s.Duration), "--timeout", durationArg(s.Timeout),
		"--latency", "-s", scriptPath, s.URL)
	if len(s.Args) > 0 {
		argv = append(argv, "--")
		argv = append(argv, s.Args...)
	}
	return argv
}

func (s WrkSpec) withDefaults() WrkSpec {
	if s.Connections <= 0 {
		s.Connections = 10
	}
	if s.Threads <= 0 {
		s.Threads = 1
	}
	if s.Threads > s.Connections {
		s.Threads = s.Connections
	}
	if s.Duration <= 0 {
		s.Duration = time.Second
	}
	if s.Timeout <= 0 {
		s.Timeout = 2 * time.Second
	}
	if s.CPUs == "" {
		s.CPUs = "1"
	}
	return s
}

// durationArg formats d for wrk, which takes whole seconds only ("2s"):
// d is rounded up, to 1 s at least.
func durationArg(d time.Duration) string {
	sec := int64((d + time.Second - 1) / time.Second)
	return strconv.FormatInt(max(sec, 1), 10) + "s"
}

// ComposeScript returns the Lua that RunWrk hands to wrk for script (a
// path, one of Scripts, or "" for a plain GET): lib.lua, the script,
// report.lua.
func ComposeScript(script string) ([]byte, error) {
	lib, err := luaFS.ReadFile("lua/lib.lua")
	if err != nil {
		return nil, err
	}
	rep, err := luaFS.ReadFile("lua/report.lua")
	if err != nil {
		return nil, err
	}
	var body []byte
	switch {
	case script == "":
	case !strings.ContainsRune(script, filepath.Separator) && isOwnScript(script):
		body, err = luaFS.ReadFile("lua/" + script)
	default:
		body, err = os.ReadFile(script)
	}
	if err != nil {
		return nil, fmt.Errorf("wrk script %s: %w", script, err)
	}
	var b bytes.Buffer
	b.Write(lib)
	b.WriteString("\n-- the scenario's script\n")
	b.Write(body)
	b.WriteString("\n")
	b.Write(rep)
	return b.Bytes(), nil
}

func isOwnScript(name string) bool {
	for _, s := range Scripts {
		if s == name {
			return true
		}
	}
	return false
}

// RunWrk runs wrk as s says and parses its output. A run that wrk itself
// reports as failed (exit status, no requests) is an error; failed
// requests are not: they are counted in the result.
func RunWrk(ctx context.Context, s WrkSpec) (WrkResult, error) {
	if _, err := exec.LookPath("wrk"); err != nil {
		return WrkResult{}, ErrWrkMissing
	}
	lua, err := ComposeScript(s.Script)
	if err != nil {
		return WrkResult{}, err
	}
	f, err := os.CreateTemp("", "signet-wrk-*.lua")
	if err != nil {
		return WrkResult{}, err
	}
	defer os.Remove(f.Name())
	if _, err := f.Write(lua); err != nil {
		f.Close()
		return WrkResult{}, err
	}
	if err := f.Close(); err != nil {
		return WrkResult{}, err
	}
	argv := s.Command(f.Name())
	cmd := exec.CommandContext(ctx, argv[0], argv[1:]...)
	var stdout, stderr limitedBuffer
	stdout.max, stderr.max = maxWrkOutput, 64<<10
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	runErr := cmd.Run()
	if runErr != nil {
		return WrkResult{}, fmt.Errorf("wrk %s: %w: %s%s", s.URL, runErr, tail(stderr.String()), tail(stdout.String()))
	}
	res, err := ParseWrkOutput(stdout.Bytes())
	if err != nil {
		return WrkResult{}, fmt.Errorf("wrk %s: %w (stderr: %s)", s.URL, err, tail(stderr.String()))
	}
	return res, nil
}

func tail(s string) string {
	s = strings.TrimSpace(s)
	if len(s) > 600 {
		s = "…" + s[len(s)-600:]
	}
	return s
}

// limitedBuffer keeps the first max bytes written to it and drops the
// rest (a misbehaving program cannot fill memory).
type limitedBuffer struct {
	bytes.Buffer
	max int
}

func (b *limitedBuffer) Write(p []byte) (int, error) {
	if room := b.max - b.Len(); room > 0 {
		if len(p) > room {
			b.Buffer.Write(p[:room])
		} else {
			b.Buffer.Write(p)
		}
	}
	return len(p), nil
}
