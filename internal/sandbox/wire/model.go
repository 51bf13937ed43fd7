package wire

import (
	"encoding/json"
	"unicode"
	"unicode/utf8"

	"github.com/realdrift/realdrift/internal/sandbox/world"
)

// How live models (template-shaped values) are answered on the wire.

// ValueXML renders a template-shaped value as query-protocol XML under
// name: objects by their keys, lists as <member>s.
func ValueXML(name string, v any) *Node { return XMLStyle{Item: "member"}.Value(name, v) }

// XMLStyle is how a protocol names a template-shaped value's parts in
// XML: Key names an object's key (list: its value is a list; nil keeps
// the key), Item a list's items.
type XMLStyle struct {
	Key  func(key string, list bool) string
	Item string
}

// Value renders v under name: objects by their keys in sorted order,
// lists as items, strings, numbers and booleans as text; nil values and
// other kinds are left out.
func (x XMLStyle) Value(name string, v any) *Node {
	switch t := v.(type) {
	case map[string]any:
		n := &Node{Name: name}
		for _, k := range world.SortedKeys(t) {
			kn := k
			if x.Key != nil {
				_, list := t[k].([]any)
				kn = x.Key(k, list)
			}
			if kid := x.Value(kn, t[k]); kid != nil {
				n.Kids = append(n.Kids, kid)
			}
		}
		return n
	case []any:
		n := &Node{Name: name}
		for _, e := range t {
			if kid := x.Value(x.Item, e); kid != nil {
				n.Kids = append(n.Kids, kid)
			}
		}
		return n
	case string:
		return Tx(name, t)
	case json.Number:
		return Tx(name, t.String())
	case bool:
		return Bool(name, t)
	}
	return nil
}

// LowerFirst is s with its first letter in lower case (the camelCase
// APIs' spelling of a template key).
func LowerFirst(s string) string {
	r, n := utf8.DecodeRuneInString(s)
	return string(unicode.ToLower(r)) + s[n:]
}

// ListOf is a query list whose items are named item.
func ListOf(name, item string, kids []*Node) *Node {
	n := &Node{Name: name}
	for _, k := range kids {
		k.Name = item
		n.Kids = append(n.Kids, k)
	}
	return n
}

// CamelModel converts a template-shaped value to an API's camelCase one:
// every object key with its first letter in lower case, or renamed per
// the table.
func CamelModel(v any, renames map[string]string) any {
	switch t := v.(type) {
	case map[string]any:
		out := make(map[string]any, len(t))
		for k, e := range t {
			nk, ok := renames[k]
			if !ok {
				nk = LowerFirst(k)
			}
			out[nk] = CamelModel(e, renames)
		}
		return out
	case []any:
		out := make([]any, len(t))
		for i, e := range t {
			out[i] = CamelModel(e, renames)
		}
		return out
	}
	return v
}
