package cli

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/realdrift/realdrift/internal/corpus"
	"github.com/realdrift/realdrift/internal/deadlinetest"
	"github.com/realdrift/realdrift/internal/sandbox"
)

// badFiles makes, in a directory of its own, the three inputs every file
// a person names must be refused: a FIFO (an open would block forever), a
// link to /dev/zero (a read would never end), a file past limit bytes
// (sparse: its size is what counts). Each is named name.
func badFiles(t *testing.T, name string, limit int64) map[string]string {
	t.Helper()
	out := map[string]string{}
	fifo := filepath.Join(t.TempDir(), name)
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	out["fifo"] = fifo
	zero := filepath.Join(t.TempDir(), name)
	if err := os.Symlink("/dev/zero", zero); err != nil {
		t.Fatal(err)
	}
	out["/dev/zero link"] = zero
	big := filepath.Join(t.TempDir(), name)
	f, err := os.Create(big)
	if err != nil {
		t.Fatal(err)
	}
	if err := f.Truncate(limit + 1); err != nil {
		t.Fatal(err)
	}
	f.Close()
	out["oversized"] = big
	return out
}

// TestFileInputsGuarded: a FIFO, a /dev/zero link and an oversized file
// given to each file input (corpus, check --app's manifest.json and
// template, sandbox serve --world, sandbox world --from-corpus) end with
// exit 2 within a second, naming the file.
func TestFileInputsGuarded(t *testing.T) {
	e := startSandbox(t, appWorld(t, map[string][]appResource{"App": {queue("Q", "q", nil, nil)}}), testKey, testRegion)
	inputs := []struct {
		name  string
		file  string
		limit int64
		args  func(bad string) []string
		// run runs the verb in-process; the env's sandbox is used where
		// the verb calls AWS.
		viaEnv bool
	}{
		{"corpus", "case.json", corpus.MaxCaseFile, func(bad string) []string { return []string{"corpus", bad} }, false},
		{"check --app manifest.json", "manifest.json", maxAssemblyFile, func(bad string) []string {
			return []string{"--app", filepath.Dir(bad), "--all"}
		}, true},
		{"check --app template", "App.template.json", maxAssemblyFile, func(bad string) []string {
			dir := filepath.Dir(bad)
			tmp := t.TempDir()
			writeAssembly(t, tmp, []appResource{queue("Q", "q", nil, nil)})
			b, err := os.ReadFile(filepath.Join(tmp, "manifest.json"))
			if err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(dir, "manifest.json"), b, 0o644); err != nil {
				t.Fatal(err)
			}
			return []string{"--app", dir, "--pre-deploy", "App"}
		}, true},
		{"sandbox serve --world", "world.json", sandbox.MaxWorldFile, func(bad string) []string {
			return []string{"sandbox", "serve", "--world", bad, "--addr", "127.0.0.1:0"}
		}, false},
		{"sandbox world --from-corpus", "case.json", corpus.MaxCaseFile, func(bad string) []string {
			return []string{"sandbox", "world", "--from-corpus", filepath.Dir(bad), "-o", filepath.Join(t.TempDir(), "w.json")}
		}, false},
	}
	for _, in := range inputs {
		for kind, bad := range badFiles(t, in.file, in.limit) {
			t.Run(in.name+"/"+kind, func(t *testing.T) {
				ctx, cancel := context.WithTimeout(context.Background(), deadlinetest.Scale(t, 10*time.Second))
				defer cancel()
				args := in.args(bad)
				start := time.Now()
				var stderr string
				var code int
				if in.viaEnv {
					_, stderr, code = e.runCtx(ctx, "check", args...)
				} else {
					var out, errb bytes.Buffer
					code = runVerb(t, ctx, IO{Stdin: strings.NewReader(""), Stdout: &out, Stderr: &errb, Getenv: e.getenv}, args)
					stderr = errb.String()
				}
				took := time.Since(start)
				if code != ExitError {
					t.Errorf("exit %d, want 2\n%s", code, stderr)
				}
				if limit := deadlinetest.Scale(t, time.Second); took > limit {
					t.Errorf("took %s, want within %s", took, limit)
				}
				if !strings.Contains(stderr, in.file) {
					t.Errorf("stderr does not name %s:\n%s", in.file, stderr)
				}
			})
		}
	}
}
