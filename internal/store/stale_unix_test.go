//go:build unix

package store_test

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"syscall"
	"testing"

	"github.com/realdrift/realdrift/internal/store"
)

// A run that writes nothing still clears the temp files killed writers
// left: RemoveStaleTemps removes them from every directory locked writers
// use, keeps everything else, and leaves them while a writer holds the
// lock (that writer removes them itself).
func TestFileRemoveStaleTempsWithoutWriting(t *testing.T) {
	dir := t.TempDir()
	stale := []string{
		filepath.Join(dir, ".ignore.yaml.tmp4242"),
		filepath.Join(dir, "baselines", ".Shop.123456789012.eu-west-1.json.tmp123456"),
		filepath.Join(dir, "findings", ".Shop.123456789012.eu-west-1.json.tmp77"),
		filepath.Join(dir, "history", "Shop.123456789012.eu-west-1", ".00000000000000000001.000000000001.r0.json.tmp1"),
		filepath.Join(dir, "index", ".abc.json.tmp9"),
	}
	kept := []string{
		filepath.Join(dir, "baselines", "Shop.123456789012.eu-west-1.json"),
		filepath.Join(dir, "baselines", ".gitkeep"),
		filepath.Join(dir, "runs", "r1", ".key.tmp5"), // run state is written without the lock
	}
	for _, p := range append(append([]string{}, stale...), kept...) {
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte("half-written"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	s := store.NewFile(dir)

	// A writer holds the lock: nothing is removed.
	lock, err := os.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	if err := syscall.Flock(int(lock.Fd()), syscall.LOCK_EX); err != nil {
		t.Fatal(err)
	}
	s.RemoveStaleTemps()
	for _, p := range stale {
		if _, err := os.Stat(p); err != nil {
			t.Errorf("%s: removed while a writer held the lock (%v)", p, err)
		}
	}
	lock.Close()

	s.RemoveStaleTemps()
	for _, p := range stale {
		if _, err := os.Stat(p); !errors.Is(err, fs.ErrNotExist) {
			t.Errorf("%s: still there (%v)", p, err)
		}
	}
	for _, p := range kept {
		if _, err := os.Stat(p); err != nil {
			t.Errorf("%s: removed, but it is not a stale temp file of a locked writer (%v)", p, err)
		}
	}
	// A state directory that does not exist yet is no error and stays absent.
	missing := filepath.Join(dir, "absent")
	store.NewFile(missing).RemoveStaleTemps()
	if _, err := os.Stat(missing); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("RemoveStaleTemps created %s (%v)", missing, err)
	}
}
