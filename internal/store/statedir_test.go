package store_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/realdrift/realdrift/internal/drift"
	"github.com/realdrift/realdrift/internal/store"
)

func TestStateDirResolution(t *testing.T) {
	root := t.TempDir()
	tests := []struct {
		name, flag, mkdir  string
		wantDir, wantLower string
	}{
		{"default, no .cdkrd", "", "", ".realdrift", ""},
		{"default, .cdkrd read", "", ".cdkrd", ".realdrift", ".cdkrd"},
		{"flag alone", "state", ".cdkrd", "state", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if tt.mkdir != "" {
				if err := os.MkdirAll(filepath.Join(root, tt.mkdir), 0o755); err != nil {
					t.Fatal(err)
				}
			}
			f := store.StateDir(root, tt.flag)
			if got, want := f.Dir(), filepath.Join(root, tt.wantDir); got != want {
				t.Errorf("Dir = %s, want %s", got, want)
			}
			want := ""
			if tt.wantLower != "" {
				want = filepath.Join(root, tt.wantLower)
			}
			if got := f.Fallback(); got != want {
				t.Errorf("Fallback = %q, want %q", got, want)
			}
		})
	}
	if got := store.StateDir(root, "/abs").Dir(); got != "/abs" {
		t.Errorf("absolute flag: Dir = %s", got)
	}
}

// A document only .cdkrd holds is read from there; a write conditional on
// its version goes to .realdrift, and .cdkrd is never touched.
func TestStateDirLowerLayer(t *testing.T) {
	root := t.TempDir()
	st := drift.StackRef{Account: "123456789012", Region: "eu-west-1", Name: "Shop"}
	legacyBase := filepath.Join(root, ".cdkrd", "baselines", "Shop.123456789012.eu-west-1.json")
	legacyIgnore := filepath.Join(root, ".cdkrd", "ignore.yaml")
	for p, doc := range map[string]string{legacyBase: `{"old":1}`, legacyIgnore: "ignore: []\n"} {
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(doc), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	f := store.StateDir(root, "")
	ctx := t.Context()
	if got := f.BaselineSource(st); got != legacyBase {
		t.Errorf("BaselineSource = %s, want %s", got, legacyBase)
	}
	if got := f.IgnoreSource(""); got != legacyIgnore {
		t.Errorf("IgnoreSource = %s, want %s", got, legacyIgnore)
	}
	doc, v, err := f.GetBaseline(ctx, st)
	if err != nil || string(doc) != `{"old":1}` || v == 0 {
		t.Fatalf("GetBaseline = %q, %d, %v", doc, v, err)
	}
	if _, err := f.PutBaseline(ctx, st, []byte(`{"new":1}`), 0); !errors.Is(err, store.ErrConflict) {
		t.Errorf("create over a lower-layer baseline: %v, want ErrConflict", err)
	}
	v2, err := f.PutBaseline(ctx, st, []byte(`{"new":1}`), v)
	if err != nil {
		t.Fatal(err)
	}
	if got := f.BaselineSource(st); got != f.BaselinePath(st) {
		t.Errorf("after write: BaselineSource = %s, want %s", got, f.BaselinePath(st))
	}
	if doc, v3, err := f.GetBaseline(ctx, st); err != nil || string(doc) != `{"new":1}` || v3 != v2 {
		t.Errorf("after write: GetBaseline = %q, %d, %v", doc, v3, err)
	}
	if ents, _ := os.ReadDir(f.Dir()); len(ents) != 1 || ents[0].Name() != "baselines" {
		t.Errorf(".realdrift holds %v, want only baselines/ (no lock or temp file)", ents)
	}
	if b, _ := os.ReadFile(legacyBase); string(b) != `{"old":1}` {
		t.Errorf(".cdkrd baseline changed: %q", b)
	}
	if doc, _, err := f.GetIgnoreRules(ctx, ""); err != nil || string(doc) != "ignore: []\n" {
		t.Errorf("GetIgnoreRules = %q, %v", doc, err)
	}
}

func TestRetryConflicts(t *testing.T) {
	tests := []struct {
		name      string
		conflicts int
		other     error
		wantCalls int
		wantErr   error
	}{
		{"no conflict", 0, nil, 1, nil},
		{"two conflicts then done", 2, nil, 3, nil},
		{"gives up, wrapping the conflict", 1000, nil, 11, store.ErrConflict},
		{"other errors are not retried", 0, os.ErrPermission, 1, os.ErrPermission},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			calls := 0
			err := store.RetryConflicts(t.Context(), func() error {
				calls++
				if calls <= tt.conflicts {
					return fmt.Errorf("put: %w", store.ErrConflict)
				}
				return tt.other
			})
			if calls != tt.wantCalls {
				t.Errorf("%d calls, want %d", calls, tt.wantCalls)
			}
			if !errors.Is(err, tt.wantErr) || (tt.wantErr == nil && err != nil) {
				t.Errorf("err = %v, want %v", err, tt.wantErr)
			}
		})
	}
	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	err := store.RetryConflicts(ctx, func() error { return store.ErrConflict })
	if !errors.Is(err, context.Canceled) || !errors.Is(err, store.ErrConflict) {
		t.Errorf("cancelled: err = %v, want both context.Canceled and ErrConflict", err)
	}
}
