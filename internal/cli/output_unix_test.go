//go:build unix

package cli

import (
	"bytes"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// A run given -o FILE removes the temporary files of FILE that killed
// runs left (nobody holds them), even when it writes nothing itself (an
// error leaves FILE as it was); a living run's temporary file, FILE and
// other names are kept.
func TestOutputRemovesDeadTemps(t *testing.T) {
	dir := t.TempDir()
	target := filepath.Join(dir, "r.json")
	dead := []string{filepath.Join(dir, ".r.json.111.tmp"), filepath.Join(dir, ".r.json.4242.tmp")}
	live := filepath.Join(dir, ".r.json.222.tmp")
	kept := []string{target, live, filepath.Join(dir, ".other.json.333.tmp"), filepath.Join(dir, ".r.json.tmp"), filepath.Join(dir, ".r.json.draft.tmp")}
	for _, p := range append(append([]string{}, dead...), kept...) {
		if err := os.WriteFile(p, []byte("half"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	// A living writer holds its temporary file.
	held, err := os.Open(live)
	if err != nil {
		t.Fatal(err)
	}
	defer held.Close()
	if err := syscall.Flock(int(held.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		t.Fatal(err)
	}

	// A verb whose run fails: exit 2, FILE left as it was.
	var out, errb bytes.Buffer
	code := runVerb(t, t.Context(), IO{Stdin: strings.NewReader(""), Stdout: &out, Stderr: &errb, Getenv: func(string) string { return "" }},
		[]string{"schema", "show", "AWS::No::Such", "-o", target})
	if code != ExitError {
		t.Fatalf("schema show of an unknown type: exit %d, want 2\n%s", code, errb.String())
	}
	for _, p := range dead {
		if _, err := os.Stat(p); !errors.Is(err, fs.ErrNotExist) {
			t.Errorf("%s: a killed run's temporary file is still there (%v)", p, err)
		}
	}
	for _, p := range kept {
		if _, err := os.Stat(p); err != nil {
			t.Errorf("%s: removed (%v)", p, err)
		}
	}
	if b, _ := os.ReadFile(target); string(b) != "half" {
		t.Errorf("FILE changed by a failed run: %q", b)
	}
	ents, _ := os.ReadDir(dir)
	if len(ents) != len(kept) {
		var names []string
		for _, e := range ents {
			names = append(names, e.Name())
		}
		t.Errorf("directory holds %v, want only %d kept files (the run's own temporary file removed)", names, len(kept))
	}
}
