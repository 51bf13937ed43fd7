package schema

import (
	"context"
	"errors"
	"fmt"
	"sync"

	"github.com/aws/aws-sdk-go-v2/service/cloudformation"
	cfntypes "github.com/aws/aws-sdk-go-v2/service/cloudformation/types"
)

// ErrUnknownType reports a type neither DescribeType nor the snapshot knows.
var ErrUnknownType = errors.New("unknown resource type")

// describer is the part of *cloudformation.Client a Registry calls.
type describer interface {
	DescribeType(ctx context.Context, in *cloudformation.DescribeTypeInput, optFns ...func(*cloudformation.Options)) (*cloudformation.DescribeTypeOutput, error)
}

var _ describer = (*cloudformation.Client)(nil)

// Origin tells where a type's facts came from.
type Origin int

const (
	// OriginNone: no facts.
	OriginNone Origin = iota
	// OriginDescribeType: the account's registry, read at run time.
	OriginDescribeType
	// OriginSnapshot: the embedded snapshot.
	OriginSnapshot
)

func (o Origin) String() string {
	switch o {
	case OriginDescribeType:
		return "describe-type"
	case OriginSnapshot:
		return "snapshot"
	}
	return "none"
}

// Resolved is the answer for one type.
type Resolved struct {
	Facts  *Facts
	Origin Origin
	// DescribeErr is why DescribeType did not supply the facts, when it was
	// asked and failed (Origin is then OriginSnapshot, or OriginNone when
	// the snapshot lacks the type too).
	DescribeErr error
}

// Registry serves a type's facts for one run: the account's registry
// schema (CloudFormation DescribeType) wins over the snapshot, each type is
// fetched at most once, and a failed DescribeType falls back to the
// snapshot. It is safe for concurrent use.
type Registry struct {
	api  describer
	base *Snapshot

	mu      sync.Mutex
	entries map[string]*entry
}

// entry is one type's fetch; done is closed when res is set.
type entry struct {
	done chan struct{}
	res  Resolved
	// retry is set when the fetch was cut short by its caller's context:
	// the result is not cached and the next caller fetches again.
	retry bool
}

// NewRegistry returns a Registry over api and base. A nil api serves the
// snapshot only; a nil base means no snapshot.
func NewRegistry(api describer, base *Snapshot) *Registry {
	return &Registry{api: api, base: base, entries: map[string]*entry{}}
}

// Lookup returns the facts of typeName, or an error wrapping ErrUnknownType
// (and the DescribeType error, if any) when no source has them.
func (r *Registry) Lookup(ctx context.Context, typeName string) (*Facts, error) {
	res, err := r.Resolve(ctx, typeName)
	if err != nil {
		return nil, err
	}
	return res.Facts, nil
}

// Resolve returns the facts of typeName with their origin. The error is
// non-nil only when no source has the type, or ctx ended while waiting.
func (r *Registry) Resolve(ctx context.Context, typeName string) (Resolved, error) {
	for {
		r.mu.Lock()
		e, ok := r.entries[typeName]
		if !ok {
			e = &entry{done: make(chan struct{})}
			r.entries[typeName] = e
			r.mu.Unlock()
			r.fill(ctx, typeName, e)
		} else {
			r.mu.Unlock()
			select {
			case <-e.done:
			case <-ctx.Done():
				return Resolved{}, ctx.Err()
			}
		}
		if e.retry {
			if err := ctx.Err(); err != nil {
				return Resolved{}, err
			}
			continue
		}
		return e.res.copy()
	}
}

// fill fetches typeName into e and publishes it.
func (r *Registry) fill(ctx context.Context, typeName string, e *entry) {
	defer close(e.done)
	res := Resolved{}
	if r.api != nil {
		f, err := r.describe(ctx, typeName)
		if err == nil {
			e.res = Resolved{Facts: f, Origin: OriginDescribeType}
			return
		}
		if ctx.Err() != nil {
			e.retry = true
			r.mu.Lock()
			delete(r.entries, typeName)
			r.mu.Unlock()
			return
		}
		res.DescribeErr = err
	}
	if r.base != nil {
		if f, ok := r.base.types[typeName]; ok {
			res.Facts = f
			res.Origin = OriginSnapshot
		}
	}
	e.res = res
}

func (r *Registry) describe(ctx context.Context, typeName string) (*Facts, error) {
	out, err := r.api.DescribeType(ctx, &cloudformation.DescribeTypeInput{
		Type:     cfntypes.RegistryTypeResource,
		TypeName: &typeName,
	})
	if err != nil {
		return nil, fmt.Errorf("describe type %s: %w", typeName, err)
	}
	if out == nil || out.Schema == nil || *out.Schema == "" {
		return nil, fmt.Errorf("describe type %s: no schema in the answer", typeName)
	}
	name, f, err := ParseRegistry([]byte(*out.Schema))
	if err != nil {
		return nil, fmt.Errorf("describe type %s: %w", typeName, err)
	}
	if name != typeName {
		return nil, fmt.Errorf("describe type %s: schema is for %s", typeName, name)
	}
	return &f, nil
}

// copy hands out a private copy of the cached facts, or the error for a
// type no source knows.
func (res Resolved) copy() (Resolved, error) {
	if res.Facts == nil {
		if res.DescribeErr != nil {
			return res, errors.Join(ErrUnknownType, res.DescribeErr)
		}
		return res, ErrUnknownType
	}
	res.Facts = res.Facts.Clone()
	return res, nil
}
