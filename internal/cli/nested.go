package cli

import (
	"context"
	"flag"
	"fmt"
	"path/filepath"
	"sync"

	"github.com/realdrift/realdrift/internal/cfn"
	"github.com/realdrift/realdrift/internal/drift"
	"github.com/realdrift/realdrift/internal/scan"
)

// Nested stacks: check, record and ignore descend into the
// AWS::CloudFormation::Stack resources of every stack they check (unless
// --no-recursive). Each nested stack is a stack run of its own — its own
// name, baseline and report, after its parent in depth-first order — and
// one that cannot be read is a skipped finding on its parent's stack
// resource (a coverage gap), never drift and never left out.

// registerRecursion adds --no-recursive to a checking verb.
func (f *stackFlags) registerRecursion(fs *flag.FlagSet) {
	fs.BoolVar(&f.noRecursive, "no-recursive", false, "do not descend into nested stacks (AWS::CloudFormation::Stack resources); by default each is checked as a stack of its own, depth first after its parent")
}

// gatherTree checks t and, unless --no-recursive, its nested stacks, depth
// first: the runs in report order, t's first. A nested stack is checked
// once per tree however its parents name it.
func (sess *session) gatherTree(ctx context.Context, t target, mode gatherMode) []*stackRun {
	run := sess.gather(ctx, t, mode)
	if sess.flags.noRecursive {
		return []*stackRun{run}
	}
	return sess.descendRun(ctx, run, mode, 1, &visited{seen: map[string]bool{}})
}

// visited is the nested stacks a tree has reached (by ARN), so a malformed
// nesting cannot loop.
type visited struct {
	mu   sync.Mutex
	seen map[string]bool
}

// first reports whether arn is reached for the first time.
func (v *visited) first(arn string) bool {
	v.mu.Lock()
	defer v.mu.Unlock()
	if v.seen[arn] {
		return false
	}
	v.seen[arn] = true
	return true
}

// descendRun returns run followed by its nested stacks' runs, depth first.
// The nested stacks of one parent are checked side by side (every call
// still goes through the session's scheduler).
func (sess *session) descendRun(ctx context.Context, run *stackRun, mode gatherMode, depth int, seen *visited) []*stackRun {
	out := []*stackRun{run}
	if run.err != nil || run.result == nil || run.result.Desired == nil {
		return out
	}
	seen.first(run.result.Desired.StackID)
	nested := scan.NestedStacks(run.result.Desired)
	if len(nested) == 0 {
		return out
	}
	trees := make([][]*stackRun, len(nested))
	gaps := make([]string, len(nested))
	var wg sync.WaitGroup
	for i, n := range nested {
		switch {
		case deletedOutOfBand(run, n.LogicalID):
			continue // its parent reports it deleted
		case n.StackID == "":
			gaps[i] = "nested stack not checked: its stack resource has no physical id (no nested stack deployed)"
			continue
		case depth > maxNestedDepth:
			gaps[i] = fmt.Sprintf("nested stack %s not checked: nested more than %d levels deep", n.Name(), maxNestedDepth)
			continue
		case !seen.first(n.StackID):
			gaps[i] = fmt.Sprintf("nested stack %s not checked again: it is already in this tree", n.Name())
			continue
		}
		child, err := sess.nestedTarget(run, n, mode)
		if err != nil {
			gaps[i] = fmt.Sprintf("nested stack %s not checked: %v", n.Name(), err)
			continue
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			r := sess.gather(ctx, child, mode)
			r.parent, r.parentLogicalID = run.ref.Name, n.LogicalID
			if r.err != nil {
				if ctx.Err() == nil {
					gaps[i] = fmt.Sprintf("nested stack %s could not be read: %v", n.Name(), r.err)
				}
				return
			}
			trees[i] = sess.descendRun(ctx, r, mode, depth+1, seen)
		}()
	}
	wg.Wait()
	// What a stack resource echoes of its nested stack (parameter
	// defaults, NoEcho masks) the classifier has folded already: the
	// parent's check read those nested templates' parameters
	// (scan.Clients.AccountFacts).
	for i, n := range nested {
		if gaps[i] != "" {
			run.addGap(n, gaps[i])
		}
		out = append(out, trees[i]...)
	}
	return out
}

// nestedTarget is the target of nested stack n of run: the nested stack's
// name (from its ARN) in the parent's region; with --pre-deploy, its
// synthesized template is the one the parent's synthesized stack resource
// names (aws:asset:path, beside the parent's template in the assembly).
func (sess *session) nestedTarget(run *stackRun, n scan.Nested, mode gatherMode) (target, error) {
	t := target{name: n.Name(), region: run.target.region}
	if !mode.preDeploy {
		return t, nil
	}
	if run.target.app == nil {
		return t, fmt.Errorf("--pre-deploy: no synthesized template for it")
	}
	body, err := run.target.app.template()
	if err != nil {
		return t, err
	}
	tmpl, err := cfn.Parse(body)
	if err != nil {
		return t, fmt.Errorf("synthesized template of %s: %w", run.target.app.name, err)
	}
	res := tmpl.Resources[n.LogicalID]
	if res == nil {
		return t, fmt.Errorf("--pre-deploy: the synthesized %s no longer declares %s", run.target.app.name, n.LogicalID)
	}
	rel, _ := res.Metadata["aws:asset:path"].(string)
	if rel == "" {
		return t, fmt.Errorf("--pre-deploy: %s has no aws:asset:path metadata (the synthesized nested template)", n.LogicalID)
	}
	t.app = &appStack{name: t.name, region: run.target.app.region, templateFile: filepath.Join(filepath.Dir(run.target.app.templateFile), filepath.Clean(rel))}
	return t, nil
}

// deletedOutOfBand reports whether run found the resource id gone.
func deletedOutOfBand(run *stackRun, id string) bool {
	for _, f := range run.raw {
		if f.LogicalID == id && f.Tier == drift.Deleted {
			return true
		}
	}
	return false
}

// addGap records a nested stack that was not checked as a skipped finding
// on its parent's stack resource: coverage is incomplete (--strict),
// record names it and keeps what it recorded.
func (r *stackRun) addGap(n scan.Nested, reason string) {
	f := drift.Finding{Tier: drift.Skipped, LogicalID: n.LogicalID, ResourceType: scan.NestedStackType, PhysicalID: n.StackID, Reason: reason}
	for _, res := range r.result.Desired.Resources {
		if res.LogicalID == n.LogicalID {
			f.ConstructPath = res.ConstructPath
		}
	}
	if f.ConstructPath == "" && r.target.app != nil {
		f.ConstructPath = r.target.app.paths[n.LogicalID]
	}
	r.raw = append(r.raw, f)
	r.findings = append(r.findings, f)
}

// topLevel keeps the targets that are not nested in another target: with
// recursion, a stack is checked under the stack it is nested in, so a
// glob or --all that picks both checks it once.
func topLevel(picked []string, listed []scan.ListedStack) []string {
	idOf, parentOf := map[string]string{}, map[string]string{}
	for _, s := range listed {
		idOf[s.Name] = s.ID
		parentOf[s.ID] = s.ParentID
	}
	chosen := map[string]bool{}
	for _, n := range picked {
		chosen[idOf[n]] = true
	}
	var out []string
	for _, n := range picked {
		nestedInChosen := false
		seen := map[string]bool{}
		for up := parentOf[idOf[n]]; up != "" && !seen[up]; up = parentOf[up] {
			seen[up] = true
			if chosen[up] {
				nestedInChosen = true
				break
			}
		}
		if !nestedInChosen {
			out = append(out, n)
		}
	}
	return out
}
