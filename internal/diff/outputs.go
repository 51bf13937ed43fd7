package diff

import (
	"encoding/json"
	"sort"
	"strings"

	"github.com/realdrift/realdrift/internal/drift"
)

// bagValue is one key of an outputs bag.
type bagValue struct {
	value  any
	export bool
	// description is the output's Description (template bags only).
	description any
}

// pending is one key of the new bag whose value is known only after the
// deploy.
type pending struct {
	key              string
	export           bool
	conditionUnknown bool
	// via names the created, replaced or updated resource it reads (""
	// when the value is unresolved for another reason).
	via string
	// output is the output's name (key is its export name for an export).
	output string
}

// outputs compares the new template's outputs with the deployed ones (seed
// 000, "The Outputs diff"): bag key by bag key, where an output with an
// Export.Name is a second key holding the same value. A condition-false
// output is not in the bag. A key whose new value cannot be resolved, or
// that reads a resource being replaced or created, is not compared: it is
// an UndecidedOutput, or, when the deployed stack lacks the key, an ADD
// whose value is known after the deploy (issue 31, part 2). A changed
// Description (read from the templates) is a MODIFY too.
func outputs(in Input, old, neu side, changes map[string]*ResourceChange) ([]OutputChange, []UndecidedOutput) {
	var oldBag map[string]bagValue
	var oldPending []pending
	tmplOld, tmplOldPending := templateBag(old, nil)
	if in.HasOutputs {
		oldBag = map[string]bagValue{}
		for _, o := range in.Outputs {
			oldBag[o.Key] = bagValue{value: o.Value, description: tmplOld[o.Key].description}
			if o.ExportName != "" {
				oldBag[o.ExportName] = bagValue{value: o.Value, export: true}
			}
		}
	} else {
		oldBag, oldPending = tmplOld, tmplOldPending
	}
	newBag, newPending := templateBag(neu, changes)
	skip := map[string]bool{}
	for _, p := range oldPending {
		skip[p.key] = true
	}
	var undecided []UndecidedOutput
	var out []OutputChange
	for _, p := range newPending {
		skip[p.key] = true
		if p.via == "" && !p.conditionUnknown && old.t != nil && old.t.Outputs[p.output] != nil &&
			equalRaw(old.t.Outputs[p.output].Raw, neu.t.Outputs[p.output].Raw) {
			continue // unknown on both sides and unchanged in the template: no change
		}
		if _, had := oldBag[p.key]; !had && !p.conditionUnknown && !skipOld(oldPending, p.key) {
			out = append(out, OutputChange{Name: p.key, Action: OutputAdd, New: knownAfterDeploy, Export: p.export, Via: p.via})
			continue
		}
		u := UndecidedOutput{Name: p.key, Export: p.export, Via: p.via}
		switch {
		case p.conditionUnknown:
			u.Reason = "its condition cannot be evaluated before the deploy"
		case p.via != "":
			u.Reason = "reads " + p.via + ", which the deploy " + strings.ToLower(changes[p.via].Action.String()) + "s: its new value is known after the deploy"
			if changes[p.via].Action == Update {
				u.Reason = "reads an attribute of " + p.via + " that the deploy's update can change: its new value is known after the deploy"
			}
		default:
			u.Reason = "its new value cannot be resolved before the deploy"
		}
		undecided = append(undecided, u)
	}
	keys := make([]string, 0, len(oldBag)+len(newBag))
	for k := range oldBag {
		keys = append(keys, k)
	}
	for k := range newBag {
		if _, ok := oldBag[k]; !ok {
			keys = append(keys, k)
		}
	}
	sort.Strings(keys)
	for _, k := range keys {
		if skip[k] {
			continue
		}
		o, oh := oldBag[k]
		n, nh := newBag[k]
		switch {
		case oh && nh:
			c := OutputChange{Name: k, Action: OutputModify, Old: o.value, New: n.value, Export: n.export}
			valueSame := outputText(unwrap(o.value)) == outputText(unwrap(n.value))
			if !n.export && !equalRaw(o.description, n.description) {
				c.OldDescription, c.NewDescription = o.description, n.description
			} else if valueSame {
				continue
			}
			if valueSame {
				c.Old, c.New = nil, nil
			}
			if isSecret(n.value) {
				c.Old, c.OldRedacted = nil, c.Old != nil
			}
			out = append(out, c)
		case nh:
			out = append(out, OutputChange{Name: k, Action: OutputAdd, New: n.value, Export: n.export})
		default:
			out = append(out, OutputChange{Name: k, Action: OutputRemove, Old: o.value, Export: o.export})
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out, undecided
}

func skipOld(ps []pending, key string) bool {
	for _, p := range ps {
		if p.key == key {
			return true
		}
	}
	return false
}

// templateBag resolves a template's outputs into a bag. With changes, a key
// whose value reads a resource being created or replaced is pending (its
// value is known only after the deploy).
func templateBag(s side, changes map[string]*ResourceChange) (map[string]bagValue, []pending) {
	bag := map[string]bagValue{}
	if s.t == nil {
		return bag, nil
	}
	var unresolved []pending
	isRes := func(id string) bool { return s.t.Resources[id] != nil }
	for _, o := range s.r.Outputs() {
		v := o.Value
		via := ""
		for _, ref := range references(s.t.Outputs[o.Name].Value, isRes) {
			c := changes[ref.Target]
			if c == nil || via != "" {
				continue
			}
			if c.Action == Create || c.Action == Replace || (c.Action == Update && attributeMoves(c.Type, ref.Attr, changedTops(c))) {
				via = ref.Target
			}
		}
		bad := via != "" || o.ConditionUnknown || drift.ContainsUnknown(v) || containsSecretUnknown(v)
		if bad {
			unresolved = append(unresolved, pending{key: o.Name, output: o.Name, via: via, conditionUnknown: o.ConditionUnknown})
		} else {
			bag[o.Name] = bagValue{value: v, description: s.t.Outputs[o.Name].Description}
		}
		if o.ExportName == nil {
			continue
		}
		name, ok := unwrap(o.ExportName).(string)
		if !ok {
			unresolved = append(unresolved, pending{key: "Export of " + o.Name, output: o.Name, export: true, conditionUnknown: o.ConditionUnknown})
			continue
		}
		if bad {
			unresolved = append(unresolved, pending{key: name, output: o.Name, export: true, via: via, conditionUnknown: o.ConditionUnknown})
			continue
		}
		bag[name] = bagValue{value: v, export: true}
	}
	return bag, unresolved
}

func containsSecretUnknown(v any) bool {
	if s, ok := v.(drift.Secret); ok {
		return drift.ContainsUnknown(s.Value)
	}
	return false
}

// outputText is an output value as DescribeStacks shows it: a list is
// comma-joined.
func outputText(v any) string {
	if s, ok := scalarText(v); ok {
		return s
	}
	if list, ok := v.([]any); ok {
		parts := make([]string, len(list))
		for i, e := range list {
			s, ok := scalarText(unwrap(e))
			if !ok {
				b, _ := json.Marshal(e)
				s = string(b)
			}
			parts[i] = s
		}
		return strings.Join(parts, ",")
	}
	b, _ := json.Marshal(v)
	return string(b)
}
