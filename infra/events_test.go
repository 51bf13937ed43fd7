package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// wantChangeDetail is the detail pattern of a change rule passing sources:
// successful management writes not made by CloudFormation, minus the quiet
// calls.
func wantChangeDetail(sources []string) map[string]any {
	anyOf := func(list []string) []any {
		out := make([]any, len(list))
		for i, s := range list {
			out[i] = s
		}
		return out
	}
	return map[string]any{
		"eventCategory":   []any{"Management"},
		"readOnly":        []any{false},
		"eventSource":     anyOf(sources),
		"eventName":       []any{map[string]any{"anything-but": anyOf(quietEventNames)}},
		"errorCode":       []any{map[string]any{"exists": false}},
		"sourceIPAddress": []any{map[string]any{"anything-but": []any{"cloudformation.amazonaws.com"}}},
	}
}

// TestChangeSources: the allow-lists are CloudTrail event sources, sorted,
// without duplicates, regional and global disjoint; CloudFormation itself
// is never one (deploys are not drift); every pattern stays under
// EventBridge's 2,048-character limit; internal/service knows the same
// global sources (its tag fallback skips them).
func TestChangeSources(t *testing.T) {
	for name, list := range map[string][]string{"regional": regionalSources, "global": globalSources, "quiet": quietEventNames} {
		seen := map[string]bool{}
		for _, s := range list {
			if seen[s] {
				t.Errorf("%s lists %s twice", name, s)
			}
			seen[s] = true
			if name != "quiet" && (!strings.HasSuffix(s, ".amazonaws.com") || s == "cloudformation.amazonaws.com") {
				t.Errorf("%s source %q: want a service's CloudTrail source, never CloudFormation's", name, s)
			}
		}
		if name != "quiet" && !slices.IsSorted(list) {
			t.Errorf("%s sources are not sorted", name)
		}
	}
	for _, g := range globalSources {
		if slices.Contains(regionalSources, g) {
			t.Errorf("%s is both regional and global: it would be forwarded twice from the global region", g)
		}
	}
	for _, r := range append(resourcesOf(central, "AWS::Events::Rule"), append(resourcesOf(member, "AWS::Events::Rule"), resourcesOf(memberGlobal(t), "AWS::Events::Rule")...)...) {
		if p, ok := r.props["EventPattern"]; ok {
			if n := len(js(p)); n >= 2048 {
				t.Errorf("%s event pattern is %d characters; EventBridge allows 2,048", r.id, n)
			}
		}
	}
	src, err := os.ReadFile(filepath.Join("..", "internal", "service", "trigger.go"))
	if err != nil {
		t.Fatal(err)
	}
	for _, g := range globalSources {
		if !strings.Contains(string(src), `"`+g+`": true`) {
			t.Errorf("internal/service globalSources lacks %s", g)
		}
	}
}

// TestTriggerFlush: a rule sends the flush event to the trigger every
// minute; the trigger's concurrency is reserved; its asynchronous
// invocations keep their dead-letter queue (TestDeliveryRetries).
func TestTriggerFlush(t *testing.T) {
	var flush *resource
	for _, r := range resourcesOf(central, "AWS::Events::Rule") {
		if r.props["Name"] == FlushRuleName {
			flush = &r
		}
	}
	if flush == nil {
		t.Fatalf("no rule %s", FlushRuleName)
	}
	if flush.props["ScheduleExpression"] != FlushSchedule || flush.props["EventPattern"] != nil {
		t.Errorf("flush rule %v %v, want only the schedule %s", flush.props["ScheduleExpression"], flush.props["EventPattern"], FlushSchedule)
	}
	targets, _ := flush.props["Targets"].([]any)
	if len(targets) != 1 {
		t.Fatalf("flush targets %v, want the trigger", targets)
	}
	target := targets[0].(map[string]any)
	if !strings.HasPrefix(refID(target["Arn"]), "FnTrigger") {
		t.Errorf("flush target %v, want the trigger function", target["Arn"])
	}
	var input map[string]any
	if err := json.Unmarshal([]byte(target["Input"].(string)), &input); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(input, flushInput()); diff != "" {
		t.Errorf("flush input (-got +want):\n%s", diff)
	}
	fn := resourceByPrefix(t, central, "AWS::Lambda::Function", "FnTrigger")
	if fn.props["ReservedConcurrentExecutions"] != float64(TriggerReservedConcurrency) {
		t.Errorf("trigger reserved concurrency %v, want %d", fn.props["ReservedConcurrentExecutions"], TriggerReservedConcurrency)
	}
}

// TestMemberChangeRules: a member account forwards the regional sources
// from every swept region (the member StackSet) and the global sources
// from the partition's global region only (the global StackSet, whatever
// MemberRegions holds), to the central bus with a role and dead letters.
func TestMemberChangeRules(t *testing.T) {
	rules := resourcesOf(member, "AWS::Events::Rule")
	if len(rules) != 1 {
		t.Fatalf("%d member rules, want 1", len(rules))
	}
	if diff := cmp.Diff(rules[0].props["EventPattern"].(map[string]any)["detail"], wantChangeDetail(regionalSources)); diff != "" {
		t.Errorf("member rule detail (-got +want):\n%s", diff)
	}
	g := memberGlobal(t)
	grules := resourcesOf(g, "AWS::Events::Rule")
	if len(grules) != 1 {
		t.Fatalf("%d global member rules, want 1", len(grules))
	}
	if diff := cmp.Diff(grules[0].props["EventPattern"].(map[string]any)["detail"], wantChangeDetail(globalSources)); diff != "" {
		t.Errorf("global member rule detail (-got +want):\n%s", diff)
	}
	target := grules[0].props["Targets"].([]any)[0].(map[string]any)
	if diff := cmp.Diff(target["Arn"], map[string]any{"Ref": "CentralEventBusArn"}); diff != "" || target["RoleArn"] == nil || target["DeadLetterConfig"] == nil {
		t.Errorf("global forward target %v: want the central bus, a role and dead letters", target)
	}
	for _, st := range statements(t, g) {
		if st.effect == "Allow" && !slices.Equal(st.actions, []string{"events:PutEvents"}) && !slices.Equal(st.actions, []string{"sqs:SendMessage"}) {
			t.Errorf("global member template grants %v", st.actions)
		}
	}
	ss := resourceByPrefix(t, central, "AWS::CloudFormation::StackSet", "MemberGlobal")
	if ss.props["StackSetName"] != MemberGlobalStackSetName || ss.props["PermissionModel"] != "SERVICE_MANAGED" {
		t.Errorf("global StackSet %v %v", ss.props["StackSetName"], ss.props["PermissionModel"])
	}
	groups := ss.props["StackInstancesGroup"].([]any)
	regions := js(groups[0].(map[string]any)["Regions"])
	if len(groups) != 1 || !strings.Contains(regions, `"Fn::FindInMap":["GlobalEventsRegion",{"Ref":"AWS::Partition"},"region"]`) {
		t.Errorf("global StackSet regions %s, want the partition's global region", regions)
	}
	mappings, _ := central["Mappings"].(map[string]any)
	if got := js(mappings["GlobalEventsRegion"]); !strings.Contains(got, `"aws":{"region":"us-east-1"}`) {
		t.Errorf("GlobalEventsRegion mapping %s, want aws → us-east-1", got)
	}
}

// memberGlobal decodes the global StackSet's template body.
func memberGlobal(t *testing.T) map[string]any {
	t.Helper()
	ss := resourceByPrefix(t, central, "AWS::CloudFormation::StackSet", "MemberGlobal")
	var tpl map[string]any
	if err := json.Unmarshal([]byte(ss.props["TemplateBody"].(string)), &tpl); err != nil {
		t.Fatal(err)
	}
	return tpl
}
