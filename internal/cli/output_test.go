package cli

import (
	"context"
	"encoding/json"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/realdrift/realdrift/internal/deadlinetest"
	"github.com/realdrift/realdrift/internal/sandbox"
)

// The misleading-output cases of a run with a failed stack: no
// report-only note on a run that exits 2, coverage incomplete in the JSON
// when every stack failed, and a failed --pre-deploy stack still named
// with its account.
func TestFailedStackOutput(t *testing.T) {
	env := faultWorld(t)
	// Other drifts (report-only), App cannot be loaded.
	env.change(sandbox.Change{Op: sandbox.OpSet, Type: "AWS::SQS::Queue", Identifier: queueURL("Other-Q-1"), Path: "VisibilityTimeout", Value: json.RawMessage(`45`)})
	if err := env.srv.SetFaults([]sandbox.FaultRule{{Service: "cloudformation", Action: "GetTemplate", Match: "StackName=App&", Code: "AccessDenied", Status: 403}}); err != nil {
		t.Fatal(err)
	}
	t.Run("no report-only note on exit 2", func(t *testing.T) {
		out, errs, code := env.run("check", "--all")
		if code != ExitError {
			t.Fatalf("exit %d, want 2\n%s", code, errs)
		}
		if strings.Contains(errs, "exiting 0") {
			t.Errorf("exit 2 with the report-only note:\n%s", errs)
		}
		if !strings.Contains(out, "Stack Other") || !strings.Contains(out, "[CFn-Declared Drift: 1]") {
			t.Errorf("the other stack's report is missing:\n%s", out)
		}
	})
	t.Run("coverage incomplete when every stack failed", func(t *testing.T) {
		if err := env.srv.SetFaults([]sandbox.FaultRule{{Service: "cloudformation", Action: "GetTemplate", Code: "AccessDenied", Status: 403}}); err != nil {
			t.Fatal(err)
		}
		out, errs, code := env.run("check", "--all", "--json")
		var rep struct {
			Verdict          string `json:"verdict"`
			CoverageComplete bool   `json:"coverageComplete"`
			Stacks           []struct {
				Account          string `json:"account"`
				CoverageComplete bool   `json:"coverageComplete"`
			} `json:"stacks"`
		}
		if err := json.Unmarshal([]byte(out), &rep); err != nil {
			t.Fatalf("%v\n%s\n%s", err, out, errs)
		}
		if code != ExitError || rep.Verdict != "error" || rep.CoverageComplete || len(rep.Stacks) != 2 {
			t.Errorf("exit %d verdict %s coverageComplete %v stacks %d, want 2, error, false, 2", code, rep.Verdict, rep.CoverageComplete, len(rep.Stacks))
		}
		for _, s := range rep.Stacks {
			if s.CoverageComplete || s.Account != testAccount {
				t.Errorf("failed stack: %+v, want incomplete coverage and the account", s)
			}
		}
	})
	t.Run("pre-deploy failed stack names its account", func(t *testing.T) {
		if err := env.srv.SetFaults(nil); err != nil {
			t.Fatal(err)
		}
		dir := t.TempDir()
		writeAssembly(t, dir, appResources())
		if err := os.Remove(filepath.Join(dir, "App.template.json")); err != nil {
			t.Fatal(err)
		}
		out, errs, code := env.run("check", "--app", dir, "--pre-deploy")
		if code != ExitError || !strings.Contains(out, "Stack App ("+testAccount+"/"+testRegion+")") {
			t.Errorf("exit %d, want 2 and the stack with its account:\n%s\n%s", code, out, errs)
		}
	})
}

// An endpoint that accepts connections and never answers: with a 2 s call
// deadline check ends (exit 2: the stacks cannot even be listed) with a
// message saying so, instead of hanging.
func TestCheckHungEndpoint(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ln.Close() })
	go func() {
		var held []net.Conn
		defer func() {
			for _, c := range held {
				c.Close()
			}
		}()
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			held = append(held, c) // accepted, never answered
		}
	}()
	env := newAppEnv(t)
	env.url = "http://" + ln.Addr().String()
	start := time.Now()
	_, errs, code := env.run("check", "App", "--call-timeout", "2s")
	if d := time.Since(start); d > deadlinetest.Scale(t, 20*time.Second) {
		t.Errorf("check took %s against a hung endpoint with --call-timeout 2s", d)
	}
	if code != ExitError || !strings.Contains(errs, "no answer within 2s") {
		t.Errorf("exit %d stderr %q, want 2 and a timeout message", code, errs)
	}
}

// Each stack's report is printed when that stack is done: a run
// interrupted while a later stack hangs has already printed the earlier
// ones, and exits 130.
func TestCheckPrintsEachStackAsItCompletes(t *testing.T) {
	env := faultWorld(t)
	if err := env.srv.SetFaults([]sandbox.FaultRule{{Service: "cloudformation", Action: "GetTemplate", Match: "StackName=Other&", Hang: true}}); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(deadlinetest.Context(t, 60*time.Second))
	defer cancel()
	var out lockedBuffer
	var errb lockedBuffer
	done := make(chan int)
	go func() {
		done <- runVerb(t, ctx, IO{Stdout: &out, Stderr: &errb, Getenv: env.getenv}, []string{"check", "--endpoint-url", env.url, "--state-dir", env.stateDir, "--all"})
	}()
	for !strings.Contains(out.String(), "result:") {
		select {
		case code := <-done:
			t.Fatalf("check ended (exit %d) before the hung stack:\n%s\n%s", code, out.String(), errb.String())
		case <-time.After(50 * time.Millisecond):
		}
	}
	cancel() // Other hangs: interrupt the run
	if code := <-done; code != ExitInterrupt {
		t.Errorf("exit %d, want 130", code)
	}
	if got := out.String(); !strings.Contains(got, "Stack App (") || strings.Contains(got, "Stack Other") {
		t.Errorf("stdout:\n%s\nwant App's report and nothing of Other", got)
	}
}

// TestOutputFlagEveryReportVerb: every verb that prints a report or a
// listing takes -o FILE (check its own); the file appears whole when the
// verb succeeds, stdout stays empty, and a failed run leaves FILE as it
// was and no temporary file behind.
func TestOutputFlagEveryReportVerb(t *testing.T) {
	for _, c := range commands() {
		if !c.output {
			continue
		}
		if out, _, code := runArgs(t, c.name, "--help"); code != ExitOK || !strings.Contains(out, "  -o, --output FILE") {
			t.Errorf("%s --help lists no -o:\n%s", c.name, out)
		}
	}
	dir := t.TempDir()
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"version"}, "realdrift"},
		{[]string{"completion", "bash"}, "_realdrift()"},
		{[]string{"schema", "show", "AWS::SQS::Queue"}, `"primaryIdentifier"`},
	} {
		path := filepath.Join(dir, tc.args[0]+".out")
		out, errs, code := runArgs(t, append(tc.args, "-o", path)...)
		if code != ExitOK || out != "" {
			t.Errorf("%v -o: exit %d, stdout %q, stderr %q", tc.args, code, out, errs)
			continue
		}
		if b, err := os.ReadFile(path); err != nil || !strings.Contains(string(b), tc.want) {
			t.Errorf("%v -o: file %q (%v), want it to hold %q", tc.args, b, err, tc.want)
		}
	}
	// A failing run: FILE keeps what it held.
	path := filepath.Join(dir, "kept.out")
	if err := os.WriteFile(path, []byte("before\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, errs, code := runArgs(t, "completion", "tcsh", "-o", path); code != ExitError || !strings.Contains(errs, "left as it was") {
		t.Errorf("failing completion -o: exit %d, stderr %q", code, errs)
	}
	if b, _ := os.ReadFile(path); string(b) != "before\n" {
		t.Errorf("a failed run changed FILE: %q", b)
	}
	if m, _ := filepath.Glob(filepath.Join(dir, ".*.tmp")); len(m) > 0 {
		t.Errorf("temporary files left: %v", m)
	}
}
