package baseline

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/realdrift/realdrift/internal/drift"
	"github.com/realdrift/realdrift/internal/store"
)

// docStore is the part of store.Store that keeps baseline documents with a
// version (a conditional write fails with store.ErrConflict).
type docStore interface {
	GetBaseline(ctx context.Context, stack drift.StackRef) (doc []byte, version int64, err error)
	PutBaseline(ctx context.Context, stack drift.StackRef, doc []byte, expectedVersion int64) (int64, error)
}

var _ docStore = (*store.File)(nil)
var _ docStore = (*store.Dynamo)(nil)

// fileSource is implemented by stores whose documents are files
// (store.File): errors then name the file a baseline was read from.
type fileSource interface {
	BaselineSource(stack drift.StackRef) string
}

var _ fileSource = (*store.File)(nil)

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

// docName names a stack's baseline document in errors: the file it is read
// from, else "stored <file name>".
func docName(st docStore, s drift.StackRef) (string, error) {
	name, err := FileName(s)
	if err != nil {
		return "", err
	}
	if f, ok := st.(fileSource); ok {
		return f.BaselineSource(s), nil
	}
	return "stored " + name, nil
}

// LoadStored reads a stack's baseline from a store; (nil, 0, nil) when
// there is none. A malformed document is an error wrapping ErrMalformed that
// names it (the file, for store.File).
func LoadStored(ctx context.Context, st docStore, s drift.StackRef) (*Baseline, int64, error) {
	name, err := docName(st, s)
	if err != nil {
		return nil, 0, err
	}
	doc, ver, err := st.GetBaseline(ctx, s)
	if errors.Is(err, store.ErrNotFound) {
		return nil, 0, nil
	}
	if err != nil {
		return nil, 0, fmt.Errorf("load baseline: %w", err)
	}
	b, err := Decode(name, doc, s)
	if err != nil {
		return nil, 0, err
	}
	return b, ver, nil
}

// UpdateStored reads the stack's current baseline (nil when none), passes
// it to fn and writes what fn returns, conditionally on the version read.
// When another writer got in between, it reads again and re-runs fn on the
// newer baseline (store.RetryConflicts), so neither writer's entries are
// lost; after a bound it gives up with an error wrapping store.ErrConflict.
// Nothing is written when the current document is malformed, fn fails, or
// fn's result would not decode.
func UpdateStored(ctx context.Context, st docStore, s drift.StackRef, fn func(cur *Baseline) (*Baseline, error)) (*Baseline, error) {
	name, err := FileName(s)
	if err != nil {
		return nil, err
	}
	var written *Baseline
	err = store.RetryConflicts(ctx, func() error {
		cur, ver, err := LoadStored(ctx, st, s)
		if err != nil {
			return err
		}
		next, err := fn(cur)
		if err != nil {
			return err
		}
		if next == nil || next.Stack != s {
			return fmt.Errorf("update baseline %s: fn returned no baseline for this stack", name)
		}
		data, err := Encode(next)
		if err != nil {
			return err
		}
		// Never write a document the next run could not read.
		if _, err := Decode(name, data, s); err != nil {
			return fmt.Errorf("update baseline: refusing to write: %w", err)
		}
		if _, err := st.PutBaseline(ctx, s, data, ver); err != nil {
			return fmt.Errorf("update baseline %s: %w", name, err)
		}
		written = next
		return nil
	})
	if err != nil {
		return nil, err
	}
	return written, nil
}
