package scan

import (
	"context"
	"fmt"
	"sort"
	"strings"

	"github.com/aws/aws-sdk-go-v2/service/cloudformation"
	"golang.org/x/sync/errgroup"

	"github.com/realdrift/realdrift/internal/classify"
	"github.com/realdrift/realdrift/internal/live"
)

// NestedStackType is the resource type of a nested stack: its physical id
// is the nested stack's ARN.
const NestedStackType = "AWS::CloudFormation::Stack"

// Nested is one nested stack of a loaded stack: the logical id of the
// parent's AWS::CloudFormation::Stack resource and the nested stack's ARN
// (that resource's physical id; "" when the stack resource has none, as
// while it is being created).
type Nested struct {
	LogicalID string `json:"logicalId"`
	StackID   string `json:"stackId"`
}

// Name is the nested stack's name, read from its ARN
// (arn:…:stack/NAME/uuid); "" without an ARN.
func (n Nested) Name() string { return StackNameOfARN(n.StackID) }

// NestedStacks lists the nested stacks d declares (condition-pruned ones
// are not deployed), in logical-id order.
func NestedStacks(d *Desired) []Nested {
	var out []Nested
	for _, r := range d.Resources {
		if r.Type == NestedStackType {
			out = append(out, Nested{LogicalID: r.LogicalID, StackID: r.PhysicalID})
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].LogicalID < out[j].LogicalID })
	return out
}

// StackNameOfARN is the stack name of a stack ARN (arn:…:stack/NAME/uuid),
// or s itself when it is not one.
func StackNameOfARN(s string) string {
	if _, rest, ok := strings.Cut(s, ":stack/"); ok {
		name, _, _ := strings.Cut(rest, "/")
		return name
	}
	return s
}

// ListedStack is a live stack as the account-region's listing shows it;
// ParentID and RootID are set for a nested stack (its parent's and its
// tree's top stack's ARNs).
type ListedStack struct {
	Name     string
	ID       string
	ParentID string
	RootID   string
}

// ListStackTree lists the account-region's live stacks, as ListStacks does,
// with their nesting, in depth-first order: each top-level stack (sorted
// by name) followed by its nested stacks, each of those followed by its
// own, siblings sorted by name. A nested stack whose parent is not listed
// is placed as a top-level one. Each stack appears once.
func ListStackTree(ctx context.Context, c *Clients) ([]ListedStack, error) {
	var all []ListedStack
	p := cloudformation.NewDescribeStacksPaginator(c.CloudFormation, &cloudformation.DescribeStacksInput{})
	for p.HasMorePages() {
		page, err := p.NextPage(ctx)
		if err != nil {
			return nil, fmt.Errorf("list stacks: %w", err)
		}
		for _, s := range page.Stacks {
			if n := deref(s.StackName); n != "" && !strings.HasPrefix(string(s.StackStatus), "DELETE_COMPLETE") {
				all = append(all, ListedStack{Name: n, ID: deref(s.StackId), ParentID: deref(s.ParentId), RootID: deref(s.RootId)})
				c.listed.put(s)
			}
		}
	}
	return treeOrder(all), nil
}

// treeOrder puts stacks in depth-first order (see ListStackTree), each
// stack once.
func treeOrder(all []ListedStack) []ListedStack {
	key := func(s ListedStack) string {
		if s.ID == "" {
			return "name:" + s.Name
		}
		return s.ID
	}
	listed := map[string]bool{}
	var uniq []ListedStack
	for _, s := range all {
		if !listed[key(s)] {
			listed[key(s)] = true
			uniq = append(uniq, s)
		}
	}
	sort.SliceStable(uniq, func(i, j int) bool { return uniq[i].Name < uniq[j].Name })
	kids := map[string][]ListedStack{}
	var roots []ListedStack
	for _, s := range uniq {
		if s.ParentID != "" && s.ParentID != s.ID && listed[s.ParentID] {
			kids[s.ParentID] = append(kids[s.ParentID], s)
			continue
		}
		roots = append(roots, s)
	}
	out := make([]ListedStack, 0, len(uniq))
	seen := map[string]bool{}
	var walk func(s ListedStack)
	walk = func(s ListedStack) {
		if seen[key(s)] {
			return
		}
		seen[key(s)] = true
		out = append(out, s)
		for _, k := range kids[s.ID] {
			walk(k)
		}
	}
	for _, s := range roots {
		walk(s)
	}
	for _, s := range uniq {
		walk(s) // only stacks in a cycle of a malformed listing are left: still listed once
	}
	return out
}

// NestedParameter is one parameter a nested stack's own template
// declares, as the classifier folds its parent's echo of it
// (classify.NestedParametersOption): its Default, when it declares one,
// and whether it is NoEcho.
type NestedParameter struct {
	Default *string `json:"default,omitempty"`
	NoEcho  bool    `json:"noEcho,omitempty"`
}

// NeedsNestedParameters reports whether the read stack resource r (a
// nested stack) echoes something of its nested template that the
// parent's template alone cannot tell from drift: a parameter the parent
// does not pass, or a masked ("****") value where it passes one. Only
// then does a check read the nested template's parameters.
func NeedsNestedParameters(r Resource, res live.Result) bool {
	if r.Type != NestedStackType || r.PhysicalID == "" || res.Status != live.Found {
		return false
	}
	params, _ := res.Model["Parameters"].(map[string]any)
	declared, _ := r.Declared["Parameters"].(map[string]any)
	for k, v := range params {
		d, passed := declared[k]
		if !passed {
			return true
		}
		if s, _ := v.(string); s == classify.NoEchoMask && d != classify.NoEchoMask {
			return true
		}
	}
	return false
}

// NestedParameters reads, for each nested stack of d that
// NeedsNestedParameters, its template's parameter declarations (GetTemplate
// by the nested stack's ARN, nestedReads at a time), keyed by that ARN. A
// nested template that cannot be read or parsed is left out: its echoes
// stay as the classifier sees them without the fact. nil when none is
// needed or read.
func (c *Clients) NestedParameters(ctx context.Context, d *Desired, lives map[string]live.Result) map[string]map[string]NestedParameter {
	var arns []string
	for _, r := range d.Resources {
		if NeedsNestedParameters(r, lives[r.LogicalID]) {
			arns = append(arns, r.PhysicalID)
		}
	}
	read := make([]map[string]NestedParameter, len(arns))
	var g errgroup.Group
	g.SetLimit(nestedReads)
	for i, arn := range arns {
		g.Go(func() error {
			_, tmpl, err := loadTemplate(ctx, c, arn)
			if err != nil || tmpl == nil {
				return nil
			}
			ps := make(map[string]NestedParameter, len(tmpl.Parameters))
			for k, p := range tmpl.Parameters {
				np := NestedParameter{NoEcho: p.NoEcho}
				if p.HasDefault {
					def := p.Default
					np.Default = &def
				}
				ps[k] = np
			}
			read[i] = ps
			return nil
		})
	}
	_ = g.Wait()
	var out map[string]map[string]NestedParameter
	for i, ps := range read {
		if ps == nil {
			continue
		}
		if out == nil {
			out = map[string]map[string]NestedParameter{}
		}
		out[arns[i]] = ps
	}
	return out
}

// nestedReads bounds one stack's nested-template reads in flight (the
// clients' scheduler bounds the run's calls as a whole).
const nestedReads = 8

// withNestedParameters adds d's NestedParameters to the classifier's
// sibling facts, in its option shape (classify.NestedParametersOption).
func withNestedParameters(sibling map[string]any, d *Desired) map[string]any {
	if len(d.NestedParameters) == 0 {
		return sibling
	}
	out := make(map[string]any, len(d.NestedParameters))
	for arn, ps := range d.NestedParameters {
		m := make(map[string]any, len(ps))
		for k, p := range ps {
			e := map[string]any{}
			if p.Default != nil {
				e["default"] = *p.Default
			}
			if p.NoEcho {
				e["noEcho"] = true
			}
			m[k] = e
		}
		out[arn] = m
	}
	if sibling == nil {
		sibling = map[string]any{}
	}
	sibling[classify.NestedParametersOption] = out
	return sibling
}
