package cli

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/realdrift/realdrift/internal/baseline"
	"github.com/realdrift/realdrift/internal/deadlinetest"
	"github.com/realdrift/realdrift/internal/drift"
	"github.com/realdrift/realdrift/internal/ignore"
	"github.com/realdrift/realdrift/internal/store"
)

// runConcurrently runs the verb once per writer in parallel against the
// env's sandbox and state directory, each with its own IO (stdin(i) and
// stdout), and fails the test on any exit but 0.
func (e *sandboxEnv) runConcurrently(writers int, tty bool, stdin func(i int, stdout *lockedBuffer) io.Reader, verb string, args func(i int) []string) {
	e.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), deadlinetest.Scale(e.t, 120*time.Second))
	defer cancel()
	type result struct {
		code     int
		out, err string
	}
	res := make([]result, writers)
	var wg sync.WaitGroup
	for i := range writers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var out lockedBuffer
			var errb bytes.Buffer
			full := append([]string{verb, "--endpoint-url", e.url, "--state-dir", e.stateDir}, args(i)...)
			code := runVerb(e.t, ctx, IO{Stdin: stdin(i, &out), Stdout: &out, Stderr: &errb, Getenv: e.getenv, StdinTTY: tty, IsTTY: tty}, full)
			res[i] = result{code, out.String(), errb.String()}
		}()
	}
	wg.Wait()
	for i, r := range res {
		if r.code != ExitOK {
			e.t.Errorf("%s #%d: exit %d\nstdout:\n%s\nstderr:\n%s", verb, i, r.code, r.out, r.err)
		}
	}
}

// lockedBuffer is a bytes.Buffer safe for one writer and other readers.
type lockedBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *lockedBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *lockedBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// chooser answers a record prompt with the number of the item that
// contains want, whatever position the item has in that writer's list
// (which depends on what the other writers recorded before it looked).
type chooser struct {
	want     string
	prompt   *lockedBuffer
	answered bool
}

var itemLine = regexp.MustCompile(`^\s+(\d+)\s+(.*)$`)

func (c *chooser) Read(p []byte) (int, error) {
	if c.answered {
		return 0, io.EOF
	}
	c.answered = true
	for _, line := range strings.Split(c.prompt.String(), "\n") {
		if m := itemLine.FindStringSubmatch(line); m != nil && strings.Contains(m[2], c.want) {
			return copy(p, m[1]+"\n"), nil
		}
	}
	return 0, io.EOF // not offered: choose nothing (the test then fails)
}

// Records run at the same time into one state directory, each choosing a
// different value of the same stack: every chosen value ends up in the
// baseline (each write merged into the others'), and check is clean.
func TestRecordConcurrentWritersLoseNothing(t *testing.T) {
	env := newAppEnv(t)
	// The App stack has three new live-only values; writer i records one.
	wants := []string{"Fn.CodeSha256", "Orders/Queue.MaximumMessageSize", "Jobs.MaximumMessageSize"}
	env.runConcurrently(len(wants), true, func(i int, out *lockedBuffer) io.Reader {
		return &chooser{want: wants[i], prompt: out}
	}, "record", func(int) []string { return []string{"App"} })

	st := store.NewFile(env.stateDir)
	ref := drift.StackRef{Name: "App", Account: testAccount, Region: testRegion}
	b, _, err := baseline.LoadStored(t.Context(), st, ref)
	if err != nil || b == nil {
		t.Fatalf("LoadStored = %v, %v", b, err)
	}
	if len(b.Entries) != len(wants) {
		t.Errorf("baseline holds %d entries, want the %d chosen by %d writers: %v", len(b.Entries), len(wants), len(wants), b.Entries)
	}
	rep, _, code := env.checkJSON("App", "--fail")
	if code != ExitOK || rep.Verdict != "clean" {
		t.Errorf("after concurrent records: exit %d verdict %s findings %v", code, rep.Verdict, rep.briefs())
	}
	if tmp, _ := filepath.Glob(filepath.Join(env.stateDir, "baselines", ".*")); len(tmp) > 0 {
		t.Errorf("temp files left: %v", tmp)
	}
}

// recordChildEnv carries a child process's job: endpoint|state dir|value.
const recordChildEnv = "REALDRIFT_CLI_RECORD_CHILD"

// Separate processes (copies of this test binary) record into one state
// directory at the same time, each choosing a different value: the one
// lock and the version check keep every value.
func TestRecordCrossProcessWritersLoseNothing(t *testing.T) {
	env := newAppEnv(t)
	wants := []string{"Fn.CodeSha256", "Orders/Queue.MaximumMessageSize", "Jobs.MaximumMessageSize"}
	var cmds []*exec.Cmd
	var outs []*bytes.Buffer
	for _, w := range wants {
		cmd := exec.Command(os.Args[0], "-test.run=^TestRecordProcessChild$", "-test.count=1")
		cmd.Env = append(os.Environ(), recordChildEnv+"="+env.url+"|"+env.stateDir+"|"+w)
		var out bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &out
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		cmds, outs = append(cmds, cmd), append(outs, &out)
	}
	for i, c := range cmds {
		if err := c.Wait(); err != nil {
			t.Errorf("child %d (%s): %v\n%s", i, wants[i], err, outs[i])
		}
	}
	b, _, err := baseline.LoadStored(t.Context(), store.NewFile(env.stateDir), drift.StackRef{Name: "App", Account: testAccount, Region: testRegion})
	if err != nil || b == nil {
		t.Fatalf("LoadStored = %v, %v", b, err)
	}
	if len(b.Entries) != len(wants) {
		t.Errorf("baseline holds %d entries, want the %d chosen by %d processes: %v", len(b.Entries), len(wants), len(wants), b.Entries)
	}
	if rep, _, code := env.checkJSON("App", "--fail"); code != ExitOK || rep.Verdict != "clean" {
		t.Errorf("after the processes' records: exit %d verdict %s findings %v", code, rep.Verdict, rep.briefs())
	}
}

// TestRecordProcessChild is the child side of
// TestRecordCrossProcessWritersLoseNothing; it does nothing unless started
// by it.
func TestRecordProcessChild(t *testing.T) {
	spec := os.Getenv(recordChildEnv)
	if spec == "" {
		return
	}
	parts := strings.SplitN(spec, "|", 3)
	if len(parts) != 3 {
		t.Fatalf("bad child spec %q", spec)
	}
	env := &sandboxEnv{t: t, url: parts[0], key: testKey, region: testRegion, stateDir: parts[1]}
	var out lockedBuffer
	var errb bytes.Buffer
	full := []string{"record", "--endpoint-url", env.url, "--state-dir", env.stateDir, "App"}
	code := runVerb(t, t.Context(), IO{Stdin: &chooser{want: parts[2], prompt: &out}, Stdout: &out, Stderr: &errb, Getenv: env.getenv, StdinTTY: true, IsTTY: true}, full)
	if code != ExitOK || !strings.Contains(out.String(), "recorded App") {
		t.Fatalf("record: exit %d\nstdout:\n%s\nstderr:\n%s", code, out.String(), errb.String())
	}
}

// ignore --path from many writers at once: every rule is appended once.
func TestIgnoreConcurrentWritersLoseNothing(t *testing.T) {
	env := newAppEnv(t)
	env.writeState("ignore.yaml", "# why: hand-written\nignore:\n  - path: Keep.Me\n")
	const writers = 8
	none := func(int, *lockedBuffer) io.Reader { return strings.NewReader("") }
	env.runConcurrently(writers, false, none, "ignore", func(i int) []string {
		return []string{"--path", fmt.Sprintf("Queue%d.X", i)}
	})
	rules, err := ignore.LoadStored(t.Context(), store.NewFile(env.stateDir), "")
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]int{}
	for _, r := range rules {
		got[r.Path]++
	}
	want := map[string]int{"Keep.Me": 1}
	for i := range writers {
		want[fmt.Sprintf("Queue%d.X", i)] = 1
	}
	if len(got) != len(want) || len(rules) != len(want) {
		t.Errorf("rules %v, want each of %v once", got, want)
	}
	for p := range want {
		if got[p] != 1 {
			t.Errorf("rule %s appears %d times, want 1", p, got[p])
		}
	}
	b, _ := os.ReadFile(filepath.Join(env.stateDir, "ignore.yaml"))
	if !strings.HasPrefix(string(b), "# why: hand-written\n") {
		t.Errorf("comment lost:\n%s", b)
	}
}

// Without --state-dir, a .cdkrd directory is read: its baseline suppresses
// what it recorded and its ignore rules apply; record and ignore write
// .realdrift with the .cdkrd content merged in and leave .cdkrd untouched.
func TestLegacyStateDirRead(t *testing.T) {
	env := newAppEnv(t)
	// Record into a scratch directory, then move it to be the .cdkrd one.
	if _, errs, code := env.run("record", "App"); code != ExitOK {
		t.Fatalf("record: exit %d\n%s", code, errs)
	}
	root := t.TempDir()
	legacy := filepath.Join(root, ".cdkrd")
	if err := os.Rename(env.stateDir, legacy); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(legacy, "ignore.yaml"), []byte("ignore:\n  - path: Legacy.Rule\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	before := snapshotDir(t, legacy)
	t.Chdir(root)

	run := func(verb string, args ...string) (string, string, int) {
		var out, errb bytes.Buffer
		full := append([]string{verb, "--endpoint-url", env.url}, args...)
		code := runVerb(t, t.Context(), IO{Stdin: strings.NewReader(""), Stdout: &out, Stderr: &errb, Getenv: env.getenv}, full)
		return out.String(), errb.String(), code
	}
	out, errs, code := run("check", "App", "--fail", "--json")
	if code != ExitOK || !strings.Contains(out, `"verdict": "clean"`) {
		t.Errorf("check with .cdkrd baseline: exit %d\n%s\n%s", code, out, errs)
	}
	if out, errs, code := run("ignore", "--path", "New.Rule"); code != ExitOK || !strings.Contains(out, filepath.Join(".realdrift", "ignore.yaml")) {
		t.Errorf("ignore: exit %d\n%s\n%s", code, out, errs)
	}
	rules, err := ignore.LoadStored(t.Context(), store.NewFile(filepath.Join(root, ".realdrift")), "")
	if err != nil || len(rules) != 2 || rules[0].Path != "Legacy.Rule" || rules[1].Path != "New.Rule" {
		t.Errorf(".realdrift rules = %v, %v; want Legacy.Rule then New.Rule", rules, err)
	}
	if _, errs, code := run("record", "App"); code != ExitOK {
		t.Errorf("record: exit %d\n%s", code, errs)
	}
	if _, err := os.Stat(filepath.Join(root, ".realdrift", "baselines", "App."+testAccount+"."+testRegion+".json")); err != nil {
		t.Errorf("record did not write .realdrift: %v", err)
	}
	if after := snapshotDir(t, legacy); after != before {
		t.Errorf(".cdkrd changed:\nbefore %s\nafter  %s", before, after)
	}
}

// snapshotDir lists every file under dir with its content.
func snapshotDir(t *testing.T, dir string) string {
	t.Helper()
	var b strings.Builder
	err := filepath.Walk(dir, func(p string, fi os.FileInfo, err error) error {
		if err != nil || fi.IsDir() {
			return err
		}
		data, err := os.ReadFile(p)
		fmt.Fprintf(&b, "%s=%q;", strings.TrimPrefix(p, dir), data)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return b.String()
}
