package ignore

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/realdrift/realdrift/internal/drift"
	"github.com/realdrift/realdrift/internal/store"
)

func TestParseSpecExample(t *testing.T) {
	src, err := os.ReadFile("testdata/spec.yaml")
	if err != nil {
		t.Fatal(err)
	}
	rules, err := Parse("testdata/spec.yaml", src)
	if err != nil {
		t.Fatal(err)
	}
	want := []Rule{
		{Path: "*.DesiredCount", Source: "testdata/spec.yaml:4"},
		{Path: "Fn*.ReservedConcurrentExecutions", Stack: "Prod*", Account: "111111111111", Region: "ap-northeast-1", Source: "testdata/spec.yaml:5"},
		{Path: "*.DesiredCount", Region: "us-*", Source: "testdata/spec.yaml:9"},
	}
	if diff := cmp.Diff(rules, want); diff != "" {
		t.Errorf("(-got +want):\n%s", diff)
	}
}

func TestParseEmpty(t *testing.T) {
	for _, src := range []string{"", "# only a comment\n", "ignore:\n", "ignore: []\n", "---\n"} {
		rules, err := Parse("f.yaml", []byte(src))
		if err != nil || len(rules) != 0 {
			t.Errorf("Parse(%q) = %v, %v", src, rules, err)
		}
	}
}

func TestParseMalformed(t *testing.T) {
	tests := []struct{ name, src, want string }{
		{"bad YAML", "ignore:\n  - path: a\n    region: x: y\n", "f.yaml:3: invalid YAML"},
		{"unclosed flow list", "ignore:\n  - path: [a\n", "f.yaml:1: invalid YAML"},
		{"tab indentation", "ignore:\n\t- path: a\n", "f.yaml:2: invalid YAML"},
		{"unknown top-level key (typo)", "ignroe:\n  - path: a\n", `f.yaml:1: unknown top-level key "ignroe"`},
		{"second key", "ignore: []\nextra: 1\n", `f.yaml:2: unknown top-level key "extra"`},
		{"repeated ignore", "ignore: []\nignore: []\n", "ignore"},
		{"top level is a list", "- path: a\n", "f.yaml:1: the top level must be a mapping"},
		{"ignore is a string", "ignore: '*.X'\n", "f.yaml:1: ignore must be a list of rules, not a string"},
		{"ignore is a mapping", "ignore:\n  path: a\n", "f.yaml:2: ignore must be a list of rules, not a mapping"},
		{"bare string rule", "ignore:\n  - '*.X'\n", "f.yaml:2: a rule must be a mapping"},
		{"unknown rule key", "ignore:\n  - path: a\n    stak: S\n", `f.yaml:3: unknown rule key "stak"`},
		{"missing path", "ignore:\n  - stack: S\n", "f.yaml:2: rule has no path"},
		{"empty path", "ignore:\n  - path: ''\n", "rule has no path"},
		{"path is a list", "ignore:\n  - path: [a]\n", "f.yaml:2: path must be a string, not a list"},
		{"unquoted account", "ignore:\n  - path: a\n    account: 111111111111\n", "f.yaml:3: account must be a string, not a number (quote an account id: '111111111111')"},
		{"boolean region", "ignore:\n  - path: a\n    region: true\n", "region must be a string, not a boolean"},
		{"repeated rule key", "ignore:\n  - path: a\n    path: b\n", "f.yaml:3: rule key path appears twice"},
		{"two documents", "ignore: []\n---\nignore: []\n", "more than one YAML document"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Parse("f.yaml", []byte(tt.src))
			if err == nil {
				t.Fatal("no error")
			}
			if !errors.Is(err, ErrMalformed) {
				t.Errorf("%v is not ErrMalformed", err)
			}
			if !strings.Contains(err.Error(), tt.want) {
				t.Errorf("error %q does not contain %q", err, tt.want)
			}
		})
	}
}

func TestGlob(t *testing.T) {
	tests := []struct {
		pattern, s string
		want       bool
	}{
		{"*", "", true},
		{"*.DesiredCount", "Svc.DesiredCount", true},
		{"*.DesiredCount", "MyStack/Svc.DesiredCount", true},
		{"*.DesiredCount", "Svc.DesiredCountX", false},
		{"Fn?", "Fn1", true},
		{"Fn?", "Fn12", false},
		{"a*b*c", "axxbyyc", true},
		{"a*b*c", "axxbyy", false},
		{"Tags[*].Value", "Tags[env].Value", true},
		{"us-*", "us-east-1", true},
		{"us-*", "eu-west-1", false},
		{"ü?", "üx", true},
	}
	for _, tt := range tests {
		if got := Glob(tt.pattern, tt.s); got != tt.want {
			t.Errorf("Glob(%q, %q) = %v", tt.pattern, tt.s, got)
		}
	}
}

func TestApply(t *testing.T) {
	stack := drift.StackRef{Account: "111111111111", Region: "us-east-1", Name: "ProdApi"}
	f := func(tier drift.Tier, lid, cp, path string) drift.Finding {
		return drift.Finding{Tier: tier, LogicalID: lid, ResourceType: "AWS::X::Y", PhysicalID: "arn:1", ConstructPath: cp, Path: path, Actual: 1.0}
	}
	ign := func(x drift.Finding, rule string) drift.Finding {
		x.Tier, x.Reason = drift.Ignored, "ignore rule "+rule
		return x
	}
	role := f(drift.Declared, "ApiRole1234", "ProdApi/ApiRole/Resource", "Policies.0.PolicyName")
	const memberA, memberB = "arn:aws:iam::aws:policy/ReadOnlyAccess", "arn:aws:iam::111111111111:policy/app-write"
	member := func(arn string) drift.Finding {
		m := f(drift.Declared, "ApiRole1234", "ProdApi/ApiRole/Resource", "ManagedPolicyArns")
		m.AttributeKey, m.Desired, m.Actual = arn, arn, nil
		return m
	}
	tests := []struct {
		name  string
		rules []Rule
		in    drift.Finding
		want  drift.Finding
	}{
		{"logical id form", []Rule{{Path: "ApiRole1234.Policies.0.PolicyName"}}, role, ign(role, "ApiRole1234.Policies.0.PolicyName")},
		{"within-stack construct path form", []Rule{{Path: "ApiRole.Policies.0.PolicyName"}}, role, ign(role, "ApiRole.Policies.0.PolicyName")},
		{"full stack/constructPath form", []Rule{{Path: "ProdApi/ApiRole.Policies.0.PolicyName"}}, role, ign(role, "ProdApi/ApiRole.Policies.0.PolicyName")},
		{"raw construct path form", []Rule{{Path: "ProdApi/ApiRole/Resource.Policies.0.PolicyName"}}, role, ign(role, "ProdApi/ApiRole/Resource.Policies.0.PolicyName")},
		{"parent path covers children", []Rule{{Path: "ApiRole.Policies"}}, role, ign(role, "ApiRole.Policies")},
		{"parent path covers identity-keyed children", []Rule{{Path: "Q.Tags"}}, f(drift.Undeclared, "Q", "", "Tags[env].Value"), ign(f(drift.Undeclared, "Q", "", "Tags[env].Value"), "Q.Tags")},
		{"prefix of a segment does not cover", []Rule{{Path: "ApiRole.Pol"}}, role, role},
		{"glob", []Rule{{Path: "*.DesiredCount"}}, f(drift.Declared, "Svc", "", "DesiredCount"), ign(f(drift.Declared, "Svc", "", "DesiredCount"), "*.DesiredCount")},
		{"stack scope matches", []Rule{{Path: "*.X", Stack: "Prod*"}}, f(drift.Undeclared, "A", "", "X"), ign(f(drift.Undeclared, "A", "", "X"), "*.X stack=Prod*")},
		{"stack scope excludes", []Rule{{Path: "*.X", Stack: "Dev*"}}, f(drift.Undeclared, "A", "", "X"), f(drift.Undeclared, "A", "", "X")},
		{"account scope excludes", []Rule{{Path: "*.X", Account: "222222222222"}}, f(drift.Undeclared, "A", "", "X"), f(drift.Undeclared, "A", "", "X")},
		{"region scope", []Rule{{Path: "*.X", Region: "us-*"}}, f(drift.Undeclared, "A", "", "X"), ign(f(drift.Undeclared, "A", "", "X"), "*.X region=us-*")},
		{"region scope excludes", []Rule{{Path: "*.X", Region: "eu-*"}}, f(drift.Undeclared, "A", "", "X"), f(drift.Undeclared, "A", "", "X")},
		{"added resource by logical id", []Rule{{Path: "SubX"}}, f(drift.Added, "SubX", "", ""), ign(f(drift.Added, "SubX", "", ""), "SubX")},
		{"one added child by physical id", []Rule{{Path: "T/Subscription#arn:1"}}, f(drift.Added, "T/Subscription", "", ""), ign(f(drift.Added, "T/Subscription", "", ""), "T/Subscription#arn:1")},
		{"deleted never re-tagged", []Rule{{Path: "*"}}, f(drift.Deleted, "A", "", ""), f(drift.Deleted, "A", "", "")},
		{"informational tier left alone", []Rule{{Path: "*"}}, f(drift.ReadGap, "A", "", "X"), f(drift.ReadGap, "A", "", "X")},
		{"one attachment member by its keyed path", []Rule{{Path: "ApiRole.ManagedPolicyArns[" + memberB + "]"}}, member(memberB), ign(member(memberB), "ApiRole.ManagedPolicyArns["+memberB+"]")},
		{"another member's rule does not cover it", []Rule{{Path: "ApiRole.ManagedPolicyArns[" + memberB + "]"}}, member(memberA), member(memberA)},
		{"the list path covers every member", []Rule{{Path: "ApiRole.ManagedPolicyArns"}}, member(memberA), ign(member(memberA), "ApiRole.ManagedPolicyArns")},
		{"first matching rule named", []Rule{{Path: "B.*"}, {Path: "A.*"}, {Path: "*"}}, f(drift.Declared, "A", "", "X"), ign(f(drift.Declared, "A", "", "X"), "A.*")},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			in := []drift.Finding{tt.in}
			got := Apply(in, stack, tt.rules)
			if diff := cmp.Diff(got, []drift.Finding{tt.want}); diff != "" {
				t.Errorf("(-got +want):\n%s", diff)
			}
			if diff := cmp.Diff(in, []drift.Finding{tt.in}); diff != "" {
				t.Errorf("input modified:\n%s", diff)
			}
		})
	}
	unrec := f(drift.Undeclared, "A", "", "X")
	unrec.Unrecorded = true
	if got := Apply([]drift.Finding{unrec}, stack, []Rule{{Path: "A.X"}}); got[0].Unrecorded || got[0].Tier != drift.Ignored {
		t.Errorf("ignored unrecorded finding = %+v", got[0])
	}
}

func TestWithinStackPath(t *testing.T) {
	tests := []struct{ stack, cp, want string }{
		{"MyStack", "MyStack/ApiRole", "ApiRole"},
		{"MyStack", "MyStack/ApiRole/Resource", "ApiRole"},
		{"MyStack", "MyStack/Api/Default/GET", "Api/Default/GET"},
		{"prod-Rds", "prod/Rds/Cluster", "Cluster"},
		{"Other", "MyStack/ApiRole", "ApiRole"},
		{"S", "Bare", "Bare"},
	}
	for _, tt := range tests {
		if got := WithinStackPath(tt.stack, tt.cp); got != tt.want {
			t.Errorf("WithinStackPath(%q, %q) = %q, want %q", tt.stack, tt.cp, got, tt.want)
		}
	}
}

func TestAppend(t *testing.T) {
	newRules := []Rule{{Path: "Svc.DesiredCount"}, {Path: "Fn.Reserved", Stack: "Prod*", Account: "111111111111", Region: "us-east-1"}}
	tests := []struct {
		name, before string // before "-" means no file
		rules        []Rule
		want         string
	}{
		{
			name:   "new file gets a header",
			before: "-",
			rules:  newRules[:1],
			want:   header + "ignore:\n  - path: 'Svc.DesiredCount'\n",
		},
		{
			name:   "comments and order kept, indentation followed, duplicates skipped",
			before: "# why: autoscaling\nignore:\n    # keep\n    -   path: '*.DesiredCount' # trailing\n        region: us-*\n    - path: Svc.DesiredCount\n# end\n",
			rules:  newRules,
			want: "# why: autoscaling\nignore:\n    # keep\n    -   path: '*.DesiredCount' # trailing\n        region: us-*\n    - path: Svc.DesiredCount\n# end\n" +
				"    -   path: 'Fn.Reserved'\n        stack: 'Prod*'\n        account: '111111111111'\n        region: 'us-east-1'\n",
		},
		{
			name:   "items at column zero, no trailing newline",
			before: "ignore:\n- path: a",
			rules:  newRules[:1],
			want:   "ignore:\n- path: a\n- path: 'Svc.DesiredCount'\n",
		},
		{
			name:   "empty ignore key",
			before: "# rules\nignore:\n# none yet\n",
			rules:  newRules[:1],
			want:   "# rules\nignore:\n# none yet\n  - path: 'Svc.DesiredCount'\n",
		},
		{
			name:   "comment-only file",
			before: "# nothing\n",
			rules:  newRules[:1],
			want:   "# nothing\nignore:\n  - path: 'Svc.DesiredCount'\n",
		},
		{
			name:   "quotes escaped",
			before: "-",
			rules:  []Rule{{Path: "A.it's"}},
			want:   header + "ignore:\n  - path: 'A.it''s'\n",
		},
		{
			name:   "flow list rewritten through the node tree, comment kept",
			before: "# keep me\nignore: [] # none\n",
			rules:  newRules[:1],
			want:   "# keep me\nignore: # none\n  - path: 'Svc.DesiredCount'\n",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			st := store.NewFile(filepath.Join(t.TempDir(), "state"))
			name := st.IgnorePath("")
			if tt.before != "-" {
				if err := os.MkdirAll(filepath.Dir(name), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(name, []byte(tt.before), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			if _, err := AppendStored(t.Context(), st, "", tt.rules); err != nil {
				t.Fatal(err)
			}
			got, err := os.ReadFile(name)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(string(got), tt.want); diff != "" {
				t.Errorf("(-got +want):\n%s", diff)
			}
			// Appending the same rules again changes nothing.
			added, err := AppendStored(t.Context(), st, "", tt.rules)
			if err != nil || len(added) != 0 {
				t.Errorf("second append = %v, %v", added, err)
			}
			if again, _ := os.ReadFile(name); string(again) != string(got) {
				t.Error("second append rewrote the file")
			}
		})
	}
}

func TestAppendMalformedWritesNothing(t *testing.T) {
	dir := t.TempDir()
	st := store.NewFile(dir)
	name := st.IgnorePath("")
	const bad = "ignroe:\n  - path: a\n"
	if err := os.WriteFile(name, []byte(bad), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err := AppendStored(t.Context(), st, "", []Rule{{Path: "X.Y"}})
	if !errors.Is(err, ErrMalformed) || !strings.Contains(err.Error(), name+":1:") {
		t.Fatalf("err = %v", err)
	}
	if got, _ := os.ReadFile(name); string(got) != bad {
		t.Error("malformed file was rewritten")
	}
	if ents, _ := os.ReadDir(dir); len(ents) != 1 {
		t.Errorf("%d files in the directory, want 1", len(ents))
	}
	if _, err := AppendStored(t.Context(), store.NewFile(t.TempDir()), "", []Rule{{Path: ""}}); err == nil {
		t.Error("empty path accepted")
	}
}

// Parse never panics, and appending to any file it accepts keeps its rules.
func FuzzParseAppend(f *testing.F) {
	spec, _ := os.ReadFile("testdata/spec.yaml")
	f.Add(spec)
	f.Add([]byte("ignore:\n- path: a\n"))
	f.Add([]byte("ignore: [{path: a, region: x}]\n"))
	f.Add([]byte("# c\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		rules, err := Parse("f.yaml", data)
		if err != nil {
			return
		}
		st := store.NewFile(t.TempDir())
		if err := os.WriteFile(st.IgnorePath(""), data, 0o644); err != nil {
			t.Fatal(err)
		}
		if _, err := AppendStored(t.Context(), st, "", []Rule{{Path: "Fuzz.Added", Region: "r"}}); err != nil {
			// Append verifies its result; failing loudly is allowed, a
			// silent loss is not.
			return
		}
		got, err := LoadStored(t.Context(), st, "")
		if err != nil {
			t.Fatalf("appended file does not load: %v", err)
		}
		want := len(rules) + 1
		if containsRule(rules, Rule{Path: "Fuzz.Added", Region: "r"}) {
			want--
		}
		if len(got) != want {
			t.Fatalf("got %d rules, want %d", len(got), want)
		}
	})
}
