package scan

import (
	"context"
	"fmt"
	"sort"
	"sync"

	"golang.org/x/sync/errgroup"

	"github.com/realdrift/realdrift/internal/drift"
	"github.com/realdrift/realdrift/internal/live"
	"github.com/realdrift/realdrift/internal/schema"
)

// Options tune Check.
type Options struct {
	// Concurrency bounds the stack's work in flight, every phase together:
	// load calls, reads, enumerations, lookups (DefaultConcurrency when
	// ≤ 0), so no more of the stack's calls are in flight than that. The
	// calls of the whole run are bounded by the clients' Scheduler, when
	// they have one.
	Concurrency int
	// Facts returns schema facts per type. When nil, Schema is asked for
	// every type of the stack before the reads; when both are nil, the
	// clients' facts source is (Clients.FactsSource: the embedded snapshot,
	// DescribeType only for the types it lacks, or for every type with
	// LiveSchema).
	Facts FactsFunc
	// Schema looks facts up per type (a *schema.Registry: DescribeType over
	// the embedded snapshot).
	Schema FactsSource
	// LiveSchema asks DescribeType for every type (when Facts and Schema
	// are nil) instead of the snapshot first.
	LiveSchema bool
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

// Check runs the whole pipeline for one stack in-process: load desired
// (the template and the resource list fetched side by side), read every
// resource (pass 1; the managed KMS alias lookup overlaps the reads),
// resolve with live attributes, re-read the resources that waited on a
// GetAtt target (pass 1.5) while the other parents' children are
// enumerated (pass 1.6; a re-read parent's after its re-read), classify. An
// error means the stack could not be loaded or the context ended; a
// resource's failure is a skipped finding instead.
func Check(ctx context.Context, c *Clients, stack drift.StackRef, opts Options) (*StackResult, error) {
	if opts.Concurrency <= 0 {
		opts.Concurrency = DefaultConcurrency
	}
	if opts.Classify == nil {
		opts.Classify = Classifier()
	}
	w := newWork(opts.Concurrency)
	d, err := loadDesired(ctx, c, stack, w)
	if err != nil {
		return nil, err
	}
	if opts.Facts == nil {
		src := opts.Schema
		if src == nil {
			if src, err = c.FactsSource(opts.LiveSchema); err != nil {
				return nil, err
			}
		}
		if opts.Facts, err = LookupFacts(ctx, src, d, opts.Concurrency); err != nil {
			return nil, err
		}
	}
	lives := make(map[string]live.Result, len(d.Resources))
	all := make([]Resource, 0, len(d.Resources))
	all = append(all, d.Resources...)
	aliases := make(chan map[string]string, 1)
	go func() {
		var t map[string]string
		w.do(ctx, func() { t = c.KMSAliasTargets(ctx, d, nil) })
		aliases <- t
	}()
	err = readAll(ctx, c, all, opts.Facts, w, lives)
	d.KMSAliasTargets = <-aliases
	if err != nil {
		return nil, err
	}
	reread, err := Resolve(d, lives)
	if err != nil {
		return nil, err
	}
	again := map[string]bool{}
	var rs []Resource
	for _, id := range reread {
		if r, ok := d.resource(id); ok {
			rs = append(rs, r)
			again[id] = true
		}
	}
	// Parents not re-read are enumerated while the re-reads run; the
	// re-read ones after, with their new read.
	var first []Children
	var g errgroup.Group
	g.Go(func() (err error) {
		first, err = enumerateAll(ctx, c, d, lives, w, func(r Resource) bool { return !again[r.LogicalID] })
		return err
	})
	g.Go(func() error { return readAll(ctx, c, rs, opts.Facts, w, lives) })
	if err := g.Wait(); err != nil {
		return nil, err
	}
	second, err := enumerateAll(ctx, c, d, lives, w, func(r Resource) bool { return again[r.LogicalID] })
	if err != nil {
		return nil, err
	}
	children := inStackOrder(d, append(first, second...))
	c.AccountFacts(ctx, d, lives)
	findings := ClassifyStack(d, lives, children, opts.Facts, opts.Classify)
	return &StackResult{Desired: d, Lives: lives, Children: children, Findings: findings}, nil
}

// inStackOrder orders children by their parent's place in d.
func inStackOrder(d *Desired, cs []Children) []Children {
	at := make(map[string]int, len(d.Resources))
	for i, r := range d.Resources {
		at[r.LogicalID] = i
	}
	sort.SliceStable(cs, func(i, j int) bool { return at[cs[i].Parent] < at[cs[j].Parent] })
	return cs
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

// work bounds one stack's work items (a read, an enumeration, a load
// call, the alias lookup) in flight, all phases together, and guards the
// lives they share.
type work struct {
	slots chan struct{}
	mu    sync.Mutex
}

func newWork(limit int) *work { return &work{slots: make(chan struct{}, max(1, limit))} }

// do runs f in a slot; false when ctx ended first.
func (w *work) do(ctx context.Context, f func()) bool {
	select {
	case w.slots <- struct{}{}:
	case <-ctx.Done():
		return false
	}
	defer func() { <-w.slots }()
	f()
	return true
}

// readAll reads rs, each in a slot of w, and stores each result in lives
// (under w.mu: others read lives meanwhile).
func readAll(ctx context.Context, c *Clients, rs []Resource, facts FactsFunc, w *work, lives map[string]live.Result) error {
	var wg sync.WaitGroup
	for _, r := range rs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			w.do(ctx, func() {
				res := ReadResource(ctx, c, r, facts)
				w.mu.Lock()
				lives[r.LogicalID] = res
				w.mu.Unlock()
			})
		}()
	}
	wg.Wait()
	if err := ctx.Err(); err != nil {
		return fmt.Errorf("read resources: %w", err)
	}
	return nil
}

// enumerateAll enumerates the children of every read parent pick keeps,
// each in a slot of w. The result is in the stack's resource order.
func enumerateAll(ctx context.Context, c *Clients, d *Desired, lives map[string]live.Result, w *work, pick func(Resource) bool) ([]Children, error) {
	var parents []Resource
	w.mu.Lock()
	for _, r := range d.Resources {
		if pick(r) && HasChildren(r) && lives[r.LogicalID].Status == live.Found {
			parents = append(parents, r)
		}
	}
	w.mu.Unlock()
	out := make([]Children, len(parents))
	var wg sync.WaitGroup
	for i, p := range parents {
		wg.Add(1)
		go func() {
			defer wg.Done()
			w.do(ctx, func() { out[i] = EnumerateChildren(ctx, c, p, d) })
		}()
	}
	wg.Wait()
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("enumerate children: %w", err)
	}
	return out, nil
}

var _ FactsSource = (*schema.Registry)(nil)
