// Command xlang-go is the Go side of the cross-language scenario
// (bench/xlang/README.md): HS256 sign, verify and decode of
// {sub, iat, exp} with signet or golang-jwt/jwt/v5, and the interop
// program those libraries answer through.
//
//	xlang-go <signet|golang-jwt> bench --emails FILE --n N --threads T
//	xlang-go <signet|golang-jwt> interop < request.json > response.json
package main

import (
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"runtime"
	"runtime/debug"
	"strconv"
	"strings"
	"sync"
	"time"
)

// scenario is one library's single iteration: sign the claims of sub at
// iat, verify and decode the token, and check the subject.
type scenario interface {
	once(sub string, iat int64) error
}

// library is what each library offers the program.
type library struct {
	module   string // Go module path, for the version
	scenario func(secret []byte) (scenario, error)
	interop  func(c *interopCase) interopResult
}

var libraries = map[string]library{
	"signet":     {module: "github.com/signet-go/signet", scenario: newSignetScenario, interop: signetInterop},
	"golang-jwt": {module: "github.com/golang-jwt/jwt/v5", scenario: newGolangJWTScenario, interop: golangJWTInterop},
}

func main() {
	if err := run(os.Args[1:], os.Stdin, os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "xlang-go:", err)
		os.Exit(1)
	}
}

func run(args []string, stdin io.Reader, stdout io.Writer) error {
	if len(args) < 2 {
		return errors.New("usage: xlang-go <signet|golang-jwt> <bench|interop> [flags]")
	}
	lib, ok := libraries[args[0]]
	if !ok {
		return fmt.Errorf("unknown library %q (want signet or golang-jwt)", args[0])
	}
	switch args[1] {
	case "bench":
		return bench(args[0], lib, args[2:], stdout)
	case "interop":
		return interop(lib, stdin, stdout)
	}
	return fmt.Errorf("unknown mode %q (want bench or interop)", args[1])
}

// benchResult is the bench mode's one line of output.
type benchResult struct {
	Lang       string `json:"lang"`
	Lib        string `json:"lib"`
	LibVersion string `json:"lib_version"`
	Runtime    string `json:"runtime"`
	Threads    int    `json:"threads"`
	N          int    `json:"n"`
	ElapsedNs  int64  `json:"elapsed_ns"`
	PeakRSSKiB int64  `json:"peak_rss_kib"`
}

func bench(name string, lib library, args []string, stdout io.Writer) error {
	fs := flag.NewFlagSet("bench", flag.ContinueOnError)
	emailsPath := fs.String("emails", "", "JSON array of addresses")
	n := fs.Int("n", 1_000_000, "iterations")
	threads := fs.Int("threads", 1, "workers")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if *n < 1 || *threads < 1 {
		return errors.New("--n and --threads must be positive")
	}
	secret := []byte(os.Getenv("JWT_SECRET"))
	if len(secret) == 0 {
		return errors.New("JWT_SECRET is not set")
	}
	raw, err := os.ReadFile(*emailsPath)
	if err != nil {
		return err
	}
	var emails []string
	if err := json.Unmarshal(raw, &emails); err != nil || len(emails) == 0 {
		return fmt.Errorf("%s: want a non-empty JSON array of strings (%v)", *emailsPath, err)
	}
	// One OS thread per worker: T = 1 is single-threaded Go, as the other
	// languages' single-threaded runs are.
	runtime.GOMAXPROCS(*threads)
	sc, err := lib.scenario(secret)
	if err != nil {
		return err
	}

	errs := make([]error, *threads)
	var wg sync.WaitGroup
	start := time.Now()
	for w := range *threads {
		share := *n / *threads
		if w < *n%*threads {
			share++
		}
		wg.Go(func() {
			idx := w * len(emails) / *threads
			for range share {
				if err := sc.once(emails[idx], time.Now().Unix()); err != nil {
					errs[w] = err
					return
				}
				if idx++; idx == len(emails) {
					idx = 0
				}
			}
		})
	}
	wg.Wait()
	elapsed := time.Since(start)
	if err := errors.Join(errs...); err != nil {
		return err
	}
	return json.NewEncoder(stdout).Encode(benchResult{
		Lang: "go", Lib: name, LibVersion: moduleVersion(lib.module), Runtime: runtime.Version(),
		Threads: *threads, N: *n, ElapsedNs: elapsed.Nanoseconds(), PeakRSSKiB: peakRSSKiB(),
	})
}

// moduleVersion is the version of a module built into the program
// ("(devel)" for signet itself, replaced from the working tree).
func moduleVersion(path string) string {
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return "unknown"
	}
	if bi.Main.Path == path {
		return bi.Main.Version
	}
	for _, d := range bi.Deps {
		if d.Path == path {
			if d.Replace != nil {
				return "working tree (" + d.Replace.Path + ")"
			}
			return d.Version
		}
	}
	return "unknown"
}

// peakRSSKiB is the process's peak resident set (VmHWM of
// /proc/self/status), 0 where there is none.
func peakRSSKiB() int64 {
	data, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return 0
	}
	for line := range strings.SplitSeq(string(data), "\n") {
		if v, ok := strings.CutPrefix(line, "VmHWM:"); ok {
			kb, _ := strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(v), " kB"), 10, 64)
			return kb
		}
	}
	return 0
}
