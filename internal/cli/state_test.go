package cli

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/realdrift/realdrift/internal/baseline"
	"github.com/realdrift/realdrift/internal/drift"
	"github.com/realdrift/realdrift/internal/ignore"
	"github.com/realdrift/realdrift/internal/store"
)

// runConcurrently runs the verb once per stdin in parallel against the
// env's sandbox and state directory, each with its own IO, and fails the
// test on any exit but 0.
func (e *sandboxEnv) runConcurrently(stdins []string, tty bool, verb string, args func(i int) []string) {
	e.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 120*time.Second)
	defer cancel()
	type result struct {
		code     int
		out, err string
	}
	res := make([]result, len(stdins))
	var wg sync.WaitGroup
	for i, in := range stdins {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var out, errb bytes.Buffer
			full := append([]string{verb, "--endpoint-url", e.url, "--state-dir", e.stateDir}, args(i)...)
			code := Run(ctx, IO{Stdin: strings.NewReader(in), Stdout: &out, Stderr: &errb, Getenv: e.getenv, StdinTTY: tty}, full)
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

// Records run at the same time into one state directory, each choosing a
// different value of the same stack: every chosen value ends up in the
// baseline (each write merged into the others'), and check is clean.
func TestRecordConcurrentWritersLoseNothing(t *testing.T) {
	env := newAppEnv(t)
	// The App stack has three new live-only values; writer i records item i.
	env.runConcurrently([]string{"1\n", "2\n", "3\n"}, true, "record", func(int) []string { return []string{"App"} })

	st := store.NewFile(env.stateDir)
	ref := drift.StackRef{Name: "App", Account: testAccount, Region: testRegion}
	b, _, err := baseline.LoadStored(t.Context(), st, ref)
	if err != nil || b == nil {
		t.Fatalf("LoadStored = %v, %v", b, err)
	}
	if len(b.Entries) != 3 {
		t.Errorf("baseline holds %d entries, want the 3 chosen by 3 writers: %v", len(b.Entries), b.Entries)
	}
	rep, _, code := env.checkJSON("App", "--fail")
	if code != ExitOK || rep.Verdict != "clean" {
		t.Errorf("after concurrent records: exit %d verdict %s findings %v", code, rep.Verdict, rep.briefs())
	}
	if tmp, _ := filepath.Glob(filepath.Join(env.stateDir, "baselines", ".*")); len(tmp) > 0 {
		t.Errorf("temp files left: %v", tmp)
	}
}

// ignore --path from many writers at once: every rule is appended once.
func TestIgnoreConcurrentWritersLoseNothing(t *testing.T) {
	env := newAppEnv(t)
	env.writeState("ignore.yaml", "# why: hand-written\nignore:\n  - path: Keep.Me\n")
	const writers = 8
	env.runConcurrently(make([]string, writers), false, "ignore", func(i int) []string {
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
		code := Run(t.Context(), IO{Stdin: strings.NewReader(""), Stdout: &out, Stderr: &errb, Getenv: env.getenv}, full)
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
