package baseline

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/realdrift/realdrift/internal/drift"
)

// DefaultStateDir is the state directory used when none is given.
const DefaultStateDir = ".realdrift"

// LegacyStateDir is cdk-real-drift's state directory, read when present.
const LegacyStateDir = ".cdkrd"

// IgnoreFileName is the ignore rules file inside a state directory.
const IgnoreFileName = "ignore.yaml"

// StateDir says where state files are read from and written to.
type StateDir struct {
	// Write is the directory every write goes to.
	Write string
	// Read lists the directories searched, first match wins for a baseline.
	Read []string
}

// ResolveStateDir returns the state directory under root. A non-empty flag
// (--state-dir) is used alone. Otherwise writes go to root/.realdrift and
// reads look there first, then in root/.cdkrd when that directory exists.
func ResolveStateDir(root, flag string) StateDir {
	if flag != "" {
		if !filepath.IsAbs(flag) {
			flag = filepath.Join(root, flag)
		}
		return StateDir{Write: flag, Read: []string{flag}}
	}
	d := StateDir{Write: filepath.Join(root, DefaultStateDir)}
	d.Read = []string{d.Write}
	legacy := filepath.Join(root, LegacyStateDir)
	if fi, err := os.Stat(legacy); err == nil && fi.IsDir() {
		d.Read = append(d.Read, legacy)
	}
	return d
}

// FileName returns the baseline file name of a stack:
// <stack>.<account>.<region>.json.
func FileName(s drift.StackRef) (string, error) {
	for _, p := range []struct{ what, v string }{{"stack name", s.Name}, {"account", s.Account}, {"region", s.Region}} {
		if p.v == "" {
			return "", fmt.Errorf("baseline file name: empty %s", p.what)
		}
		if strings.ContainsAny(p.v, "/\\\x00") || p.v == "." || p.v == ".." {
			return "", fmt.Errorf("baseline file name: %s %q is not a plain name", p.what, p.v)
		}
	}
	return s.Name + "." + s.Account + "." + s.Region + ".json", nil
}

// BaselinePath is the path a stack's baseline is written to.
func (d StateDir) BaselinePath(s drift.StackRef) (string, error) {
	name, err := FileName(s)
	if err != nil {
		return "", err
	}
	return filepath.Join(d.Write, "baselines", name), nil
}

// IgnoreFiles lists the ignore files that exist, in read order.
func (d StateDir) IgnoreFiles() []string {
	var out []string
	for _, dir := range d.Read {
		p := filepath.Join(dir, IgnoreFileName)
		if fi, err := os.Stat(p); err == nil && !fi.IsDir() {
			out = append(out, p)
		}
	}
	return out
}

// IgnorePath is the ignore file new rules are appended to.
func (d StateDir) IgnorePath() string { return filepath.Join(d.Write, IgnoreFileName) }

// findBaseline returns the first existing baseline file for s, or "".
func (d StateDir) findBaseline(s drift.StackRef) (string, error) {
	name, err := FileName(s)
	if err != nil {
		return "", err
	}
	for _, dir := range d.Read {
		p := filepath.Join(dir, "baselines", name)
		fi, err := os.Stat(p)
		if err == nil && !fi.IsDir() {
			return p, nil
		}
		if err != nil && !os.IsNotExist(err) {
			return "", fmt.Errorf("find baseline: %w", err)
		}
	}
	return "", nil
}
