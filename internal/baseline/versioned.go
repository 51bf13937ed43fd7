package baseline

import (
	"context"
	"errors"
	"fmt"

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

// maxConflictRetries bounds how often UpdateStored re-reads after a
// concurrent write.
const maxConflictRetries = 5

// LoadStored reads a stack's baseline from a store; (nil, nil) when there is
// none.
func LoadStored(ctx context.Context, st docStore, s drift.StackRef) (*Baseline, int64, error) {
	doc, ver, err := st.GetBaseline(ctx, s)
	if errors.Is(err, store.ErrNotFound) {
		return nil, 0, nil
	}
	if err != nil {
		return nil, 0, fmt.Errorf("load baseline: %w", err)
	}
	name, err := FileName(s)
	if err != nil {
		return nil, 0, err
	}
	b, err := Decode("stored "+name, doc, s)
	if err != nil {
		return nil, 0, err
	}
	return b, ver, nil
}

// UpdateStored is Update for a versioned store (the service's DynamoDB
// table): read, let fn merge, write conditionally on the version read. When
// another writer got in between, it reads again and re-runs fn on the newer
// baseline, so neither writer's entries are lost; after a few conflicts it
// gives up with an error wrapping store.ErrConflict.
func UpdateStored(ctx context.Context, st docStore, s drift.StackRef, fn func(cur *Baseline) (*Baseline, error)) (*Baseline, error) {
	name, err := FileName(s)
	if err != nil {
		return nil, err
	}
	for attempt := 0; ; attempt++ {
		cur, ver, err := LoadStored(ctx, st, s)
		if err != nil {
			return nil, err
		}
		next, err := fn(cur)
		if err != nil {
			return nil, err
		}
		if next == nil || next.Stack != s {
			return nil, fmt.Errorf("update baseline %s: fn returned no baseline for this stack", name)
		}
		data, err := Encode(next)
		if err != nil {
			return nil, err
		}
		if _, err := Decode(name, data, s); err != nil {
			return nil, fmt.Errorf("update baseline: refusing to write: %w", err)
		}
		_, err = st.PutBaseline(ctx, s, data, ver)
		switch {
		case err == nil:
			return next, nil
		case errors.Is(err, store.ErrConflict) && attempt < maxConflictRetries:
			continue
		default:
			return nil, fmt.Errorf("update baseline %s: %w", name, err)
		}
	}
}
