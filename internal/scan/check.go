package scan

import (
	"context"
	"fmt"
	"sync"

	"golang.org/x/sync/errgroup"

	"github.com/realdrift/realdrift/internal/drift"
	"github.com/realdrift/realdrift/internal/live"
)

// DefaultConcurrency is the default bound on calls in flight per stack.
const DefaultConcurrency = 8

// Options tune Check.
type Options struct {
	// Concurrency bounds the reads and enumerations in flight
	// (DefaultConcurrency when ≤ 0).
	Concurrency int
	// Facts returns schema facts per type; nil means none.
	Facts FactsFunc
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
