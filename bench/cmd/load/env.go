package main

import (
	"bufio"
	"fmt"
	"os"
	"os/exec"
	"runtime"
	"strings"
)

// envInfo describes the machine the run measured.
type envInfo struct {
	CPU   string
	Cores int
	Go    string
	OS    string
	Wrk   string
}

func (e envInfo) String() string {
	return fmt.Sprintf("%s, %d cores, %s, %s", e.CPU, e.Cores, e.Go, e.OS)
}

func environment() envInfo {
	e := envInfo{Cores: runtime.NumCPU(), Go: runtime.Version(), OS: runtime.GOOS + "/" + runtime.GOARCH, CPU: "unknown CPU", Wrk: "wrk"}
	if f, err := os.Open("/proc/cpuinfo"); err == nil {
		sc := bufio.NewScanner(f)
		for sc.Scan() {
			if k, v, ok := strings.Cut(sc.Text(), ":"); ok && strings.TrimSpace(k) == "model name" {
				e.CPU = strings.TrimSpace(v)
				break
			}
		}
		f.Close()
	}
	if out, err := exec.Command("wrk", "-v").CombinedOutput(); len(out) > 0 {
		_ = err // wrk -v exits 1 after printing its version
		if f := strings.Fields(string(out)); len(f) >= 2 {
			e.Wrk = f[0] + " " + f[1]
		}
	}
	return e
}
