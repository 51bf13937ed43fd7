package classify

import (
	"github.com/realdrift/realdrift/internal/normalize"
	"strings"
)

// identity says how the elements of an object array are keyed.
type identity struct {
	// fields are the identity fields; a composite key joins their values
	// with "|".
	fields []string
	// valueKey, when set, makes the array an attribute bag: elements are
	// {Key, Value} pairs compared by key, reported as A[key] with the
	// value alone.
	valueKey string
	// perElement: the set is inventory element by element even when the
	// template does not declare it (per-type identity sets).
	perElement bool
	// subset: declared elements are subsets of live ones (AWS fills
	// defaults in); uncatalogued live-only keys inside a matched element
	// are not reported.
	subset bool
	// match, when set, maps a key to the form it is aligned by (a
	// service prefix such as Cognito's "custom:").
	match func(string) string
}

func (id *identity) key(e any) string {
	m, _ := e.(map[string]any)
	if len(id.fields) == 1 {
		s, _ := m[id.fields[0]].(string)
		if s == "" {
			if n, ok := m[id.fields[0]].(float64); ok {
				return normalize.FormatNumber(n)
			}
		}
		return s
	}
	parts := make([]string, len(id.fields))
	for i, f := range id.fields {
		parts[i], _ = m[f].(string)
	}
	return strings.Join(parts, "|")
}

// genericIdentities are the identity fields that key an object array on
// any type (seed 002 §6: Tags' Key, CloudFront's Id, DynamoDB's
// AttributeName / IndexName). Read-only after initialization.
var genericIdentities = []*identity{
	{fields: []string{"Key"}}, {fields: []string{"Id"}},
	{fields: []string{"AttributeName"}}, {fields: []string{"IndexName"}},
}

// bagIdentity keys an ELB attribute bag.
var bagIdentity = &identity{fields: []string{"Key"}, valueKey: "Value"}

// identity returns how the array at rp is keyed, or nil when it is not an
// identity-keyed array. Both sides must carry the field on every element,
// with distinct values.
func (r *run) identity(rp string, arrays ...[]any) *identity {
	gp := schemaPath(rp)
	if id, ok := r.tf.identities[gp]; ok {
		if keyedBy(id, arrays...) {
			return id
		}
		return nil
	}
	if bagPaths[gp] && keyedBy(bagIdentity, arrays...) {
		return bagIdentity
	}
	for _, id := range genericIdentities {
		if keyedBy(id, arrays...) {
			return id
		}
	}
	for _, id := range nameValueIdentities {
		if nameValuePairs(id.fields[0], arrays...) && keyedBy(id, arrays...) {
			return id
		}
	}
	return nil
}

// nameValueIdentities key name/value subset arrays (parameters, settings,
// environment variables): elements that are a name and nothing but its
// value. A declared subset is compared by name; live-only pairs are
// inventory per name.
var nameValueIdentities = []*identity{
	{fields: []string{"Name"}},
	{fields: []string{"ParameterName"}},
}

// nameValuePairs reports whether every element holds the name field and
// otherwise only a value field.
func nameValuePairs(nameField string, arrays ...[]any) bool {
	for _, a := range arrays {
		for _, e := range a {
			m, ok := e.(map[string]any)
			if !ok {
				return false
			}
			for k := range m {
				switch k {
				case nameField, "Value", "Values", "ParameterValue":
				default:
					return false
				}
			}
		}
	}
	return true
}

// bagPaths are the ELB attribute bags (any ELBv2 type): a declared subset
// compared by key, live-only keys reported per key.
var bagPaths = map[string]bool{
	"LoadBalancerAttributes": true,
	"TargetGroupAttributes":  true,
	"ListenerAttributes":     true,
}

func keyedBy(id *identity, arrays ...[]any) bool {
	n := 0
	for _, a := range arrays {
		// Cheap rejection before any allocation: every element must be an
		// object carrying the first field.
		for _, e := range a {
			m, ok := e.(map[string]any)
			if !ok {
				return false
			}
			if _, ok := m[id.fields[0]]; !ok {
				return false
			}
		}
		seen := make(map[string]bool, len(a))
		for _, e := range a {
			m, ok := e.(map[string]any)
			if !ok {
				return false
			}
			for _, f := range id.fields {
				switch m[f].(type) {
				case string:
				case float64:
					if len(id.fields) > 1 {
						return false
					}
				default:
					return false
				}
			}
			k := id.key(e)
			if seen[k] {
				return false
			}
			seen[k] = true
			n++
		}
	}
	return n > 0
}
