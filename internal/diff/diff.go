package diff

import (
	"sort"

	"github.com/realdrift/realdrift/internal/cfn"
	"github.com/realdrift/realdrift/internal/cfn/intrinsic"
	"github.com/realdrift/realdrift/internal/drift"
	"github.com/realdrift/realdrift/internal/schema"
)

// Input is one stack's two templates and what is known of the deployed
// stack.
type Input struct {
	// Old is the deployed template; nil means the stack does not exist yet
	// (every resource is a CREATE).
	Old *cfn.Template
	// New is the template the next deploy sends; nil means the stack goes
	// away (every resource is a DELETE).
	New *cfn.Template
	// Context is the deployed stack as the resolver sees it: parameters,
	// physical ids, live attributes, exports. Both templates resolve
	// against it.
	Context intrinsic.Context
	// NewParameters, when non-nil, are the parameter values the deploy
	// sends (a nested stack's parent passes them); the new template
	// resolves with them instead of Context.Parameters.
	NewParameters map[string]string
	// Outputs are the deployed stack's outputs (DescribeStacks). When
	// HasOutputs is false the old template's outputs, resolved, stand in.
	Outputs    []DeployedOutput
	HasOutputs bool
	// Facts returns a type's schema facts (createOnly paths); nil, or a
	// type it does not know, means no replacement verdict from the schema.
	Facts func(typeName string) (*schema.Facts, bool)
	// Strict keeps the types hiddenTypes leaves out (the CDK's
	// AWS::CDK::Metadata resource).
	Strict bool
}

// DeployedOutput is one output of the deployed stack.
type DeployedOutput struct {
	Key, Value, ExportName string
}

// ResourceChange is what the deploy does to one resource.
type ResourceChange struct {
	LogicalID  string `json:"logicalId"`
	Type       string `json:"resourceType"`
	PhysicalID string `json:"physicalId,omitempty"`
	Action     Action `json:"action"`
	// Replacement is the resource's verdict: Always for a REPLACE,
	// Conditional for an UPDATE that may replace.
	Replacement Replacement `json:"replacement"`
	// Stateful marks a replaced or deleted type that holds data; Retained
	// says its UpdateReplacePolicy / DeletionPolicy keeps the old one.
	Stateful bool `json:"stateful,omitempty"`
	Retained bool `json:"retained,omitempty"`
	// Properties are the changed (sub-)properties of an UPDATE or REPLACE.
	Properties []PropertyChange `json:"properties,omitempty"`
	// Undecided lists top-level properties whose template value changed but
	// whose new value cannot be resolved yet: not counted as changes.
	Undecided []string `json:"undecided,omitempty"`
	// ConditionUnknown: the resource's Condition could not be evaluated.
	ConditionUnknown bool `json:"conditionUnknown,omitempty"`
	// AttributesOnly: every change is to a resource attribute
	// (DependsOn, Metadata, DeletionPolicy, UpdateReplacePolicy), which
	// CloudFormation records without updating the resource.
	AttributesOnly bool `json:"attributesOnly,omitempty"`
}

// Orphaned reports a DELETE that CloudFormation carries out by leaving the
// resource in place (DeletionPolicy Retain): it is removed from the stack,
// not destroyed.
func (c *ResourceChange) Orphaned() bool { return c.Action == Delete && c.Retained }

// OutputChange is one changed output key: an output's name, or its export
// name (Export set), which is the string Fn::ImportValue resolves.
type OutputChange struct {
	Name   string       `json:"name"`
	Action OutputAction `json:"changeType"`
	Old    any          `json:"oldValue,omitempty"`
	New    any          `json:"newValue,omitempty"`
	// OldRedacted: the old value is withheld because the new one is
	// secret-bearing (the old may be the plaintext).
	OldRedacted bool `json:"oldValueRedacted,omitempty"`
	Export      bool `json:"export"`
	// Via names the resource this deploy creates that an added output
	// reads (its value is known after the deploy).
	Via string `json:"via,omitempty"`
	// OldDescription and NewDescription are set when the output's
	// Description changes (Old and New are then nil if the value does not).
	OldDescription any `json:"oldDescription,omitempty"`
	NewDescription any `json:"newDescription,omitempty"`
	// Importers are the stacks importing this export (ListImports, filled
	// by the caller): a changed or removed export they import fails the
	// deploy.
	Importers []string `json:"importers,omitempty"`
	// ImportersUnknown says why the importers could not be listed.
	ImportersUnknown string `json:"importersUnknown,omitempty"`
}

// UndecidedOutput is an output key whose new value is known only after the
// deploy: it is not compared, and says why.
type UndecidedOutput struct {
	Name   string `json:"name"`
	Export bool   `json:"export,omitempty"`
	// Via names the created or replaced resource it reads.
	Via    string `json:"via,omitempty"`
	Reason string `json:"reason"`
	// Importers and ImportersUnknown: as OutputChange's, for an export
	// whose value may change.
	Importers        []string `json:"importers,omitempty"`
	ImportersUnknown string   `json:"importersUnknown,omitempty"`
}

// Result is one stack's diff.
type Result struct {
	// Changes are the resources the deploy touches, in logical-id order.
	Changes []ResourceChange `json:"changes"`
	// Outputs are the changed output keys, by name.
	Outputs []OutputChange `json:"outputChanges"`
	// UndecidedOutputs are output keys whose new value cannot be known
	// before the deploy; they are not compared.
	UndecidedOutputs []UndecidedOutput `json:"undecidedOutputs,omitempty"`
	// Undecided are what cannot be decided before the deploy and is not
	// counted as a change: a resource present in one template whose
	// condition cannot be evaluated (its logical id), and the properties of
	// an unchanged resource whose template text changed but whose new value
	// cannot be resolved (LogicalID.Property).
	Undecided []string `json:"undecided,omitempty"`
}

// HasChanges reports whether the deploy changes anything: a resource or an
// output.
func (r *Result) HasChanges() bool { return len(r.Changes) > 0 || len(r.Outputs) > 0 }

// Tally counts a result's resource changes the way the text diff states
// them.
type Tally struct {
	Create, Update, Delete int
	// Orphan counts retained deletes (not in Delete); AttributesOnly the
	// updates that change resource attributes only (not in Update).
	Orphan, AttributesOnly int
}

// Counts tallies the changes: creates, updates (replacements included),
// deletes (a retained resource is orphaned, not deleted) and
// attribute-only changes.
func (r *Result) Counts() Tally {
	var t Tally
	for _, c := range r.Changes {
		switch {
		case c.Action == Create:
			t.Create++
		case c.AttributesOnly:
			t.AttributesOnly++
		case c.Action == Update || c.Action == Replace:
			t.Update++
		case c.Orphaned():
			t.Orphan++
		case c.Action == Delete:
			t.Delete++
		}
	}
	return t
}

// side is one template resolved.
type side struct {
	t   *cfn.Template
	r   *intrinsic.Resolver
	res map[string]intrinsic.Resource
}

func resolveSide(t *cfn.Template, c intrinsic.Context, deployed bool) side {
	s := side{t: t, res: map[string]intrinsic.Resource{}}
	if t == nil {
		return s
	}
	s.r = intrinsic.New(t, c)
	for _, id := range t.ResourceIDs() {
		res, ok := s.r.Resource(id)
		if !ok {
			continue
		}
		if deployed && res.ConditionUnknown && c.PhysicalIDs[id] == "" {
			continue // its condition is unknown and the stack lists no such resource
		}
		s.res[id] = res
	}
	return s
}

// Compute diffs one stack. It does no I/O.
func Compute(in Input) *Result {
	newCtx := in.Context
	if in.NewParameters != nil {
		newCtx.Parameters = in.NewParameters
	}
	old := resolveSide(in.Old, in.Context, true)
	neu := resolveSide(in.New, newCtx, false)
	facts := func(typ string) *schema.Facts {
		if in.Facts == nil {
			return nil
		}
		f, ok := in.Facts(typ)
		if !ok {
			return nil
		}
		return f
	}
	res := &Result{}
	changes := map[string]*ResourceChange{}
	for _, id := range unionIDs(old.res, neu.res) {
		o, inOld := old.res[id]
		n, inNew := neu.res[id]
		switch {
		case inNew && !inOld:
			if n.ConditionUnknown && in.Old != nil && in.Old.Resources[id] != nil {
				// Pruned from the deployed side only because its unknown
				// condition left no resource there: the same unknown.
				res.Undecided = append(res.Undecided, id)
				continue
			}
			changes[id] = &ResourceChange{LogicalID: id, Type: n.Type, Action: Create, ConditionUnknown: n.ConditionUnknown}
		case inOld && !inNew:
			rc := &ResourceChange{LogicalID: id, Type: o.Type, PhysicalID: in.Context.PhysicalIDs[id], Action: Delete, Stateful: statefulTypes[o.Type]}
			rc.Retained = in.Old.Resources[id].DeletionPolicy == "Retain" || in.Old.Resources[id].DeletionPolicy == "RetainExceptOnCreate"
			changes[id] = rc
		default:
			changes[id] = compareResource(in, old, neu, o, n, facts(n.Type))
		}
	}
	markCreatedReferences(old, neu, changes, facts)
	propagate(in, old, neu, changes, facts)
	for _, id := range sortedIDs(changes) {
		c := changes[id]
		if c.Action == NoChange {
			for _, k := range c.Undecided {
				res.Undecided = append(res.Undecided, id+"."+k)
			}
			continue
		}
		if hiddenTypes[c.Type] && !in.Strict {
			continue
		}
		if c.Action == Replace || c.Replacement == Conditional {
			c.Stateful = statefulTypes[c.Type]
			if src := in.New.Resources[id]; src != nil {
				c.Retained = src.UpdateReplacePolicy == "Retain"
			}
		}
		sort.SliceStable(c.Properties, func(i, j int) bool { return c.Properties[i].Path < c.Properties[j].Path })
		c.AttributesOnly = c.Action == Update && attributesOnly(c.Properties)
		res.Changes = append(res.Changes, *c)
	}
	res.Outputs, res.UndecidedOutputs = outputs(in, old, neu, changes)
	return res
}

// compareResource diffs one resource both templates have.
func compareResource(in Input, old, neu side, o, n intrinsic.Resource, f *schema.Facts) *ResourceChange {
	id := n.LogicalID
	rc := &ResourceChange{LogicalID: id, Type: n.Type, PhysicalID: in.Context.PhysicalIDs[id], ConditionUnknown: n.ConditionUnknown}
	if o.Type != n.Type {
		rc.Properties = append(rc.Properties, PropertyChange{Path: "Type", Old: o.Type, New: n.Type, Replacement: Always})
		rc.Action = Replace
		rc.Replacement = Always
		return rc
	}
	oldSrc, newSrc := old.t.Resources[id], neu.t.Resources[id]
	if o.Unresolved != nil || n.Unresolved != nil {
		if !equalRaw(oldSrc.Properties, newSrc.Properties) {
			rc.Undecided = append(rc.Undecided, "Properties")
		}
	} else {
		for _, k := range unionKeys(o.Properties, n.Properties) {
			ov, oh := o.Properties[k]
			nv, nh := n.Properties[k]
			var c comparison
			switch {
			case oh && nh:
				c.compare(k, ov, nv, 0)
			case nh:
				c.changes = []PropertyChange{{Path: k, New: nv, OldAbsent: true}}
			default:
				c.changes = []PropertyChange{{Path: k, Old: ov, NewAbsent: true}}
			}
			for _, p := range c.unknown {
				ro, _ := rawAt(oldSrc.Properties, p)
				rn, _ := rawAt(newSrc.Properties, p)
				if !equalRaw(ro, rn) {
					rc.Undecided = append(rc.Undecided, p)
				}
			}
			rc.Properties = append(rc.Properties, c.changes...)
		}
	}
	for _, p := range []struct{ name, old, new string }{
		{"DeletionPolicy", oldSrc.DeletionPolicy, newSrc.DeletionPolicy},
		{"UpdateReplacePolicy", oldSrc.UpdateReplacePolicy, newSrc.UpdateReplacePolicy},
	} {
		if p.old != p.new {
			rc.Properties = append(rc.Properties, PropertyChange{Path: p.name, Old: orAbsent(p.old), New: orAbsent(p.new), OldAbsent: p.old == "", NewAbsent: p.new == ""})
		}
	}
	if o, n := sortedCopy(oldSrc.DependsOn), sortedCopy(newSrc.DependsOn); !equalRaw(o, n) {
		rc.Properties = append(rc.Properties, PropertyChange{Path: "DependsOn", Old: o, New: n, OldAbsent: o == nil, NewAbsent: n == nil, Attribute: true})
	}
	if !equalRaw(oldSrc.Metadata, newSrc.Metadata) {
		var c comparison
		c.compare("Metadata", nilIfEmpty(oldSrc.Metadata), nilIfEmpty(newSrc.Metadata), 0)
		for _, pc := range c.changes {
			pc.Attribute = true
			rc.Properties = append(rc.Properties, pc)
		}
	}
	for i := range rc.Properties {
		pc := &rc.Properties[i]
		if pc.Path == "DeletionPolicy" || pc.Path == "UpdateReplacePolicy" {
			pc.Attribute = true
		}
		if pc.Attribute {
			continue
		}
		pc.Replacement = replacementOf(n.Type, f, pc.Path)
	}
	settle(rc)
	return rc
}

// settle sets a resource's action and verdict from its property changes.
func settle(rc *ResourceChange) {
	if rc.Action == Create || rc.Action == Delete {
		return
	}
	rc.Replacement = Never
	for _, p := range rc.Properties {
		if p.Replacement > rc.Replacement {
			rc.Replacement = p.Replacement
		}
	}
	switch {
	case len(rc.Properties) == 0:
		rc.Action = NoChange
	case rc.Replacement == Always:
		rc.Action = Replace
	default:
		rc.Action = Update
	}
}

// attributesOnly reports a change list of resource attributes only.
func attributesOnly(ps []PropertyChange) bool {
	for _, p := range ps {
		if !p.Attribute {
			return false
		}
	}
	return len(ps) > 0
}

func sortedCopy(s []string) []any {
	if len(s) == 0 {
		return nil
	}
	c := append([]string(nil), s...)
	sort.Strings(c)
	out := make([]any, len(c))
	for i, v := range c {
		out[i] = v
	}
	return out
}

func nilIfEmpty(m map[string]any) any {
	if len(m) == 0 {
		return map[string]any{}
	}
	return m
}

func orAbsent(s string) any {
	if s == "" {
		return nil
	}
	return s
}

// markCreatedReferences turns an undecided property that references a
// resource this deploy creates into a change: the new resource's id or
// attribute is not the old value.
func markCreatedReferences(old, neu side, changes map[string]*ResourceChange, facts func(string) *schema.Facts) {
	isRes := func(id string) bool { return neu.t != nil && neu.t.Resources[id] != nil }
	for _, id := range sortedIDs(changes) {
		rc := changes[id]
		if len(rc.Undecided) == 0 || rc.Action == Create || rc.Action == Delete {
			continue
		}
		var keep []string
		for _, k := range rc.Undecided {
			via := ""
			if k != "Properties" {
				raw, _ := rawAt(neu.t.Resources[id].Properties, k)
				for _, ref := range references(raw, isRes) {
					if t := changes[ref.Target]; t != nil && t.Action == Create {
						via = ref.Target
						break
					}
				}
			}
			if via == "" {
				keep = append(keep, k)
				continue
			}
			pc := PropertyChange{Path: k, Old: valueAt(old.res[id].Properties, k), New: knownAfterDeploy, Via: via, Replacement: replacementOf(rc.Type, facts(rc.Type), k)}
			if _, had := rawAt(old.t.Resources[id].Properties, k); !had {
				pc.Old, pc.OldAbsent = nil, true
			}
			rc.Properties = append(rc.Properties, pc)
		}
		rc.Undecided = keep
		settle(rc)
	}
}

func unionIDs(a, b map[string]intrinsic.Resource) []string {
	seen := map[string]bool{}
	var out []string
	for id := range a {
		seen[id] = true
		out = append(out, id)
	}
	for id := range b {
		if !seen[id] {
			out = append(out, id)
		}
	}
	sort.Strings(out)
	return out
}

func sortedIDs(m map[string]*ResourceChange) []string {
	out := make([]string, 0, len(m))
	for id := range m {
		out = append(out, id)
	}
	sort.Strings(out)
	return out
}

// isSecret reports a secret-bearing value at the top.
func isSecret(v any) bool {
	switch t := v.(type) {
	case drift.Secret:
		return true
	case drift.Unknown:
		return t.Secret
	}
	return false
}
