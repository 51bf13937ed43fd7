package store_test

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/realdrift/realdrift/internal/drift"
	"github.com/realdrift/realdrift/internal/store"
)

const childEnv = "REALDRIFT_STORE_TEST_CHILD"

var procStack = drift.StackRef{Account: "123456789012", Region: "eu-west-1", Name: "Shop"}

// Writers in separate processes (each a copy of this test binary) append to
// one baseline by read-modify-write; the flock and the version check must
// keep every successful write.
func TestFileCrossProcessWriters(t *testing.T) {
	const procs, perProc = 4, 5
	dir := t.TempDir()
	s := store.NewFile(dir)
	if _, err := s.PutBaseline(t.Context(), procStack, []byte(`[]`), 0); err != nil {
		t.Fatal(err)
	}
	var cmds []*exec.Cmd
	for p := range procs {
		cmd := exec.Command(os.Args[0], "-test.run=^TestFileProcessChild$", "-test.count=1")
		cmd.Env = append(os.Environ(), fmt.Sprintf("%s=%s|%d|%d", childEnv, dir, p, perProc))
		cmd.Stdout, cmd.Stderr = os.Stderr, os.Stderr
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		cmds = append(cmds, cmd)
	}
	for _, c := range cmds {
		if err := c.Wait(); err != nil {
			t.Errorf("child: %v", err)
		}
	}
	doc, _, err := s.GetBaseline(t.Context(), procStack)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	if err := json.Unmarshal(doc, &got); err != nil {
		t.Fatalf("final document %q: %v", doc, err)
	}
	seen := map[string]bool{}
	for _, e := range got {
		seen[e] = true
	}
	for p := range procs {
		for i := range perProc {
			if e := fmt.Sprintf("p%d-%d", p, i); !seen[e] {
				t.Errorf("entry %s lost", e)
			}
		}
	}
	if len(got) != procs*perProc {
		t.Errorf("%d entries, want %d", len(got), procs*perProc)
	}
	if m, _ := filepath.Glob(filepath.Join(dir, "baselines", ".*tmp*")); len(m) > 0 {
		t.Errorf("temp files left: %v", m)
	}
}

// TestFileProcessChild is the child side of TestFileCrossProcessWriters;
// it does nothing unless started by it.
func TestFileProcessChild(t *testing.T) {
	spec := os.Getenv(childEnv)
	if spec == "" {
		return
	}
	var dir string
	var p, n int
	for i, c := range spec {
		if c == '|' {
			dir = spec[:i]
			if _, err := fmt.Sscanf(spec[i+1:], "%d|%d", &p, &n); err != nil {
				t.Fatalf("bad child spec %q: %v", spec, err)
			}
			break
		}
	}
	s := store.NewFile(dir)
	for i := 0; i < n; {
		doc, v, err := s.GetBaseline(t.Context(), procStack)
		if err != nil {
			t.Fatal(err)
		}
		var entries []string
		if err := json.Unmarshal(doc, &entries); err != nil {
			t.Fatalf("read %q: %v", doc, err)
		}
		next, _ := json.Marshal(append(entries, fmt.Sprintf("p%d-%d", p, i)))
		if _, err := s.PutBaseline(t.Context(), procStack, next, v); errors.Is(err, store.ErrConflict) {
			continue
		} else if err != nil {
			t.Fatal(err)
		}
		i++
	}
}
