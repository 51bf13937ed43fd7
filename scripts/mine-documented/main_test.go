package main

import (
	"regexp"
	"testing"
)

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

func TestDocumentedSentencesAndEnums(t *testing.T) {
	tests := []struct {
		name string
		n    node
		want any
		ok   bool
	}{
		{"a quoted value is the default", node{"type": "string", "description": "``gp3`` is the default."}, "gp3", true},
		{"a quoted value marked (default)", node{"type": "string", "description": "One of ``a`` (default) or ``b``."}, "a", true},
		{"unspecified, set to a quoted value", node{"type": "string", "description": "If you don't specify a mode, the mode is set to ``strict``."}, "strict", true},
		{"an enum of one value", node{"type": "string", "enum": []any{"ONLY"}}, "ONLY", true},
		{"an enum of two values states nothing", node{"type": "string", "enum": []any{"A", "B"}}, nil, false},
		{"a number in another unit is no value", node{"type": "integer", "description": "The default is 1 day."}, nil, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, _, ok := documentedFrom(tt.n, nil)
			if ok != tt.ok || (ok && got != tt.want) {
				t.Errorf("documentedFrom = %v, %v; want %v, %v", got, ok, tt.want, tt.ok)
			}
		})
	}
}

func TestKeyedDefaults(t *testing.T) {
	m := &apiModel{Shapes: map[string]*apiShapeDef{}}
	key := `<ul> <li> <p> <code>a.timeout_seconds</code> - The range is 0-3600. The default value is 300 seconds.</p> </li>` +
		` <li> <p> <code>b.duration_seconds</code> - The default value is 1 day (86400 seconds).</p> </li>` +
		` <li> <p> <code>c.enabled</code> - The value is <code>true</code> or <code>false</code>. The default is <code>false</code>.</p> </li> </ul>`
	m.Shapes["Attr"] = &apiShapeDef{Type: "structure", Members: map[string]struct {
		Shape         string `json:"shape"`
		Documentation string `json:"documentation"`
	}{"Key": {Shape: "K", Documentation: key}, "Value": {Shape: "V"}}}
	m.Shapes["K"] = &apiShapeDef{Type: "string"}
	rows := keyedDefaults("AWS::X::Y", "Attrs", apiShapes{{m: m, def: m.Shapes["Attr"], op: "ModifyYAttributes", path: "ModifyYAttributes.Attributes.member"}})
	got := map[string]string{}
	for _, r := range rows {
		got[r.Path] = r.Value
		if r.Source == "" {
			t.Errorf("%s: no source", r.Path)
		}
	}
	want := map[string]string{"Attrs[a.timeout_seconds]": `"300"`, "Attrs[c.enabled]": `"false"`}
	if len(got) != len(want) || got["Attrs[a.timeout_seconds]"] != want["Attrs[a.timeout_seconds]"] || got["Attrs[c.enabled]"] != want["Attrs[c.enabled]"] {
		t.Errorf("keyedDefaults = %v, want %v", got, want)
	}
}

func TestNamingRule(t *testing.T) {
	n := node{"type": "string", "description": "If you don't specify a value, the default DB parameter group for the engine is used."}
	p, src, ok := namingRule(n, nil, "DBParameterGroupName")
	if !ok || src == "" {
		t.Fatalf("namingRule = %q, %q, %v", p, src, ok)
	}
	re := regexp.MustCompile(p)
	for s, want := range map[string]bool{"default.mysql8.0": true, "default.postgres16": true, "my-params": false} {
		if re.MatchString(s) != want {
			t.Errorf("%s: match %v, want %v", s, !want, want)
		}
	}
	if _, _, ok := namingRule(n, nil, "Description"); ok {
		t.Error("a property of another name took the rule")
	}
}
