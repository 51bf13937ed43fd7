package main

import (
	"encoding/json"
	"sort"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// tableAccess is one table statement as the tests see it: its actions and
// the partition-key patterns of its dynamodb:LeadingKeys condition.
type tableAccess struct {
	Actions     string // sorted, comma-separated
	LeadingKeys string // sorted, comma-separated
}

// wantTableAccess is, per function, exactly the table access its handlers
// need (internal/service on internal/store's layout), written out here
// rather than derived from functions() so that a widened grant fails.
func wantTableAccess() map[string][]tableAccess {
	const (
		rw   = "dynamodb:BatchWriteItem,dynamodb:GetItem,dynamodb:PutItem,dynamodb:Query"
		read = "dynamodb:GetItem,dynamodb:Query"
	)
	run := tableAccess{rw, "RUN#*"}
	pace := tableAccess{"dynamodb:UpdateItem", "PACE#*"}
	return map[string][]tableAccess{
		"discover":           {pace, run},
		"load-desired":       {pace, run},
		"read-resources":     {pace, run},
		"resolve":            {pace, run},
		"enumerate-children": {pace, run},
		"classify":           {pace, run, {read, "IGNORE#*,STACK#*"}},
		"persist":            {{"dynamodb:BatchWriteItem", "RES#*"}, {rw, "RUN#*,STACK#*"}},
		"notify":             {{read, "AUDIT#*"}, run},
		"trigger": {{"dynamodb:DeleteItem,dynamodb:Query,dynamodb:UpdateItem", "TRIGGER#*"}, {"dynamodb:Query", "RES#*"},
			{"dynamodb:BatchWriteItem,dynamodb:GetItem,dynamodb:PutItem,dynamodb:Query", "RUN#realdrift-writers.*"}},
		"revert-plan":      {pace, run, {read, "IGNORE#*,STACK#*"}},
		"request-approval": {run},
		"revert-write":     {pace, run, {read, "IGNORE#*,STACK#*"}},
		"revert-converge":  {pace, run, {read, "IGNORE#*,STACK#*"}},
		"revert-audit":     {{rw, "AUDIT#*"}, run},
		"approve-link":     {run},
		"accept":           {pace, {rw, "AUDIT#*,STACK#*"}, {read, "IGNORE#*"}},
	}
}

// roleNames maps each role's logical id to its RoleName.
func roleNames(tpl map[string]any) map[string]string {
	out := map[string]string{}
	for _, r := range resourcesOf(tpl, "AWS::IAM::Role") {
		if name, ok := r.props["RoleName"].(string); ok {
			out[r.id] = name
		}
	}
	return out
}

// refID returns the logical id a {"Ref": id} or {"Fn::GetAtt": [id, ...]}
// names, or "".
func refID(v any) string {
	m, ok := v.(map[string]any)
	if !ok {
		return ""
	}
	if id, ok := m["Ref"].(string); ok {
		return id
	}
	if ga, ok := m["Fn::GetAtt"].([]any); ok && len(ga) > 0 {
		id, _ := ga[0].(string)
		return id
	}
	return ""
}

// refIDString is refID for a resource strs rendered as JSON.
func refIDString(s string) string {
	var v any
	if json.Unmarshal([]byte(s), &v) != nil {
		return ""
	}
	return refID(v)
}

func TestTablePermissions(t *testing.T) {
	tables := resourcesOf(central, "AWS::DynamoDB::Table")
	if len(tables) != 1 {
		t.Fatalf("%d tables, want 1", len(tables))
	}
	tableID := tables[0].id
	names := roleNames(central)
	got := map[string][]tableAccess{}
	for _, st := range statements(t, central) {
		var dynamo []string
		for _, a := range st.actions {
			if strings.HasPrefix(a, "dynamodb:") {
				dynamo = append(dynamo, a)
			}
		}
		if len(dynamo) == 0 {
			continue
		}
		where := st.where + " " + st.sid
		if st.effect != "Allow" {
			continue
		}
		if len(dynamo) != len(st.actions) {
			t.Errorf("%s mixes table and other actions: %v", where, st.actions)
		}
		// The table itself: not its indexes (no function queries gsi1),
		// not every table.
		if len(st.resources) != 1 || refIDString(st.resources[0]) != tableID || !strings.Contains(st.resources[0], `"Arn"`) {
			t.Errorf("%s: resources %v, want only the table's ARN", where, st.resources)
		}
		keys := leadingKeysOf(t, where, st.condition)
		fn := strings.TrimPrefix(names[st.role], "realdrift-")
		if names[st.role] == "" {
			t.Errorf("%s: role %s is not a function's role but has table access", where, st.role)
			continue
		}
		sort.Strings(dynamo)
		got[fn] = append(got[fn], tableAccess{strings.Join(dynamo, ","), strings.Join(keys, ",")})
	}
	for fn := range got {
		sort.Slice(got[fn], func(i, j int) bool { return got[fn][i].LeadingKeys < got[fn][j].LeadingKeys })
	}
	want := wantTableAccess()
	for fn := range want {
		sort.Slice(want[fn], func(i, j int) bool { return want[fn][i].LeadingKeys < want[fn][j].LeadingKeys })
	}
	if diff := cmp.Diff(got, want); diff != "" {
		t.Errorf("table access per function (-got +want):\n%s", diff)
	}
}

// leadingKeysOf checks a table statement's condition is exactly
// ForAllValues:StringLike on dynamodb:LeadingKeys and returns its patterns
// (sorted). Every pattern is a fixed prefix followed by *.
func leadingKeysOf(t *testing.T, where string, cond map[string]any) []string {
	t.Helper()
	if len(cond) != 1 {
		t.Errorf("%s: condition %v, want only ForAllValues:StringLike on dynamodb:LeadingKeys", where, cond)
	}
	like, _ := cond["ForAllValues:StringLike"].(map[string]any)
	if len(like) != 1 {
		t.Errorf("%s: ForAllValues:StringLike %v, want only dynamodb:LeadingKeys", where, like)
	}
	keys := strs(like["dynamodb:LeadingKeys"])
	if len(keys) == 0 {
		t.Errorf("%s: no dynamodb:LeadingKeys condition: the statement reaches every item", where)
	}
	for _, k := range keys {
		// A fixed prefix: PREFIX#*, or a longer one within a partition
		// kind (RUN#realdrift-writers.*: one run's state only).
		if !strings.HasSuffix(k, "*") || !strings.Contains(k, "#") || strings.Count(k, "*") != 1 || strings.Contains(k, "?") {
			t.Errorf("%s: leading key pattern %q, want a PREFIX#* prefix", where, k)
		}
	}
	sort.Strings(keys)
	return keys
}

// TestNoTableScan holds that nothing may scan the table: a Scan request has
// no leading keys, so ForAllValues conditions cannot scope it.
func TestNoTableScan(t *testing.T) {
	for _, st := range statements(t, central) {
		for _, a := range st.actions {
			if st.effect == "Allow" && (a == "dynamodb:Scan" || a == "dynamodb:PartiQLSelect" || strings.HasPrefix(a, "dynamodb:*")) {
				t.Errorf("%s %s grants %s, which no LeadingKeys condition scopes", st.where, st.sid, a)
			}
		}
	}
}

// TestTablePrefixesMirrorStore holds the prefixes infra scopes by to the
// store's layout (the root module's source: infra cannot import it).
func TestTablePrefixesMirrorStore(t *testing.T) {
	for _, tt := range []struct{ file, decl, value string }{
		{"../internal/store/layout.go", "pkStack", pkStack},
		{"../internal/store/layout.go", "pkIgnore", pkIgnore},
		{"../internal/store/layout.go", "pkResource", pkResource},
		{"../internal/store/layout.go", "pkRun", pkRun},
		{"../internal/store/layout.go", "pkAudit", pkAudit},
		{"../internal/service/debounce.go", "pkTrigger", pkTrigger},
		{"../internal/service/writers.go", "writersRun", strings.TrimSuffix(strings.TrimPrefix(pkWriters, pkRun), ".")},
	} {
		t.Run(tt.decl, func(t *testing.T) {
			src := readFile(t, tt.file)
			want := tt.decl + ` = "` + tt.value + `"`
			if !strings.Contains(strings.Join(strings.Fields(src), " "), want) {
				t.Errorf("%s does not declare %s; infra's prefixes are out of date", tt.file, want)
			}
		})
	}
}
