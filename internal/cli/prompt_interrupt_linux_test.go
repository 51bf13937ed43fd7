package cli

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/realdrift/realdrift/internal/deadlinetest"
	"github.com/realdrift/realdrift/internal/sandbox"
)

// asMainEnv, when set in a child of the test binary, holds the JSON
// arguments the child runs as cmd/realdrift's main would: the process's
// own streams, its environment, SIGINT and SIGTERM cancelling the run.
const asMainEnv = "REALDRIFT_TEST_AS_MAIN"

func TestMain(m *testing.M) {
	if raw := os.Getenv(asMainEnv); raw != "" {
		var args []string
		if err := json.Unmarshal([]byte(raw), &args); err != nil {
			os.Exit(3)
		}
		ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
		code := Run(ctx, StdIO(os.Stdin, os.Stdout, os.Stderr, os.Getenv), args)
		stop()
		os.Exit(code)
	}
	os.Exit(m.Run())
}

// startOnPTY starts realdrift (this test binary as main) with args in a
// session of its own whose controlling terminal is p, so a Ctrl-C typed
// on p is a SIGINT the terminal driver sends it, as a person's is.
func (e *sandboxEnv) startOnPTY(t *testing.T, p *pty, verb string, args ...string) *exec.Cmd {
	t.Helper()
	full := append([]string{verb, "--endpoint-url", e.url, "--state-dir", e.stateDir}, args...)
	raw, err := json.Marshal(full)
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = []string{
		asMainEnv + "=" + string(raw),
		"HOME=" + t.TempDir(),
		"PATH=" + os.Getenv("PATH"),
		"TERM=xterm",
		"NO_COLOR=1",
		"AWS_ACCESS_KEY_ID=" + e.key,
		"AWS_SECRET_ACCESS_KEY=sandbox-secret",
		"AWS_REGION=" + e.region,
		"AWS_CONFIG_FILE=" + filepath.Join(e.stateDir, "no-such-aws-config"),
		"AWS_SHARED_CREDENTIALS_FILE=" + filepath.Join(e.stateDir, "no-such-aws-credentials"),
	}
	cmd.Stdin, cmd.Stdout, cmd.Stderr = p.slave, p.slave, p.slave
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true, Setctty: true, Ctty: 0}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if cmd.ProcessState == nil {
			_ = cmd.Process.Kill()
			_ = cmd.Wait()
		}
	})
	return cmd
}

// TestPTYCtrlCAtEveryPrompt: Ctrl-C typed at each prompt (check's
// "Resolve now?" and its per-finding questions, the record, ignore and
// revert pickers) ends the verb within a second with exit 130, saying what
// was and was not done.
func TestPTYCtrlCAtEveryPrompt(t *testing.T) {
	cases := []struct {
		name   string
		args   []string
		typed  []string // answers typed before the prompt Ctrl-C ends
		prompt string
		said   string
	}{
		{"check resolve", []string{"check", "--all"}, nil, "Resolve now?", "nothing recorded, reverted or ignored"},
		{"check decide", []string{"check", "--all"}, []string{"d\n"}, "[1/", "no decision applied"},
		{"check record picker", []string{"check", "--all"}, []string{"r\n"}, "Enter numbers", "no baseline written"},
		{"check revert picker", []string{"check", "--all"}, []string{"v\n"}, "Enter numbers", "nothing written to AWS"},
		{"check ignore picker", []string{"check", "--all"}, []string{"i\n"}, "Enter numbers", "no ignore rule written"},
		{"record picker", []string{"record", "--all"}, nil, "Enter numbers", "not recorded, their baselines unchanged"},
		{"ignore picker", []string{"ignore", "--all"}, nil, "Enter numbers", "no rule written"},
		{"revert picker", []string{"revert", "--all"}, nil, "Enter numbers", "interrupted at the prompt: nothing written"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			e := twoStackEnv(t)
			// Both stacks drift, so check offers to decide per finding.
			e.change(sandbox.Change{Op: sandbox.OpSet, Type: "AWS::SQS::Queue", Identifier: queueURL("other-q"), Path: "DelaySeconds", Value: json.RawMessage(`7`)})
			p := openPTY(t)
			cmd := e.startOnPTY(t, p, c.args[0], c.args[1:]...)
			exited := make(chan error, 1)
			go func() { exited <- cmd.Wait() }()
			for _, a := range c.typed {
				p.waitFor(t, "Resolve now?")
				if _, err := p.master.Write([]byte(a)); err != nil {
					t.Fatal(err)
				}
			}
			p.waitFor(t, c.prompt)
			time.Sleep(50 * time.Millisecond) // the prompt is waiting for its answer
			start := time.Now()
			if _, err := p.master.Write([]byte{0x03}); err != nil { // Ctrl-C
				t.Fatal(err)
			}
			var err error
			select {
			case err = <-exited:
			case <-deadlinetest.After(t, 5*time.Second):
				t.Fatalf("still running %s after Ctrl-C:\n%s", deadlinetest.Scale(t, 5*time.Second), p.output())
			}
			took := time.Since(start)
			var ee *exec.ExitError
			if !errors.As(err, &ee) || ee.ExitCode() != ExitInterrupt {
				t.Fatalf("exit %v, want 130\n%s", err, p.output())
			}
			if limit := deadlinetest.Scale(t, time.Second); took > limit {
				t.Errorf("exit took %s after Ctrl-C, want within %s", took, limit)
			}
			// The terminal shows what the verb says after it exits.
			p.waitFor(t, c.said)
			if !strings.Contains(p.output(), "interrupted") {
				t.Errorf("no word of the interrupt:\n%s", p.output())
			}
		})
	}
}
