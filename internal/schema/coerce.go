package schema

import (
	"strconv"
)

// coerceDefault returns a schema default as a value of the node's declared
// JSON type. Registry schemas sometimes carry a default of the wrong JSON
// type (S3 EventBridgeEnabled: "true" on a boolean): a string that parses as
// the declared type is converted; anything else that does not fit is
// dropped rather than guessed. A null default is kept as written (the
// schema says the value is absent by default), as is the default of a node
// with no declared type.
func coerceDefault(v any, node map[string]any) (any, bool) {
	if v == nil {
		return nil, true
	}
	ts := types(node)
	if len(ts) == 0 || fits(v, ts) {
		return v, true
	}
	s, ok := v.(string)
	if !ok {
		return nil, false
	}
	if ts["boolean"] {
		if b, err := strconv.ParseBool(s); err == nil && (s == "true" || s == "false") {
			return b, true
		}
	}
	if ts["integer"] {
		if n, err := strconv.ParseInt(s, 10, 64); err == nil {
			return float64(n), true
		}
	}
	if ts["number"] {
		if n, err := strconv.ParseFloat(s, 64); err == nil {
			return n, true
		}
	}
	return nil, false
}

// fits reports whether a decoded JSON value is one of the types.
func fits(v any, ts map[string]bool) bool {
	switch x := v.(type) {
	case string:
		return ts["string"]
	case bool:
		return ts["boolean"]
	case float64:
		return ts["number"] || (ts["integer"] && x == float64(int64(x)))
	case map[string]any:
		return ts["object"]
	case []any:
		return ts["array"]
	}
	return false
}
