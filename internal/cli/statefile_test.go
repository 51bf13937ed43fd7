//go:build unix

package cli

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/realdrift/realdrift/internal/deadlinetest"
	"github.com/realdrift/realdrift/internal/store"
)

// A baseline or ignore path that is /dev/zero, a FIFO or an oversize file
// is a clear error (exit 2, naming the file), never a hang or an endless
// read.
func TestStateFileNotRegular(t *testing.T) {
	oversize := func(t *testing.T, p string) {
		f, err := os.Create(p)
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		if err := f.Truncate(store.MaxStateFile + 1); err != nil { // sparse
			t.Fatal(err)
		}
	}
	kinds := []struct {
		name string
		make func(t *testing.T, p string)
		want string
	}{
		{"/dev/zero", func(t *testing.T, p string) {
			if err := os.Symlink("/dev/zero", p); err != nil {
				t.Fatal(err)
			}
		}, "not a regular file (a character device)"},
		{"FIFO", func(t *testing.T, p string) {
			if err := syscall.Mkfifo(p, 0o644); err != nil {
				t.Fatal(err)
			}
		}, "not a regular file (a FIFO)"},
		{"oversize", oversize, "larger than the size limit"},
	}
	files := []struct {
		name, rel string
		verbs     [][]string
	}{
		{"baseline", filepath.Join("baselines", "App."+testAccount+"."+testRegion+".json"), [][]string{{"check", "App"}, {"record", "App", "--yes"}}},
		{"ignore", "ignore.yaml", [][]string{{"check", "App"}, {"record", "App", "--yes"}, {"ignore", "--path", "Jobs.X"}}},
	}
	env := newAppEnv(t)
	for _, file := range files {
		for _, k := range kinds {
			t.Run(file.name+"/"+k.name, func(t *testing.T) {
				p := filepath.Join(env.stateDir, file.rel)
				if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
					t.Fatal(err)
				}
				k.make(t, p)
				t.Cleanup(func() { os.Remove(p) })
				for _, args := range file.verbs {
					start := time.Now()
					_, errs, code := env.run(args[0], args[1:]...)
					if code != ExitError || !strings.Contains(errs, k.want) || !strings.Contains(errs, filepath.Base(p)) {
						t.Errorf("%v: exit %d stderr %q, want 2 naming %s and %q", args, code, errs, filepath.Base(p), k.want)
					}
					if d := time.Since(start); d > deadlinetest.Scale(t, 30*time.Second) {
						t.Errorf("%v took %s", args, d)
					}
				}
			})
		}
	}
}
