package store

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
)

// writeLocked is writeAtomic for a caller holding the state directory's
// lock: every locked writer of path's directory holds it too, so a temp
// file found there now was left by a writer that died (SIGKILL, power
// loss) and is removed first.
func writeLocked(path string, data []byte) error {
	removeStaleTemps(filepath.Dir(path))
	return writeAtomic(path, data)
}

// tempName matches the names writeAtomic gives its temp files.
var tempName = regexp.MustCompile(`^\..+\.tmp[0-9]+$`)

// removeStaleTemps removes writeAtomic's temp files from dir, best effort:
// a file it cannot remove is left for the next locked write.
func removeStaleTemps(dir string) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return
	}
	for _, e := range entries {
		if e.Type().IsRegular() && tempName.MatchString(e.Name()) {
			_ = os.Remove(filepath.Join(dir, e.Name()))
		}
	}
}

// writeAtomic replaces path with data: temp file in the same directory,
// fsync, rename, fsync of the directory. A reader sees the old file or the
// new one, never a mix; a crash leaves at most a dot-named temp file, which
// no reader opens and the next locked write of that directory removes
// (writeLocked). It is the only file writer of the package (and of the
// CLI's state directory).
func writeAtomic(path string, data []byte) error {
	dir := filepath.Dir(path)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("create %s: %w", dir, err)
	}
	tmp, err := os.CreateTemp(dir, "."+filepath.Base(path)+".tmp*")
	if err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	done := false
	defer func() {
		if !done {
			tmp.Close()
			os.Remove(tmp.Name())
		}
	}()
	if _, err := tmp.Write(data); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	if err := tmp.Chmod(0o644); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	if err := tmp.Sync(); err != nil {
		return fmt.Errorf("sync %s: %w", path, err)
	}
	if err := tmp.Close(); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	if err := os.Rename(tmp.Name(), path); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	done = true
	if d, err := os.Open(dir); err == nil {
		_ = d.Sync() // best effort: make the rename durable
		d.Close()
	}
	return nil
}
