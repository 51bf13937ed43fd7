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

// RemoveStaleTemps removes the temp files writers killed mid-write (SIGKILL,
// power loss) left in the directories locked writers write (the state
// directory itself, baselines, findings, history, index), so a run that
// writes nothing (check) still clears what an earlier run left. It takes
// the state directory's lock only when it is free: a writer holding it
// removes them itself (writeLocked). A directory that does not exist has
// nothing to remove; errors are ignored (best effort, as writeLocked's).
func (f *File) RemoveStaleTemps() {
	unlock, ok := tryLockFile(f.dir)
	if !ok {
		return
	}
	defer unlock()
	dirs := []string{f.dir, filepath.Join(f.dir, "baselines"), filepath.Join(f.dir, "findings"), filepath.Join(f.dir, "index")}
	if ents, err := os.ReadDir(filepath.Join(f.dir, "history")); err == nil {
		for _, e := range ents {
			if e.IsDir() {
				dirs = append(dirs, filepath.Join(f.dir, "history", e.Name()))
			}
		}
	}
	for _, d := range dirs {
		removeStaleTemps(d)
	}
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
