package load

import (
	"bytes"
	"context"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/signet-go/signet"
)

// ServerSpec is a server process of a scenario.
type ServerSpec struct {
	Name string
	Argv []string // program and arguments
	// Env is added to the lab's environment. GOMAXPROCS=1 is set unless Env
	// sets GOMAXPROCS; GOGC and GOMEMLIMIT go here too.
	Env  []string
	CPUs string // taskset list, "0" when ""; "-" runs without taskset
	// Ready is polled (GET) until it answers 200, for at most ReadyTimeout
	// (10 s when 0). "" waits for nothing.
	Ready        string
	ReadyTimeout time.Duration
	Dir          string // working directory ("" = the lab's)
}

// Server is a running server process.
type Server struct {
	Name string
	PID  int
	cmd  *exec.Cmd
	done chan struct{} // closed when the process has exited
	mu   sync.Mutex
	werr error
	// out holds its stdout and stderr: a file, unlinked at once, so that
	// a server that logs every request never waits for a reader (a pipe
	// to this process, scheduled on the busy CPUs, filled and held the
	// server's log writes for milliseconds). Stop keeps the first
	// outputMax bytes in final and closes it.
	out   *os.File
	final []byte
}

// outputMax is how much of a server's output Output returns.
const outputMax = 64 << 10

// clockTick is the unit of utime and stime in /proc/PID/stat: USER_HZ,
// which Linux fixes at 100 for user space whatever the kernel's HZ.
const clockTick = 10 * time.Millisecond

// StartServer starts s pinned with taskset and waits until it is ready. On
// failure the process is stopped and its output is in the error.
func StartServer(ctx context.Context, s ServerSpec) (*Server, error) {
	if len(s.Argv) == 0 {
		return nil, fmt.Errorf("server %s: %w: no program", s.Name, signet.ErrMalformed)
	}
	argv := s.Argv
	cpus := s.CPUs
	if cpus == "" {
		cpus = "0"
	}
	if cpus != "-" {
		if _, err := exec.LookPath("taskset"); err == nil {
			argv = append([]string{"taskset", "-c", cpus}, argv...)
		}
	}
	// Not CommandContext: a server outlives the context of its start-up
	// and is stopped by Stop (SIGTERM, then SIGKILL).
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Dir = s.Dir
	env := os.Environ()
	if !hasEnv(s.Env, "GOMAXPROCS") {
		env = append(env, "GOMAXPROCS=1")
	}
	cmd.Env = append(env, s.Env...)
	out, err := os.CreateTemp("", "signet-load-server-*.log")
	if err != nil {
		return nil, fmt.Errorf("server %s: %w", s.Name, err)
	}
	os.Remove(out.Name()) // the open file lives on until Stop closes it
	cmd.Stdout, cmd.Stderr = out, out
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := cmd.Start(); err != nil {
		out.Close()
		return nil, fmt.Errorf("server %s: %w", s.Name, err)
	}
	srv := &Server{Name: s.Name, PID: cmd.Process.Pid, cmd: cmd, out: out, done: make(chan struct{})}
	go func() {
		err := cmd.Wait()
		srv.mu.Lock()
		srv.werr = err
		srv.mu.Unlock()
		close(srv.done)
	}()
	if s.Ready != "" {
		if err := srv.waitReady(ctx, s.Ready, s.ReadyTimeout); err != nil {
			srv.Stop()
			return nil, fmt.Errorf("server %s: %w; output: %s", s.Name, err, tail(srv.Output()))
		}
	}
	return srv, nil
}

func hasEnv(env []string, key string) bool {
	for _, e := range env {
		if strings.HasPrefix(e, key+"=") {
			return true
		}
	}
	return false
}

func (s *Server) waitReady(ctx context.Context, url string, timeout time.Duration) error {
	if timeout <= 0 {
		timeout = 10 * time.Second
	}
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	client := &http.Client{Timeout: time.Second}
	for {
		req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
		if err != nil {
			return err
		}
		if resp, err := client.Do(req); err == nil {
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				return nil
			}
		}
		select {
		case <-s.done:
			return fmt.Errorf("exited before %s answered 200: %v", url, s.exitErr())
		case <-ctx.Done():
			return fmt.Errorf("%s did not answer 200 within %v", url, timeout)
		case <-time.After(20 * time.Millisecond):
		}
	}
}

func (s *Server) exitErr() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.werr
}

// Output returns the first 64 KiB the server wrote to stdout and stderr.
func (s *Server) Output() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.out == nil {
		return string(s.final)
	}
	return string(readHead(s.out))
}

// readHead reads the first outputMax bytes of f.
func readHead(f *os.File) []byte {
	b := make([]byte, outputMax)
	n, _ := f.ReadAt(b, 0)
	return b[:n]
}

// closeOutput keeps the head of the output and closes its file.
func (s *Server) closeOutput() {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.out != nil {
		s.final = readHead(s.out)
		s.out.Close()
		s.out = nil
	}
}

// Exited reports whether the process has exited, and its wait error.
func (s *Server) Exited() (bool, error) {
	select {
	case <-s.done:
		return true, s.exitErr()
	default:
		return false, nil
	}
}

// Done is closed when the process has exited.
func (s *Server) Done() <-chan struct{} { return s.done }

// CPUTime returns the process's user and system CPU time so far (all its
// threads, /proc/PID/stat), with the 10 ms resolution of USER_HZ. Once the
// process has exited (a fault scenario's SIGTERM) it is its final
// rusage.
func (s *Server) CPUTime() (time.Duration, error) {
	d, err := ProcCPUTime(s.PID)
	if err == nil {
		return d, nil
	}
	if ru := s.rusage(); ru != nil {
		return time.Duration(ru.Utime.Nano() + ru.Stime.Nano()), nil
	}
	return 0, err
}

// PeakRSS returns the process's peak resident set size in bytes (VmHWM of
// /proc/PID/status; its final rusage's maxrss once it has exited).
func (s *Server) PeakRSS() (int64, error) {
	n, err := ProcPeakRSS(s.PID)
	if err == nil {
		return n, nil
	}
	if ru := s.rusage(); ru != nil {
		return ru.Maxrss << 10, nil
	}
	return 0, err
}

// rusage returns the exited process's resource usage, waiting up to a
// second for the exit to be collected; nil while it runs.
func (s *Server) rusage() *syscall.Rusage {
	select {
	case <-s.done:
	case <-time.After(time.Second):
		return nil
	}
	if s.cmd.ProcessState == nil {
		return nil
	}
	ru, _ := s.cmd.ProcessState.SysUsage().(*syscall.Rusage)
	return ru
}

// Signal sends sig to the process.
func (s *Server) Signal(sig os.Signal) error { return s.cmd.Process.Signal(sig) }

// Stop ends the process: SIGTERM, then SIGKILL to its process group after
// 5 s. It returns once the process has exited; stopping a stopped server
// does nothing.
func (s *Server) Stop() error {
	defer s.closeOutput()
	if ok, _ := s.Exited(); ok {
		return nil
	}
	_ = s.cmd.Process.Signal(syscall.SIGTERM)
	select {
	case <-s.done:
	case <-time.After(5 * time.Second):
		_ = syscall.Kill(-s.PID, syscall.SIGKILL)
		<-s.done
	}
	return nil
}

// ProcCPUTime reads utime+stime of a process from /proc/PID/stat.
func ProcCPUTime(pid int) (time.Duration, error) {
	data, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return 0, err
	}
	return ParseProcStat(data)
}

// ParseProcStat reads utime and stime (fields 14 and 15, in clock ticks)
// of a /proc/PID/stat line. The command name (field 2) is in parentheses
// and may hold spaces and parentheses itself: fields are counted after the
// last ')'.
func ParseProcStat(data []byte) (time.Duration, error) {
	if len(data) > 4096 {
		return 0, fmt.Errorf("%w: /proc stat of %d bytes", signet.ErrTooLarge, len(data))
	}
	i := bytes.LastIndexByte(data, ')')
	if i < 0 {
		return 0, fmt.Errorf("%w: /proc stat without a command name", signet.ErrMalformed)
	}
	f := strings.Fields(string(data[i+1:]))
	// f[0] is field 3 (state); utime is field 14, stime field 15.
	if len(f) < 13 {
		return 0, fmt.Errorf("%w: /proc stat has %d fields after the name", signet.ErrMalformed, len(f))
	}
	var ticks int64
	for _, s := range f[11:13] {
		n, err := strconv.ParseInt(s, 10, 64)
		if err != nil || n < 0 || n > 1<<40 {
			return 0, fmt.Errorf("%w: /proc stat time %q", signet.ErrMalformed, s)
		}
		ticks += n
	}
	return time.Duration(ticks) * clockTick, nil
}

// ProcPeakRSS reads VmHWM of a process from /proc/PID/status, in bytes.
func ProcPeakRSS(pid int) (int64, error) {
	data, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/status")
	if err != nil {
		return 0, err
	}
	return ParseProcStatus(data)
}

// ErrNoVmHWM is returned by ParseProcStatus when the status has no VmHWM
// line (a kernel thread, or a process already reaped).
var ErrNoVmHWM = fmt.Errorf("%w: /proc status without VmHWM", signet.ErrMalformed)

// ParseProcStatus reads the VmHWM line ("VmHWM:	   12345 kB") of a
// /proc/PID/status, in bytes.
func ParseProcStatus(data []byte) (int64, error) {
	if len(data) > 64<<10 {
		return 0, fmt.Errorf("%w: /proc status of %d bytes", signet.ErrTooLarge, len(data))
	}
	for line := range strings.SplitSeq(string(data), "\n") {
		rest, ok := strings.CutPrefix(line, "VmHWM:")
		if !ok {
			continue
		}
		f := strings.Fields(rest)
		if len(f) != 2 || f[1] != "kB" {
			return 0, fmt.Errorf("%w: /proc VmHWM %q", signet.ErrMalformed, line)
		}
		kb, err := strconv.ParseInt(f[0], 10, 64)
		if err != nil || kb < 0 || kb > 1<<40 {
			return 0, fmt.Errorf("%w: /proc VmHWM %q", signet.ErrMalformed, line)
		}
		return kb << 10, nil
	}
	return 0, ErrNoVmHWM
}
