package baseline

import (
	"context"
	"fmt"
	"os"
	"path/filepath"

	"github.com/realdrift/realdrift/internal/drift"
)

// Load reads the baseline of stack s. It returns (nil, nil) when no baseline
// exists. A malformed file is an error naming the file and the problem.
func Load(d StateDir, s drift.StackRef) (*Baseline, error) {
	p, err := d.findBaseline(s)
	if err != nil || p == "" {
		return nil, err
	}
	data, err := os.ReadFile(p)
	if err != nil {
		return nil, fmt.Errorf("read baseline: %w", err)
	}
	return Decode(p, data, s)
}

// Update reads the stack's current baseline (nil when none), passes it to fn
// and writes what fn returns, all under an exclusive lock on the baselines
// directory, so concurrent writers serialise and each merges into the
// other's result. Nothing is written when the current file is malformed or
// fn fails. The write is atomic: temp file in the same directory, fsync,
// rename.
func Update(ctx context.Context, d StateDir, s drift.StackRef, fn func(cur *Baseline) (*Baseline, error)) (*Baseline, error) {
	path, err := d.BaselinePath(s)
	if err != nil {
		return nil, err
	}
	dir := filepath.Dir(path)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, fmt.Errorf("create baselines directory: %w", err)
	}
	unlock, err := lockDir(ctx, dir)
	if err != nil {
		return nil, err
	}
	defer unlock()
	cur, err := Load(d, s)
	if err != nil {
		return nil, err
	}
	next, err := fn(cur)
	if err != nil {
		return nil, err
	}
	if next == nil {
		return nil, fmt.Errorf("update baseline %s: no baseline to write", path)
	}
	if next.Stack != s {
		return nil, fmt.Errorf("update baseline %s: baseline is for %s, not %s", path, next.Stack, s)
	}
	data, err := Encode(next)
	if err != nil {
		return nil, err
	}
	// Never write a file the next run could not read.
	if _, err := Decode(path, data, s); err != nil {
		return nil, fmt.Errorf("update baseline: refusing to write: %w", err)
	}
	if err := writeAtomic(path, data); err != nil {
		return nil, err
	}
	return next, nil
}

// writeAtomic replaces path with data so a reader sees the old or the new
// file, never a mix.
func writeAtomic(path string, data []byte) error {
	dir := filepath.Dir(path)
	tmp, err := os.CreateTemp(dir, "."+filepath.Base(path)+".tmp-*")
	if err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	name := tmp.Name()
	ok := false
	defer func() {
		if !ok {
			tmp.Close()
			os.Remove(name)
		}
	}()
	if _, err := tmp.Write(data); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	if err := tmp.Chmod(0o644); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	if err := tmp.Sync(); err != nil {
		return fmt.Errorf("write %s: fsync: %w", path, err)
	}
	if err := tmp.Close(); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	if err := os.Rename(name, path); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	ok = true
	if df, err := os.Open(dir); err == nil {
		_ = df.Sync() // best effort: make the rename durable
		df.Close()
	}
	return nil
}
