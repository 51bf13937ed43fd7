package corpustest

import (
	"bytes"
	"io/fs"
	"os"
	"path/filepath"
	"testing"
)

// TestSharedCopiesCurrent: the committed copies under testdata/shared are
// the files of ../shared they copy, file for file and byte for byte, when
// ../shared is beside the repository (scripts/sync-shared.sh refreshes
// them). Without it the copies are the suite's data as committed.
func TestSharedCopiesCurrent(t *testing.T) {
	for _, dir := range []string{filepath.Join("corpus", "dev"), "templates"} {
		shared := filepath.Join(root(), "..", "shared", dir)
		copied := filepath.Join(root(), "testdata", "shared", dir)
		if _, err := os.Stat(shared); err != nil {
			t.Logf("no %s beside the repository: the committed copy %s is used as it is", shared, copied)
			continue
		}
		want, got := files(t, shared), files(t, copied)
		for name, b := range want {
			if c, ok := got[name]; !ok || !bytes.Equal(b, c) {
				t.Errorf("%s differs from %s (run scripts/sync-shared.sh)", filepath.Join(copied, name), filepath.Join(shared, name))
			}
		}
		for name := range got {
			if _, ok := want[name]; !ok {
				t.Errorf("%s is not in %s (run scripts/sync-shared.sh)", filepath.Join(copied, name), shared)
			}
		}
	}
}

// files reads every file under dir, by its path relative to dir.
func files(t *testing.T, dir string) map[string][]byte {
	t.Helper()
	out := map[string][]byte{}
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		out[rel] = b
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}
