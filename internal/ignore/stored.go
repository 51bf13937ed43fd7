package ignore

import (
	"context"
	"errors"
	"fmt"

	"github.com/realdrift/realdrift/internal/store"
)

// docStore is the part of store.Store that keeps ignore-rules documents
// with a version (a conditional write fails with store.ErrConflict).
type docStore interface {
	GetIgnoreRules(ctx context.Context, scope string) (doc []byte, version int64, err error)
	PutIgnoreRules(ctx context.Context, scope string, doc []byte, expectedVersion int64) (int64, error)
}

var _ docStore = (*store.File)(nil)
var _ docStore = (*store.Dynamo)(nil)

// fileSource is implemented by stores whose documents are files
// (store.File): errors and rule sources then name the file.
type fileSource interface {
	IgnoreSource(scope string) string
	IgnorePath(scope string) string
}

var _ fileSource = (*store.File)(nil)

// docName names a scope's ignore document in errors and rule sources: the
// file it is read from for a file store, else "stored ignore[.scope].yaml".
func docName(st docStore, scope string) string {
	if f, ok := st.(fileSource); ok {
		return f.IgnoreSource(scope)
	}
	return "stored " + fileName(scope)
}

// writeName names where AppendStored writes a scope's rules: the file for a
// file store, else "stored ignore[.scope].yaml".
func writeName(st docStore, scope string) string {
	if f, ok := st.(fileSource); ok {
		return f.IgnorePath(scope)
	}
	return "stored " + fileName(scope)
}

func fileName(scope string) string {
	if scope == "" {
		return "ignore.yaml"
	}
	return "ignore." + scope + ".yaml"
}

// LoadStored reads and concatenates the rules of scopes, in order. An
// absent document has no rules; a malformed one is an error naming it.
func LoadStored(ctx context.Context, st docStore, scopes ...string) ([]Rule, error) {
	var out []Rule
	for _, scope := range scopes {
		name := docName(st, scope)
		doc, _, err := st.GetIgnoreRules(ctx, scope)
		if errors.Is(err, store.ErrNotFound) {
			continue
		}
		if err != nil {
			return nil, fmt.Errorf("read ignore rules: %w", err)
		}
		rules, err := Parse(name, doc)
		if err != nil {
			return nil, err
		}
		out = append(out, rules...)
	}
	return out, nil
}

// AppendStored adds rules to a scope's stored document (AppendBytes: the
// document's comments and order kept, only new rules appended), creating it
// when absent, conditionally on the version read and again after a
// conflict (store.RetryConflicts), so a concurrent writer's rules are never
// lost. Nothing is written when nothing is new or the document is
// malformed. It returns the rules it added.
func AppendStored(ctx context.Context, st docStore, scope string, rules []Rule) ([]Rule, error) {
	var added []Rule
	err := store.RetryConflicts(ctx, func() error {
		name := docName(st, scope)
		doc, ver, err := st.GetIgnoreRules(ctx, scope)
		if err != nil && !errors.Is(err, store.ErrNotFound) {
			return fmt.Errorf("read ignore rules: %w", err)
		}
		out, add, err := AppendBytes(name, doc, rules)
		if err != nil || len(add) == 0 {
			added = nil
			return err
		}
		if _, err := st.PutIgnoreRules(ctx, scope, out, ver); err != nil {
			return fmt.Errorf("append ignore rules to %s: %w", writeName(st, scope), err)
		}
		added = add
		return nil
	})
	if err != nil {
		return nil, err
	}
	return added, nil
}
