package scan

import (
	"fmt"

	"github.com/realdrift/realdrift/internal/cfn"
	"github.com/realdrift/realdrift/internal/cfn/intrinsic"
	"github.com/realdrift/realdrift/internal/live"
)

// Resolve re-resolves every declared value of d now that live attributes are
// known (pass 2: Fn::GetAtt targets read in pass 1 resolve), replacing
// d.Resources. It returns the logical ids to re-read (pass 1.5): resources
// whose read skipped waiting on an unresolved declared value that referenced
// a GetAtt target which has now been read.
func Resolve(d *Desired, lives map[string]live.Result) ([]string, error) {
	tmpl, err := cfn.Parse([]byte(d.TemplateBody))
	if err != nil {
		return nil, fmt.Errorf("template of stack %s: %w", d.Stack.Name, err)
	}
	attrs := map[string]map[string]any{}
	for id, res := range lives {
		if res.Status == live.Found {
			attrs[id] = res.Model
		}
	}
	rs, err := resolveResources(tmpl, d, attrs)
	if err != nil {
		return nil, fmt.Errorf("resolve stack %s: %w", d.Stack.Name, err)
	}
	d.Resources = rs
	var reread []string
	for _, r := range rs {
		res, ok := lives[r.LogicalID]
		if !ok || res.Status != live.Skipped || !res.Waiting {
			continue
		}
		for _, t := range r.GetAttTargets {
			if _, read := attrs[t]; read {
				reread = append(reread, r.LogicalID)
				break
			}
		}
	}
	return reread, nil
}

// resolveResources resolves the template's resources with d's context and
// the live attributes known so far (nil in pass 0): conditions pruned,
// intrinsics resolved fail-closed by package intrinsic.
func resolveResources(t *cfn.Template, d *Desired, attrs map[string]map[string]any) ([]Resource, error) {
	ctx := intrinsic.Context{
		AccountID:   d.Stack.Account,
		Region:      d.Stack.Region,
		StackName:   d.Stack.Name,
		StackID:     d.StackID,
		Parameters:  d.Parameters,
		PhysicalIDs: d.PhysicalIDs,
		LiveAttrs:   attrs,
		Exports:     d.Exports,
		StackOutputs: func(ref intrinsic.StackOutputRef) (string, bool) {
			v, ok := d.StackOutputs[stackOutputKey(ref, d.Stack.Region)]
			return v, ok
		},
	}
	resolved := intrinsic.Resolve(t, ctx)
	rs := make([]Resource, 0, len(resolved))
	for _, r := range resolved {
		if r.ConditionUnknown && d.PhysicalIDs[r.LogicalID] == "" {
			// Its condition could not be evaluated and CloudFormation lists
			// no such resource: it was not created.
			continue
		}
		res := Resource{
			LogicalID:     r.LogicalID,
			Type:          r.Type,
			PhysicalID:    d.PhysicalIDs[r.LogicalID],
			ConstructPath: r.ConstructPath,
			Declared:      r.Properties,
		}
		if src, ok := t.Resources[r.LogicalID]; ok {
			res.GetAttTargets = intrinsic.GetAttTargets(src.Properties)
		}
		if r.Unresolved != nil {
			res.Unresolved = "Properties: " + r.Unresolved.Reason
			if r.Unresolved.Secret {
				res.Unresolved = "Properties: secret-bearing value"
			}
		}
		rs = append(rs, res)
	}
	sortResources(rs)
	return rs, nil
}

// stackOutputKey keys a prefetched Fn::GetStackOutput answer.
func stackOutputKey(ref intrinsic.StackOutputRef, ownRegion string) string {
	region := ref.Region
	if region == "" {
		region = ownRegion
	}
	return region + "|" + ref.StackName + "|" + ref.OutputName
}
