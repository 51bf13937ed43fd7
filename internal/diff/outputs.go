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
}

// outputs compares the new template's outputs with the deployed ones (seed
// 000, "The Outputs diff"): bag key by bag key, where an output with an
// Export.Name is a second key holding the same value. A condition-false
// output is not in the bag; a key whose new value cannot be resolved, or
// that reads a resource being replaced or created, is not compared.
func outputs(in Input, old, neu side, changes map[string]*ResourceChange) ([]OutputChange, []string) {
	var oldBag map[string]bagValue
	var oldUnresolved []string
	if in.HasOutputs {
		oldBag = map[string]bagValue{}
		for _, o := range in.Outputs {
			oldBag[o.Key] = bagValue{value: o.Value}
			if o.ExportName != "" {
				oldBag[o.ExportName] = bagValue{value: o.Value, export: true}
			}
		}
	} else {
		oldBag, oldUnresolved = templateBag(old, nil)
	}
	newBag, unresolved := templateBag(neu, changes)
	skip := map[string]bool{}
	for _, k := range append(oldUnresolved, unresolved...) {
		skip[k] = true
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
	var out []OutputChange
	for _, k := range keys {
		if skip[k] {
			continue
		}
		o, oh := oldBag[k]
		n, nh := newBag[k]
		switch {
		case oh && nh:
			if outputText(unwrap(o.value)) == outputText(unwrap(n.value)) {
				continue
			}
			c := OutputChange{Name: k, Action: OutputModify, Old: o.value, New: n.value, Export: n.export}
			if isSecret(n.value) {
				c.Old, c.OldRedacted = nil, true
			}
			out = append(out, c)
		case nh:
			out = append(out, OutputChange{Name: k, Action: OutputAdd, New: n.value, Export: n.export})
		default:
			out = append(out, OutputChange{Name: k, Action: OutputRemove, Old: o.value, Export: o.export})
		}
	}
	return out, unresolved
}

// templateBag resolves a template's outputs into a bag. With changes, a key
// whose value reads a resource being created or replaced is unresolved (its
// value is known only after the deploy).
func templateBag(s side, changes map[string]*ResourceChange) (map[string]bagValue, []string) {
	bag := map[string]bagValue{}
	if s.t == nil {
		return bag, nil
	}
	var unresolved []string
	isRes := func(id string) bool { return s.t.Resources[id] != nil }
	for _, o := range s.r.Outputs() {
		v := o.Value
		moving := false
		for _, ref := range references(s.t.Outputs[o.Name].Value, isRes) {
			if c := changes[ref.Target]; c != nil && (c.Action == Create || c.Action == Replace) {
				moving = true
			}
		}
		bad := moving || o.ConditionUnknown || drift.ContainsUnknown(v) || containsSecretUnknown(v)
		if bad {
			unresolved = append(unresolved, o.Name)
		} else {
			bag[o.Name] = bagValue{value: v}
		}
		if o.ExportName == nil {
			continue
		}
		name, ok := unwrap(o.ExportName).(string)
		if !ok {
			unresolved = append(unresolved, "Export of "+o.Name)
			continue
		}
		if bad {
			unresolved = append(unresolved, name)
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
