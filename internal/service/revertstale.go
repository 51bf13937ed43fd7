package service

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"

	"github.com/realdrift/realdrift/internal/baseline"
	"github.com/realdrift/realdrift/internal/drift"
	"github.com/realdrift/realdrift/internal/live"
	"github.com/realdrift/realdrift/internal/revert"
	"github.com/realdrift/realdrift/internal/scan"
)

// ErrStalePlan marks an item not written because its live value is no
// longer the one the approved plan showed.
var ErrStalePlan = errors.New("stale plan: the live value changed since the plan; not written")

// staleItems re-reads, through the read role, the resources items write
// (a declared resource, or the parent of an added child) and classifies
// and reconciles them as the plan was made. It returns, per item id, why
// the item must not be written: its finding is gone, its live value is
// no longer the plan's Current, or the resource could not be read again.
// An approval approves what the plan showed, which can be a day old.
func (s *Service) staleItems(ctx context.Context, ps revertPlanState, items []revert.Item) (map[string]error, error) {
	d := ps.Desired
	stack := ps.Plan.Stack
	c := s.clients(stack.Account, stack.Region)
	src, err := c.FactsSource(false)
	if err != nil {
		return nil, err
	}
	facts, err := scan.LookupFacts(ctx, src, d, s.set.Concurrency)
	if err != nil {
		return nil, err
	}
	lives := map[string]live.Result{}
	var children []scan.Children
	for _, r := range itemResources(d, items) {
		if _, ok := lives[r.LogicalID]; ok {
			continue
		}
		lives[r.LogicalID] = scan.ReadResource(ctx, c, r, facts)
		if scan.HasChildren(r) {
			children = append(children, scan.EnumerateChildren(ctx, c, r, d))
		}
	}
	if ctx.Err() != nil {
		return nil, ctx.Err()
	}
	b, _, err := baseline.LoadStored(ctx, s.store, stack)
	if err != nil {
		return nil, fmt.Errorf("baseline of %s: %w", stack, err)
	}
	rules, err := s.ignoreRules(ctx)
	if err != nil {
		return nil, fmt.Errorf("ignore rules: %w", err)
	}
	now := map[string]drift.Finding{}
	unread := map[string]string{}
	for _, f := range Reconcile(d, scan.ClassifyStack(d, lives, children, facts, scan.Classifier()), b, rules) {
		if _, ok := lives[f.LogicalID]; ok && f.Tier == drift.Skipped {
			unread[f.LogicalID] = f.Reason
		}
		now[revert.ItemID(f)] = f
	}
	out := map[string]error{}
	for _, it := range items {
		f, ok := now[it.ID]
		switch {
		case unread[it.LogicalID] != "":
			out[it.ID] = fmt.Errorf("%w (%s could not be read again: %s)", ErrStalePlan, it.LogicalID, unread[it.LogicalID])
		case !ok:
			out[it.ID] = fmt.Errorf("%w (%s is no longer drifted as planned)", ErrStalePlan, it.ID)
		case !sameJSON(f.Actual, it.Current):
			out[it.ID] = fmt.Errorf("%w (%s is now %s, the plan saw %s)", ErrStalePlan, it.ID, shortJSON(f.Actual), shortJSON(it.Current))
		}
	}
	return out, nil
}

// itemResources are the declared resources whose read decides items: the
// item's own resource, or the parent whose enumeration found an added
// child.
func itemResources(d *scan.Desired, items []revert.Item) []scan.Resource {
	var out []scan.Resource
	for _, it := range items {
		for _, r := range d.Resources {
			if r.LogicalID == it.LogicalID || scan.AddedLogicalID(r.LogicalID, it.ResourceType) == it.LogicalID {
				out = append(out, r)
			}
		}
	}
	return out
}

// sameJSON compares two values as JSON (a stored plan's numbers are
// json.Number, a fresh read's float64).
func sameJSON(a, b any) bool {
	var x, y any
	ja, err1 := json.Marshal(a)
	jb, err2 := json.Marshal(b)
	if err1 != nil || err2 != nil || json.Unmarshal(ja, &x) != nil || json.Unmarshal(jb, &y) != nil {
		return false
	}
	return reflect.DeepEqual(x, y)
}
