package scan

import (
	"context"
	"fmt"
	"sort"
	"strings"

	"github.com/aws/aws-sdk-go-v2/service/cloudformation"

	"github.com/realdrift/realdrift/internal/cfn"
	"github.com/realdrift/realdrift/internal/drift"
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

// FoldNestedEcho reclassifies what a parent's AWS::CloudFormation::Stack
// resource logicalID echoes of its nested stack child (the stack that
// resource's physical id names), which the parent's template alone cannot
// tell from drift:
//   - an undeclared Parameters.<key> whose live value is the default the
//     nested template declares for key (the parent passes no value, the
//     nested stack took its default) is atDefault, and so is an undeclared
//     Parameters object (the parent passes none) of defaults only;
//   - a declared Parameters.<key> whose live value is CloudFormation's
//     "****" mask of a NoEcho parameter is a readGap: the value cannot be
//     read back.
//
// Every other finding is returned unchanged; a child template that does
// not parse changes nothing.
func FoldNestedEcho(fs []drift.Finding, logicalID string, child *Desired) []drift.Finding {
	tmpl, err := cfn.Parse([]byte(child.TemplateBody))
	if err != nil {
		return fs
	}
	isDefault := func(key string, v any) bool {
		p, ok := tmpl.Parameters[key]
		s, isString := v.(string)
		return ok && isString && p.HasDefault && s == p.Default
	}
	out := make([]drift.Finding, len(fs))
	for i, f := range fs {
		out[i] = f
		if f.LogicalID != logicalID || f.ResourceType != NestedStackType {
			continue
		}
		if all, ok := f.Actual.(map[string]any); ok && f.Path == "Parameters" && f.Tier == drift.Undeclared && len(all) > 0 {
			// No parameter passed at all: every one is the nested default.
			every := true
			for k, v := range all {
				every = every && isDefault(k, v)
			}
			if every {
				out[i].Tier, out[i].Unrecorded, out[i].Desired = drift.AtDefault, false, nil
				out[i].Note = "the nested stack's own parameter defaults; the parent passes none"
			}
			continue
		}
		key, ok := strings.CutPrefix(f.Path, "Parameters.")
		if !ok || strings.ContainsAny(key, ".[") {
			continue
		}
		p, declared := tmpl.Parameters[key]
		if !declared {
			continue
		}
		live, _ := f.Actual.(string)
		switch {
		case f.Tier == drift.Undeclared && isDefault(key, f.Actual):
			out[i].Tier, out[i].Unrecorded, out[i].Desired = drift.AtDefault, false, nil
			out[i].Note = "the nested stack's own default for " + key + "; the parent passes none"
		case f.Tier == drift.Declared && p.NoEcho && live == noEchoMask:
			out[i].Tier = drift.ReadGap
			out[i].Note = "NoEcho parameter of the nested stack: CloudFormation masks it"
		}
	}
	return out
}

// noEchoMask is how CloudFormation shows a NoEcho parameter's value.
const noEchoMask = "****"

// FoldNested applies FoldNestedEcho for each nested stack of d whose stack
// resource has a Parameters finding in fs, reading the nested template
// with GetTemplate (by its ARN) — for a caller that checks the stack
// without loading its nested stacks (the service checks each as a target
// of its own). A nested template that cannot be read leaves its findings
// as they are.
func FoldNested(ctx context.Context, c *Clients, d *Desired, fs []drift.Finding) []drift.Finding {
	for _, n := range NestedStacks(d) {
		if n.StackID == "" || !hasParameterFinding(fs, n.LogicalID) {
			continue
		}
		body, _, err := loadTemplate(ctx, c, n.StackID)
		if err != nil {
			continue
		}
		fs = FoldNestedEcho(fs, n.LogicalID, &Desired{TemplateBody: body})
	}
	return fs
}

func hasParameterFinding(fs []drift.Finding, logicalID string) bool {
	for _, f := range fs {
		if f.LogicalID == logicalID && (f.Path == "Parameters" || strings.HasPrefix(f.Path, "Parameters.")) {
			return true
		}
	}
	return false
}
