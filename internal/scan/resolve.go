package scan

import (
	"fmt"
	"sort"
	"strings"

	"github.com/realdrift/realdrift/internal/cfn"
	"github.com/realdrift/realdrift/internal/drift"
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
// the live attributes known so far (nil in pass 0).
//
// This is a deliberately small, fail-closed stand-in until the intrinsic
// resolver lands: literals pass through; Ref (parameters, pseudo
// parameters, resources) and Fn::GetAtt (from live attributes) resolve;
// every other intrinsic is drift.Unknown; resource conditions are not
// evaluated, so conditional resources are kept.
func resolveResources(t *cfn.Template, d *Desired, attrs map[string]map[string]any) ([]Resource, error) {
	rs := make([]Resource, 0, len(t.Resources))
	for _, id := range t.ResourceIDs() {
		tr := t.Resources[id]
		rv := resolver{t: t, d: d, attrs: attrs}
		declared, _ := rv.value(tr.Properties).(map[string]any)
		if declared == nil {
			declared = map[string]any{}
		}
		rs = append(rs, Resource{
			LogicalID:     id,
			Type:          tr.Type,
			PhysicalID:    d.PhysicalIDs[id],
			ConstructPath: tr.ConstructPath,
			Declared:      declared,
			GetAttTargets: getAttTargets(tr.Properties),
		})
	}
	sortResources(rs)
	return rs, nil
}

type resolver struct {
	t     *cfn.Template
	d     *Desired
	attrs map[string]map[string]any
}

// noValue marks AWS::NoValue: the key or element is removed.
type noValue struct{}

func (rv resolver) value(v any) any {
	switch t := v.(type) {
	case map[string]any:
		if len(t) == 1 {
			for k, arg := range t {
				switch {
				case k == "Ref":
					return rv.ref(arg)
				case k == "Fn::GetAtt":
					return rv.getAtt(arg)
				case strings.HasPrefix(k, "Fn::") || k == "Condition":
					return drift.Unknown{Reason: k + " is not resolved"}
				}
			}
		}
		out := make(map[string]any, len(t))
		for k, e := range t {
			r := rv.value(e)
			if _, drop := r.(noValue); !drop {
				out[k] = r
			}
		}
		return out
	case []any:
		out := make([]any, 0, len(t))
		for _, e := range t {
			r := rv.value(e)
			if _, drop := r.(noValue); !drop {
				out = append(out, r)
			}
		}
		return out
	}
	return v
}

func (rv resolver) ref(arg any) any {
	name, ok := arg.(string)
	if !ok {
		return drift.Unknown{Reason: "Ref to a non-string"}
	}
	if p, ok := rv.t.Parameters[name]; ok {
		v, supplied := rv.d.Parameters[name]
		switch {
		case p.NoEcho:
			return drift.Unknown{Reason: "NoEcho parameter " + name, Secret: true}
		case !supplied && p.HasDefault:
			v = p.Default
		case !supplied:
			return drift.Unknown{Reason: "parameter " + name + " has no value"}
		}
		if p.IsList() {
			var out []any
			for _, s := range strings.Split(v, ",") {
				out = append(out, s)
			}
			return out
		}
		return v
	}
	switch name {
	case "AWS::AccountId":
		return rv.d.Stack.Account
	case "AWS::Region":
		return rv.d.Stack.Region
	case "AWS::StackName":
		return rv.d.Stack.Name
	case "AWS::StackId":
		return rv.d.StackID
	case "AWS::NoValue":
		return noValue{}
	case "AWS::Partition", "AWS::URLSuffix":
		return drift.Unknown{Reason: name + " is not resolved"}
	}
	if _, ok := rv.t.Resources[name]; ok {
		if id := rv.d.PhysicalIDs[name]; id != "" {
			return id
		}
		return drift.Unknown{Reason: "resource " + name + " has no physical id"}
	}
	return drift.Unknown{Reason: "Ref to unknown " + name}
}

func (rv resolver) getAtt(arg any) any {
	var id, attr string
	switch t := arg.(type) {
	case string:
		id, attr, _ = strings.Cut(t, ".")
	case []any:
		if len(t) == 2 {
			id, _ = t[0].(string)
			attr, _ = t[1].(string)
		}
	}
	model, ok := rv.attrs[id]
	if id == "" || attr == "" || !ok {
		return drift.Unknown{Reason: "Fn::GetAtt " + id + "." + attr + " has no live value"}
	}
	var cur any = model
	for _, seg := range strings.Split(attr, ".") {
		m, ok := cur.(map[string]any)
		if !ok {
			return drift.Unknown{Reason: "Fn::GetAtt " + id + "." + attr + " has no live value"}
		}
		if cur, ok = m[seg]; !ok {
			return drift.Unknown{Reason: "Fn::GetAtt " + id + "." + attr + " has no live value"}
		}
	}
	return cur
}

// getAttTargets lists the logical ids v references through Fn::GetAtt.
func getAttTargets(v any) []string {
	seen := map[string]bool{}
	var walk func(any)
	walk = func(v any) {
		switch t := v.(type) {
		case map[string]any:
			if arg, ok := t["Fn::GetAtt"]; ok {
				switch a := arg.(type) {
				case string:
					id, _, _ := strings.Cut(a, ".")
					seen[id] = true
				case []any:
					if len(a) > 0 {
						if id, ok := a[0].(string); ok {
							seen[id] = true
						}
					}
				}
			}
			if sub, ok := t["Fn::Sub"]; ok {
				for _, id := range subTargets(sub) {
					seen[id] = true
				}
			}
			for _, e := range t {
				walk(e)
			}
		case []any:
			for _, e := range t {
				walk(e)
			}
		}
	}
	walk(v)
	out := make([]string, 0, len(seen))
	for id := range seen {
		if id != "" {
			out = append(out, id)
		}
	}
	sort.Strings(out)
	return out
}

// subTargets lists the X of ${X.Attr} references in an Fn::Sub string.
func subTargets(sub any) []string {
	s, _ := sub.(string)
	if l, ok := sub.([]any); ok && len(l) > 0 {
		s, _ = l[0].(string)
	}
	var out []string
	for {
		i := strings.Index(s, "${")
		if i < 0 {
			return out
		}
		s = s[i+2:]
		j := strings.Index(s, "}")
		if j < 0 {
			return out
		}
		ref := s[:j]
		s = s[j+1:]
		if strings.HasPrefix(ref, "!") {
			continue
		}
		if id, _, ok := strings.Cut(ref, "."); ok && !strings.HasPrefix(id, "AWS::") {
			out = append(out, id)
		}
	}
}
