// Package genfile writes the files the repo's generators (go generate
// scripts) produce: whole or not at all, so an interrupted generator never
// leaves a half-written committed file.
package genfile

import (
	"os"
	"path/filepath"
)

// Write replaces path with b atomically (a temp file beside it, renamed
// over it), readable by all as committed files are (0644).
func Write(path string, b []byte) error {
	tmp, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+"-*")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name())
	if _, err := tmp.Write(b); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	if err := os.Chmod(tmp.Name(), 0o644); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), path)
}
