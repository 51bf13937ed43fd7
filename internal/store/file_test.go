package store_test

import (
	"bytes"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/realdrift/realdrift/internal/drift"
	"github.com/realdrift/realdrift/internal/store"
	"github.com/realdrift/realdrift/internal/store/storetest"
)

func TestFileConformance(t *testing.T) {
	storetest.Run(t, func(t *testing.T) store.Store { return store.NewFile(t.TempDir()) })
}

// The baseline lives where other tools expect it, byte for byte.
func TestFileBaselinePath(t *testing.T) {
	dir := t.TempDir()
	s := store.NewFile(dir)
	st := drift.StackRef{Account: "123456789012", Region: "eu-west-1", Name: "Shop"}
	doc := []byte(`{"schemaVersion":2}` + "\n")
	if _, err := s.PutBaseline(t.Context(), st, doc, 0); err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile(filepath.Join(dir, "baselines", "Shop.123456789012.eu-west-1.json"))
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, doc) {
		t.Errorf("file holds %q, want %q", got, doc)
	}
	if err := os.WriteFile(filepath.Join(dir, "ignore.yaml"), []byte("rules: []\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	rules, _, err := s.GetIgnoreRules(t.Context(), "")
	if err != nil || string(rules) != "rules: []\n" {
		t.Errorf("ignore.yaml read as %q, %v", rules, err)
	}
}

// An edit by another tool between read and write is a conflict too.
func TestFileExternalEditConflicts(t *testing.T) {
	dir := t.TempDir()
	s := store.NewFile(dir)
	st := drift.StackRef{Account: "123456789012", Region: "eu-west-1", Name: "Shop"}
	v, err := s.PutBaseline(t.Context(), st, []byte(`{"a":1}`), 0)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(s.BaselinePath(st), []byte(`{"a":2}`), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := s.PutBaseline(t.Context(), st, []byte(`{"a":3}`), v); err == nil || !strings.Contains(err.Error(), "version conflict") {
		t.Fatalf("write after external edit: got %v, want a version conflict", err)
	}
}

// Secrets never reach the disk in plaintext, and no temp files are left.
func TestFileNoPlaintextSecretsOrTempFiles(t *testing.T) {
	dir := t.TempDir()
	storetest.Run(t, func(t *testing.T) store.Store {
		sub, err := os.MkdirTemp(dir, "s")
		if err != nil {
			t.Fatal(err)
		}
		return store.NewFile(sub)
	})
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		if strings.Contains(d.Name(), ".tmp") {
			t.Errorf("temp file left behind: %s", path)
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		for _, secret := range []string{"hunter2-plaintext", "prod/db"} {
			if bytes.Contains(b, []byte(secret)) {
				t.Errorf("%s contains the secret %q", path, secret)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// Expired history files are deleted on the next write.
func TestFilePrunesExpiredHistory(t *testing.T) {
	dir := t.TempDir()
	s := store.NewFile(dir)
	st := drift.StackRef{Account: "123456789012", Region: "eu-west-1", Name: "Shop"}
	t0 := time.Now().Add(-time.Hour)
	old := store.RunRecord{RunID: "old", Stack: st, StartedAt: t0, Status: store.RunOK, ExpiresAt: t0.Add(time.Minute)}
	if err := s.PutRun(t.Context(), old, nil); err != nil {
		t.Fatal(err)
	}
	next := store.RunRecord{RunID: "new", Stack: st, StartedAt: t0.Add(time.Minute), Status: store.RunOK}
	if err := s.PutRun(t.Context(), next, nil); err != nil {
		t.Fatal(err)
	}
	ents, err := os.ReadDir(filepath.Join(dir, "history", "Shop.123456789012.eu-west-1"))
	if err != nil {
		t.Fatal(err)
	}
	if len(ents) != 1 || !strings.HasSuffix(ents[0].Name(), ".new.json") {
		t.Errorf("history holds %v, want only the new run", ents)
	}
}

// A crash mid-write leaves at most a temp file, which readers never see.
func TestFileIgnoresLeftoverTempFiles(t *testing.T) {
	dir := t.TempDir()
	s := store.NewFile(dir)
	st := drift.StackRef{Account: "123456789012", Region: "eu-west-1", Name: "Shop"}
	doc := []byte(`{"whole":true}`)
	v, err := s.PutBaseline(t.Context(), st, doc, 0)
	if err != nil {
		t.Fatal(err)
	}
	rec := store.RunRecord{RunID: "r1", Stack: st, StartedAt: time.Now(), Status: store.RunOK}
	if err := s.PutRun(t.Context(), rec, nil); err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{
		filepath.Join(dir, "baselines", ".Shop.123456789012.eu-west-1.json.tmp4242"),
		filepath.Join(dir, "history", "Shop.123456789012.eu-west-1", ".00000000000000000001.000000000001.r0.json.tmp1"),
	} {
		if err := os.WriteFile(p, []byte(`{"half`), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	got, gv, err := s.GetBaseline(t.Context(), st)
	if err != nil || !bytes.Equal(got, doc) || gv != v {
		t.Errorf("baseline after crash debris: %q v%d %v", got, gv, err)
	}
	runs, err := s.ListRuns(t.Context(), st, 0)
	if err != nil || len(runs) != 1 || runs[0].RunID != "r1" {
		t.Errorf("runs after crash debris: %v, %v", runs, err)
	}
}

// A writer killed between create and rename leaves its temp file; the next
// locked write of that directory removes it and nothing else.
func TestFileLockedWriteRemovesStaleTemps(t *testing.T) {
	dir := t.TempDir()
	s := store.NewFile(dir)
	st := drift.StackRef{Account: "123456789012", Region: "eu-west-1", Name: "Shop"}
	if _, err := s.PutBaseline(t.Context(), st, []byte(`{"a":1}`), 0); err != nil {
		t.Fatal(err)
	}
	baselines := filepath.Join(dir, "baselines")
	stale := []string{
		filepath.Join(baselines, ".Shop.123456789012.eu-west-1.json.tmp123456"),
		filepath.Join(baselines, ".Other.123456789012.eu-west-1.json.tmp98765"),
		filepath.Join(dir, ".ignore.yaml.tmp4242"),
	}
	kept := []string{
		filepath.Join(baselines, "notes.tmp1"),          // not a dot name
		filepath.Join(baselines, ".gitkeep"),            // no temp suffix
		filepath.Join(baselines, ".Shop.json.tmpdraft"), // suffix not ours
	}
	for _, p := range append(append([]string{}, stale...), kept...) {
		if err := os.WriteFile(p, []byte("half-written"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	_, v, err := s.GetBaseline(t.Context(), st)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.PutBaseline(t.Context(), st, []byte(`{"a":2}`), v); err != nil {
		t.Fatal(err)
	}
	if _, err := s.PutIgnoreRules(t.Context(), "", []byte("rules: []\n"), 0); err != nil {
		t.Fatal(err)
	}
	for _, p := range stale {
		if _, err := os.Stat(p); !errors.Is(err, fs.ErrNotExist) {
			t.Errorf("%s: still there after a locked write (%v)", p, err)
		}
	}
	for _, p := range kept {
		if _, err := os.Stat(p); err != nil {
			t.Errorf("%s: removed, but it is not a temp file of the store (%v)", p, err)
		}
	}
}
