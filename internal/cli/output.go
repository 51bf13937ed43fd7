package cli

import (
	"fmt"
	"os"
	"path/filepath"
)

// colorOn reports whether text output gets ANSI colour: only on a
// terminal, never with --no-color, NO_COLOR (any value) or TERM=dumb.
func colorOn(s IO, noColor bool) bool {
	return s.IsTTY && !noColor && getenv(s, "NO_COLOR") == "" && getenv(s, "TERM") != "dumb"
}

// outputFile is a report written to -o FILE: bytes go to a temporary file
// beside it, renamed over FILE by commit, so a reader (or a crash) never
// sees half a report.
type outputFile struct {
	path string
	tmp  *os.File
	err  error
}

func createOutput(path string) (*outputFile, error) {
	dir := filepath.Dir(path)
	if fi, err := os.Stat(dir); err != nil || !fi.IsDir() {
		return nil, fmt.Errorf("-o %s: directory %s does not exist", path, dir)
	}
	tmp, err := os.CreateTemp(dir, "."+filepath.Base(path)+".*.tmp")
	if err != nil {
		return nil, fmt.Errorf("-o %s: %w", path, err)
	}
	return &outputFile{path: path, tmp: tmp}, nil
}

func (o *outputFile) Write(p []byte) (int, error) {
	n, err := o.tmp.Write(p)
	if err != nil && o.err == nil {
		o.err = err
	}
	return n, err
}

// commit puts the report in place; after a write error it removes the
// temporary file and leaves FILE as it was.
func (o *outputFile) commit() error {
	name := o.tmp.Name()
	err := o.err
	if err == nil {
		err = o.tmp.Sync()
	}
	if cerr := o.tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Chmod(name, 0o644)
	}
	if err == nil {
		err = os.Rename(name, o.path)
	}
	if err != nil {
		os.Remove(name)
		return fmt.Errorf("-o %s: %w", o.path, err)
	}
	return nil
}
