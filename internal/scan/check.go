package scan

import (
	"context"
	"fmt"
	"sync"

	"golang.org/x/sync/errgroup"

	"github.com/realdrift/realdrift/internal/drift"
	"github.com/realdrift/realdrift/internal/live"
	"github.com/realdrift/realdrift/internal/schema"
)

// DefaultConcurrency is the default bound on calls in flight per stack.
const DefaultConcurrency = 8

// Options tune Check.
type Options struct {
	// Concurrency bounds the reads and enumerations in flight
	// (DefaultConcurrency when ≤ 0).
	Concurrency int
	// Facts returns schema facts per type. When nil, Schema is asked for
	// every type of the stack before the reads; when both are nil,
	// Clients.Schema (DescribeType over the embedded snapshot) is.
	Facts FactsFunc
	// Schema looks facts up per type (a *schema.Registry: DescribeType over
	// the embedded snapshot).
	Schema FactsSource
	// Classify is the classifier; nil means Classifier().
	Classify ClassifyFunc
}

// StackResult is everything one stack's check gathered and found.
type StackResult struct {
	Desired  *Desired               `json:"desired"`
	Lives    map[string]live.Result `json:"lives"`
	Children []Children             `json:"children,omitempty"`
	Findings []drift.Finding        `json:"findings"`
}

// Check runs the whole pipeline for one stack in-process: load desired,
// read every resource (pass 1), resolve with live attributes, re-read the
// resources that waited on a GetAtt target (pass 1.5), enumerate children
// (pass 1.6), classify. An error means the stack could not be loaded or the
// context ended; a resource's failure is a skipped finding instead.
func Check(ctx context.Context, c *Clients, stack drift.StackRef, opts Options) (*StackResult, error) {
	if opts.Concurrency <= 0 {
		opts.Concurrency = DefaultConcurrency
	}
	if opts.Classify == nil {
		opts.Classify = Classifier()
	}
	d, err := LoadDesired(ctx, c, stack)
	if err != nil {
		return nil, err
	}
	if opts.Facts == nil {
		src := opts.Schema
		if src == nil {
			reg, err := c.Schema()
			if err != nil {
				return nil, err
			}
			src = reg
		}
		if opts.Facts, err = LookupFacts(ctx, src, d, opts.Concurrency); err != nil {
			return nil, err
		}
	}
	lives := make(map[string]live.Result, len(d.Resources))
	all := make([]Resource, 0, len(d.Resources))
	all = append(all, d.Resources...)
	if err := readAll(ctx, c, all, opts, lives); err != nil {
		return nil, err
	}
	reread, err := Resolve(d, lives)
	if err != nil {
		return nil, err
	}
	var again []Resource
	for _, id := range reread {
		if r, ok := d.resource(id); ok {
			again = append(again, r)
		}
	}
	if err := readAll(ctx, c, again, opts, lives); err != nil {
		return nil, err
	}
	children, err := enumerateAll(ctx, c, d, lives, opts)
	if err != nil {
		return nil, err
	}
	findings := ClassifyStack(d, lives, children, opts.Facts, opts.Classify)
	return &StackResult{Desired: d, Lives: lives, Children: children, Findings: findings}, nil
}

// FactsSource looks up a type's schema facts, possibly with I/O.
type FactsSource interface {
	Lookup(ctx context.Context, typeName string) (*schema.Facts, error)
}

// LookupFacts asks src for the facts of every type of d (bounded like the
// reads) and returns them as a FactsFunc. A type src cannot answer has no
// facts; the classifier then behaves as without them.
func LookupFacts(ctx context.Context, src FactsSource, d *Desired, limit int) (FactsFunc, error) {
	byType, err := FactsByType(ctx, src, d, limit)
	if err != nil {
		return nil, err
	}
	return func(t string) (*schema.Facts, bool) {
		f, ok := byType[t]
		return f, ok
	}, nil
}

// FactsByType asks src for the facts of every non-custom type of d, at most
// limit lookups at once, and returns those it answered keyed by type. Only a
// cancelled ctx is an error.
func FactsByType(ctx context.Context, src FactsSource, d *Desired, limit int) (map[string]*schema.Facts, error) {
	var types []string
	seen := map[string]bool{}
	for _, r := range d.Resources {
		if !seen[r.Type] && !live.IsCustom(r.Type) {
			seen[r.Type] = true
			types = append(types, r.Type)
		}
	}
	facts := make([]*schema.Facts, len(types))
	g, gctx := errgroup.WithContext(ctx)
	g.SetLimit(limit)
	for i, t := range types {
		g.Go(func() error {
			if f, err := src.Lookup(gctx, t); err == nil {
				facts[i] = f
			}
			return nil
		})
	}
	_ = g.Wait()
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("look up schema facts: %w", err)
	}
	byType := make(map[string]*schema.Facts, len(types))
	for i, t := range types {
		if facts[i] != nil {
			byType[t] = facts[i]
		}
	}
	return byType, nil
}

// readAll reads rs with at most opts.Concurrency reads in flight and stores
// each result in lives.
func readAll(ctx context.Context, c *Clients, rs []Resource, opts Options, lives map[string]live.Result) error {
	var mu sync.Mutex
	g, gctx := errgroup.WithContext(ctx)
	g.SetLimit(opts.Concurrency)
	for _, r := range rs {
		g.Go(func() error {
			res := ReadResource(gctx, c, r, opts.Facts)
			mu.Lock()
			lives[r.LogicalID] = res
			mu.Unlock()
			return nil
		})
	}
	_ = g.Wait()
	if err := ctx.Err(); err != nil {
		return fmt.Errorf("read resources: %w", err)
	}
	return nil
}

// enumerateAll enumerates the children of every read parent, bounded like
// the reads. The result is in the stack's resource order.
func enumerateAll(ctx context.Context, c *Clients, d *Desired, lives map[string]live.Result, opts Options) ([]Children, error) {
	var parents []Resource
	for _, r := range d.Resources {
		if HasChildren(r) && lives[r.LogicalID].Status == live.Found {
			parents = append(parents, r)
		}
	}
	out := make([]Children, len(parents))
	g, gctx := errgroup.WithContext(ctx)
	g.SetLimit(opts.Concurrency)
	for i, p := range parents {
		g.Go(func() error {
			out[i] = EnumerateChildren(gctx, c, p, d)
			return nil
		})
	}
	_ = g.Wait()
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("enumerate children: %w", err)
	}
	return out, nil
}

var _ FactsSource = (*schema.Registry)(nil)
