package world

import "testing"

// TestConditionSets: the set qualifiers over a multivalued key, as AWS
// evaluates them, including the empty set (ForAllValues holds vacuously,
// ForAnyValue fails) and a plain operator on several values (one match).
func TestConditionSets(t *testing.T) {
	like := func(set string) condition {
		return condition{op: "StringLike", set: set, key: "dynamodb:leadingkeys", values: []string{"RUN#*", "PACE#*"}}
	}
	notEq := condition{op: "StringNotEquals", key: "dynamodb:leadingkeys", values: []string{"RUN#x"}}
	for _, tt := range []struct {
		name string
		c    condition
		keys []string // nil: the request lacks the key
		want bool
	}{
		{"all: every value", like("ForAllValues"), []string{"RUN#a", "PACE#b"}, true},
		{"all: one outside", like("ForAllValues"), []string{"RUN#a", "STACK#b"}, false},
		{"all: no key", like("ForAllValues"), nil, true},
		{"any: one inside", like("ForAnyValue"), []string{"STACK#a", "RUN#b"}, true},
		{"any: none inside", like("ForAnyValue"), []string{"STACK#a"}, false},
		{"any: no key", like("ForAnyValue"), nil, false},
		{"plain: one matches", like(""), []string{"STACK#a", "RUN#b"}, true},
		{"plain: no key", like(""), nil, false},
		{"plain negated: no key", notEq, nil, true},
		{"plain negated: other value", notEq, []string{"RUN#y"}, true},
		{"plain negated: the value", notEq, []string{"RUN#x"}, false},
	} {
		keys := map[string][]string{}
		if tt.keys != nil {
			keys["dynamodb:leadingkeys"] = tt.keys
		}
		if got := tt.c.holds(keys); got != tt.want {
			t.Errorf("%s: holds = %v, want %v", tt.name, got, tt.want)
		}
	}
}
