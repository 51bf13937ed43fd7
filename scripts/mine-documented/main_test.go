package main

import "testing"

func TestDocumented(t *testing.T) {
	tests := []struct {
		name string
		n    node
		api  string
		want any
		ok   bool
	}{
		{"an enum member stated", node{"type": "string", "enum": []any{"SIMPLE", "LDAP"}, "description": "The default is SIMPLE."}, "", "SIMPLE", true},
		{"an unquoted non-enum string is no value", node{"type": "string", "description": "Default: No minimum or maximum limits"}, "", nil, false},
		{"a quoted string", node{"type": "string", "description": "Default: ``excluded``"}, "", "excluded", true},
		{"a number with its unit", node{"type": "integer", "description": "Defaults to 300 seconds if not specified"}, "", 300.0, true},
		{"two sources agree", node{"type": "integer", "default": 60.0}, "The default is <code>60</code>.", 60.0, true},
		{"two sources disagree", node{"type": "integer", "default": 60.0, "description": "The default is 30."}, "", nil, false},
		{"an object is never folded whole", node{"type": "object", "description": "The default is ``x``"}, "", nil, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, ok := documented(tt.n, plain(tt.api))
			if ok != tt.ok || (ok && got != tt.want) {
				t.Errorf("documented = %v, %v; want %v, %v", got, ok, tt.want, tt.ok)
			}
		})
	}
}
