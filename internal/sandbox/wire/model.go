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
func ValueXML(name string, v any) *Node {
	switch t := v.(type) {
	case map[string]any:
		n := &Node{Name: name}
		for _, k := range world.SortedKeys(t) {
			if kid := ValueXML(k, t[k]); kid != nil {
				n.Kids = append(n.Kids, kid)
			}
		}
		return n
	case []any:
		n := &Node{Name: name}
		for _, e := range t {
			if kid := ValueXML("member", e); kid != nil {
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
				r, n := utf8.DecodeRuneInString(k)
				nk = string(unicode.ToLower(r)) + k[n:]
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
