package cli

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
	"unsafe"

	"github.com/realdrift/realdrift/internal/deadlinetest"
)

// pty is a pseudo-terminal: the test drives master, the CLI gets slave.
type pty struct {
	master, slave *os.File
	mu            sync.Mutex
	out           strings.Builder
	done          chan struct{}
}

// openPTY opens a pseudo-terminal pair (Linux /dev/ptmx) and drains the
// master into a buffer.
func openPTY(t *testing.T) *pty {
	t.Helper()
	m, err := os.OpenFile("/dev/ptmx", os.O_RDWR|syscall.O_NOCTTY, 0)
	if err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatalf("no pseudo-terminals here (CI=true: the terminal tests must run): %v", err)
		}
		t.Skipf("no pseudo-terminals here: %v", err)
	}
	var unlock int32
	if _, _, e := syscall.Syscall(syscall.SYS_IOCTL, m.Fd(), syscall.TIOCSPTLCK, uintptr(unsafe.Pointer(&unlock))); e != 0 {
		t.Fatalf("unlockpt: %v", e)
	}
	var n uint32
	if _, _, e := syscall.Syscall(syscall.SYS_IOCTL, m.Fd(), syscall.TIOCGPTN, uintptr(unsafe.Pointer(&n))); e != 0 {
		t.Fatalf("ptsname: %v", e)
	}
	s, err := os.OpenFile(fmt.Sprintf("/dev/pts/%d", n), os.O_RDWR|syscall.O_NOCTTY, 0)
	if err != nil {
		t.Fatal(err)
	}
	p := &pty{master: m, slave: s, done: make(chan struct{})}
	go func() {
		defer close(p.done)
		buf := make([]byte, 4096)
		for {
			k, err := m.Read(buf)
			p.mu.Lock()
			p.out.Write(buf[:k])
			p.mu.Unlock()
			if err != nil {
				return
			}
		}
	}()
	t.Cleanup(func() { s.Close(); m.Close(); <-p.done })
	return p
}

func (p *pty) output() string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.out.String()
}

// waitFor waits until the terminal shows want.
func (p *pty) waitFor(t *testing.T, want string) {
	t.Helper()
	if !deadlinetest.Until(t, 20*time.Second, func() bool { return strings.Contains(p.output(), want) }) {
		t.Fatalf("the terminal never showed %q:\n%q", want, p.output())
	}
}

// runStd runs a verb against the env's sandbox with IO from real files,
// as main builds it.
func (e *sandboxEnv) runStd(ctx context.Context, stdin, stdout, stderr *os.File, verb string, args ...string) int {
	full := append([]string{verb, "--endpoint-url", e.url, "--state-dir", e.stateDir}, args...)
	return Run(ctx, StdIO(stdin, stdout, stderr, e.getenv), full)
}

// TestPTYPromptAndNonTerminals: under a pseudo-terminal record prompts
// (and takes the answer typed); with stdin /dev/null or a pipe it does not
// prompt and records everything; CI=true without --yes refuses.
func TestPTYPromptAndNonTerminals(t *testing.T) {
	w := appWorld(t, map[string][]appResource{"App": {queue("Q", "q", map[string]any{"VisibilityTimeout": 30}, map[string]any{"DelaySeconds": 5})}})
	ctx := context.Background()

	t.Run("terminal prompts", func(t *testing.T) {
		e := startSandbox(t, w, testKey, testRegion)
		p := openPTY(t)
		codes := make(chan int, 1)
		go func() { codes <- e.runStd(ctx, p.slave, p.slave, p.slave, "record", "App") }()
		p.waitFor(t, "Enter numbers")
		if _, err := p.master.Write([]byte("\n")); err != nil {
			t.Fatal(err)
		}
		if code := <-codes; code != ExitOK {
			t.Fatalf("exit %d\n%s", code, p.output())
		}
		p.waitFor(t, ": 0 of ")
	})

	outFile := func(t *testing.T) *os.File {
		f, err := os.Create(filepath.Join(t.TempDir(), "out"))
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { f.Close() })
		return f
	}
	read := func(t *testing.T, f *os.File) string {
		b, err := os.ReadFile(f.Name())
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	t.Run("/dev/null records without asking", func(t *testing.T) {
		e := startSandbox(t, w, testKey, testRegion)
		null, err := os.Open(os.DevNull)
		if err != nil {
			t.Fatal(err)
		}
		defer null.Close()
		out, errf := outFile(t), outFile(t)
		if code := e.runStd(ctx, null, out, errf, "record", "--all"); code != ExitOK {
			t.Fatalf("exit %d\n%s%s", code, read(t, out), read(t, errf))
		}
		if got := read(t, out); strings.Contains(got, "Enter numbers") || !strings.Contains(got, "recorded App") || strings.Contains(got, ": 0 of") {
			t.Errorf("record < /dev/null prompted or recorded nothing:\n%s", got)
		}
	})
	t.Run("a pipe records without asking", func(t *testing.T) {
		e := startSandbox(t, w, testKey, testRegion)
		r, pw, err := os.Pipe()
		if err != nil {
			t.Fatal(err)
		}
		pw.Close()
		defer r.Close()
		out, errf := outFile(t), outFile(t)
		if code := e.runStd(ctx, r, out, errf, "record", "--all"); code != ExitOK || strings.Contains(read(t, out), "Enter numbers") {
			t.Errorf("exit %d\n%s", code, read(t, out))
		}
	})
	t.Run("CI=true refuses without --yes", func(t *testing.T) {
		e := startSandbox(t, w, testKey, testRegion)
		e.ci = true
		p := openPTY(t)
		if code := e.runStd(ctx, p.slave, p.slave, p.slave, "record", "App"); code != ExitError {
			t.Errorf("exit %d, want 2", code)
		}
		p.waitFor(t, "CI mode")
	})
	t.Run("ignore < /dev/null is non-interactive", func(t *testing.T) {
		e := startSandbox(t, w, testKey, testRegion)
		null, _ := os.Open(os.DevNull)
		defer null.Close()
		out, errf := outFile(t), outFile(t)
		if code := e.runStd(ctx, null, out, errf, "ignore", "App"); code != ExitError || !strings.Contains(read(t, errf), "nothing chosen") {
			t.Errorf("exit %d\n%s", code, read(t, errf))
		}
	})
}

// TestPTYProgressLine: check draws its progress line on a terminal's
// stderr (never on the report's stdout).
func TestPTYProgressLine(t *testing.T) {
	e := twoStackEnv(t)
	e.srv.SetLatency(150 * time.Millisecond)
	p := openPTY(t)
	out, err := os.Create(filepath.Join(t.TempDir(), "out"))
	if err != nil {
		t.Fatal(err)
	}
	defer out.Close()
	if code := e.runStd(context.Background(), nil, out, p.slave, "check", "--all"); code != ExitOK {
		t.Fatalf("exit %d\n%s", code, p.output())
	}
	p.waitFor(t, "checking: ")
	p.waitFor(t, "/2 stacks")
	b, _ := os.ReadFile(out.Name())
	if strings.Contains(string(b), "checking:") || !strings.Contains(string(b), "total: 2 stacks") {
		t.Errorf("stdout:\n%s", b)
	}
}
