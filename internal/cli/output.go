package cli

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
)

// colorOn reports whether text output gets ANSI colour: only on a
// terminal, never with --no-color, NO_COLOR (any value) or TERM=dumb.
func colorOn(s IO, noColor bool) bool {
	if r, ok := s.Stdout.(*redirect); ok && r.file != nil {
		return false
	}
	return s.IsTTY && !noColor && getenv(s, "NO_COLOR") == "" && getenv(s, "TERM") != "dumb"
}

// outputFile is a report written to -o FILE: bytes go to a temporary file
// beside it, renamed over FILE by commit, so a reader (or a crash) never
// sees half a report. The temporary file is held locked (holdTemp) while
// its writer lives, so the temporary file of a writer that was killed
// (SIGKILL) is told from a live one and removed by the next run that
// writes FILE, whether that run commits or not.
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
	pattern := "." + filepath.Base(path) + ".*.tmp"
	for range 3 {
		tmp, err := os.CreateTemp(dir, pattern)
		if err != nil {
			return nil, fmt.Errorf("-o %s: %w", path, err)
		}
		if holdTemp(tmp) {
			removeDeadTemps(dir, filepath.Base(path), tmp.Name())
			return &outputFile{path: path, tmp: tmp}, nil
		}
		// Another run took it for a dead writer's between create and
		// lock (and removes it): make another.
		tmp.Close()
	}
	return nil, fmt.Errorf("-o %s: could not hold a temporary file in %s", path, dir)
}

// removeDeadTemps removes the temporary files of base's killed writers
// from dir: the names createOutput gives (.BASE.<digits>.tmp) that no
// living writer holds (claimTemp), except own. Best effort.
func removeDeadTemps(dir, base, own string) {
	name := regexp.MustCompile(`^\.` + regexp.QuoteMeta(base) + `\.[0-9]+\.tmp$`)
	entries, err := os.ReadDir(dir)
	if err != nil {
		return
	}
	for _, e := range entries {
		p := filepath.Join(dir, e.Name())
		if !e.Type().IsRegular() || !name.MatchString(e.Name()) || p == own {
			continue
		}
		if release, ok := claimTemp(p); ok {
			_ = os.Remove(p)
			release()
		}
	}
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

// discard removes the temporary file and leaves FILE as it was.
func (o *outputFile) discard() {
	o.tmp.Close()
	os.Remove(o.tmp.Name())
}

// redirect is the stdout of a verb that takes -o FILE (command.output):
// the process's stdout until -o is parsed, the output file after.
type redirect struct {
	w    io.Writer
	file *outputFile
}

func (r *redirect) Write(p []byte) (int, error) {
	if r.file != nil {
		return r.file.Write(p)
	}
	return r.w.Write(p)
}

// finish puts -o FILE in place when the verb's report is whole (exit 0, 1
// for a finding it reports, or 3 for a report that says what it could not
// read) and leaves FILE as it was otherwise; a nil
// redirect, or one -o was not given to, changes nothing.
func (r *redirect) finish(code int, stderr io.Writer, verb string) int {
	if r == nil || r.file == nil {
		return code
	}
	if !wholeReport(code) {
		r.file.discard()
		fmt.Fprintf(stderr, "realdrift %s: -o %s left as it was (exit %d)\n", verb, r.file.path, code)
		return code
	}
	if err := r.file.commit(); err != nil {
		fmt.Fprintf(stderr, "realdrift %s: %v\n", verb, err)
		return ExitError
	}
	return code
}

// wholeReport reports whether a verb exiting with code wrote a whole
// report, which -o FILE then holds: 0, 1 and 3 do; an error (2) or an
// interrupt (130) leaves FILE as it was.
func wholeReport(code int) bool {
	return code == ExitOK || code == ExitDrift || code == ExitIncomplete
}

// outputFlag is -o FILE of a verb with a redirect.
type outputFlag struct{ r *redirect }

func (f outputFlag) String() string {
	if f.r == nil || f.r.file == nil {
		return ""
	}
	return f.r.file.path
}

func (f outputFlag) Set(v string) error {
	if f.r.file != nil {
		return fmt.Errorf("given twice")
	}
	o, err := createOutput(v)
	if err != nil {
		return err
	}
	f.r.file = o
	return nil
}
