package main

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// revertRoleCopy is the committed copy of the member revert role's
// policies: the service's end-to-end revert seeds the sandbox with it, and
// a root-module test holds its actions equal to the writers' (live
// WriteActions).
var revertRoleCopy = filepath.Join("..", "testdata", "iam", "member-revert-role.json")

// revertRole returns the member revert role.
func revertRole(t *testing.T) resource {
	t.Helper()
	return memberRole(t, RevertRoleName)
}

// memberRole returns the member template's role named name.
func memberRole(t *testing.T, name string) resource {
	t.Helper()
	for _, r := range resourcesOf(member, "AWS::IAM::Role") {
		if r.props["RoleName"] == name {
			return r
		}
	}
	t.Fatalf("no member role %s", name)
	return resource{}
}

func revertRoleID(t *testing.T) string { return revertRole(t).id }

// evalCondition evaluates a template condition the way CloudFormation does
// (Fn::And, Fn::Or, Fn::Not, Fn::Equals, Ref of a parameter or pseudo
// parameter, Condition), with params as the parameter values.
func evalCondition(t *testing.T, tpl map[string]any, name string, params map[string]string) bool {
	t.Helper()
	conds, _ := tpl["Conditions"].(map[string]any)
	expr, ok := conds[name]
	if !ok {
		t.Fatalf("no condition %s", name)
	}
	var value func(v any) string
	var eval func(v any) bool
	value = func(v any) string {
		switch x := v.(type) {
		case string:
			return x
		case map[string]any:
			if ref, ok := x["Ref"].(string); ok {
				if p, ok := params[ref]; ok {
					return p
				}
				if def, ok := tpl["Parameters"].(map[string]any)[ref].(map[string]any)["Default"].(string); ok {
					return def
				}
				t.Fatalf("condition %s: no value for %s", name, ref)
			}
		}
		t.Fatalf("condition %s: cannot evaluate %v", name, v)
		return ""
	}
	eval = func(v any) bool {
		m, _ := v.(map[string]any)
		switch {
		case m["Fn::Equals"] != nil:
			args := m["Fn::Equals"].([]any)
			return value(args[0]) == value(args[1])
		case m["Fn::And"] != nil:
			for _, a := range m["Fn::And"].([]any) {
				if !eval(a) {
					return false
				}
			}
			return true
		case m["Fn::Or"] != nil:
			for _, a := range m["Fn::Or"].([]any) {
				if eval(a) {
					return true
				}
			}
			return false
		case m["Fn::Not"] != nil:
			return !eval(m["Fn::Not"].([]any)[0])
		case m["Condition"] != nil:
			return evalCondition(t, tpl, m["Condition"].(string), params)
		}
		t.Fatalf("condition %s: cannot evaluate %v", name, v)
		return false
	}
	return eval(expr)
}

// TestMemberRevertRoleOptIn: the member revert role exists only when the
// StackSet's EnableRevert is "true" (default "false"), in the one role
// region; the central stack's EnableRevert (default "false") is what the
// StackSet passes.
func TestMemberRevertRoleOptIn(t *testing.T) {
	role := revertRole(t)
	cond, _ := role.body["Condition"].(string)
	if cond == "" {
		t.Fatal("the revert role has no Condition: it would exist in every member account")
	}
	for _, tt := range []struct {
		params map[string]string
		want   bool
	}{
		{map[string]string{"AWS::Region": "eu-west-1", "RoleRegion": "eu-west-1"}, false}, // the default
		{map[string]string{"AWS::Region": "eu-west-1", "RoleRegion": "eu-west-1", EnableRevertParameter: "false"}, false},
		{map[string]string{"AWS::Region": "eu-west-1", "RoleRegion": "eu-west-1", EnableRevertParameter: "true"}, true},
		{map[string]string{"AWS::Region": "us-east-1", "RoleRegion": "eu-west-1", EnableRevertParameter: "true"}, false},
	} {
		if got := evalCondition(t, member, cond, tt.params); got != tt.want {
			t.Errorf("revert role with %v: exists %v, want %v", tt.params, got, tt.want)
		}
	}
	for name, tpl := range map[string]map[string]any{"member": member, "central": central} {
		p, _ := tpl["Parameters"].(map[string]any)[EnableRevertParameter].(map[string]any)
		if p["Default"] != "false" || !cmp.Equal(p["AllowedValues"], []any{"true", "false"}) {
			t.Errorf("%s parameter %s = %v, want AllowedValues true|false, Default false", name, EnableRevertParameter, p)
		}
	}
	var passed any
	for _, r := range resourcesOf(central, "AWS::CloudFormation::StackSet") {
		for _, p := range r.props["Parameters"].([]any) {
			if p := p.(map[string]any); p["ParameterKey"] == EnableRevertParameter {
				passed = p["ParameterValue"]
			}
		}
	}
	if diff := cmp.Diff(passed, map[string]any{"Ref": EnableRevertParameter}); diff != "" {
		t.Errorf("the StackSet's %s (-got +want):\n%s", EnableRevertParameter, diff)
	}
	// Off, the write step is told no role (and refuses); on, the role.
	for _, r := range resourcesOf(central, "AWS::Lambda::Function") {
		env, _ := r.props["Environment"].(map[string]any)["Variables"].(map[string]any)
		v, ok := env["REALDRIFT_REVERT_ROLE_NAME"]
		if strings.HasPrefix(r.id, "FnRevertWrite") != ok {
			t.Errorf("%s: REALDRIFT_REVERT_ROLE_NAME set %v, want only on revert-write", r.id, ok)
		}
		if ok {
			want := map[string]any{"Fn::If": []any{RevertEnabledCondition, RevertRoleName, ""}}
			if diff := cmp.Diff(v, want); diff != "" {
				t.Errorf("%s REALDRIFT_REVERT_ROLE_NAME (-got +want):\n%s", r.id, diff)
			}
		}
	}
	if got := evalCondition(t, central, RevertEnabledCondition, nil); got {
		t.Error("the central RevertEnabled condition is true by default")
	}
}

// TestMemberRevertRole: the revert role holds exactly the writers' actions
// (no wildcard action), never writes realdrift's own roles, and trusts
// only the central revert-write function; the read role holds none of its
// actions.
func TestMemberRevertRole(t *testing.T) {
	role := revertRole(t)
	var allowed []string
	denied := false
	for _, st := range statements(t, member) {
		if st.role != role.id {
			for _, a := range st.actions {
				if st.effect == "Allow" && slices.Contains(revertActions(), a) && !readAction(a) {
					t.Errorf("%s (not the revert role) allows the revert write %s", st.where, a)
				}
			}
			continue
		}
		for _, a := range st.actions {
			if strings.Contains(a, "*") {
				t.Errorf("revert role %s: wildcard action %s", st.sid, a)
			}
		}
		if strings.HasPrefix(st.sid, "RevertHandlers") {
			continue // TestRevertHandlerGrants
		}
		switch st.effect {
		case "Allow":
			allowed = append(allowed, st.actions...)
		case "Deny":
			denied = st.sid == "NeverWriteRealdriftRoles" && slices.Contains(st.actions, "iam:PutRolePolicy") &&
				len(st.resources) == 1 && strings.Contains(st.resources[0], ":role/realdrift-*")
		}
	}
	sort.Strings(allowed)
	want := slices.Clone(revertActions())
	sort.Strings(want)
	if diff := cmp.Diff(allowed, want); diff != "" {
		t.Errorf("revert role actions (-got +want):\n%s", diff)
	}
	if !denied {
		t.Error("the revert role may write realdrift's own roles (no NeverWriteRealdriftRoles deny)")
	}
	if role.props["ManagedPolicyArns"] != nil {
		t.Errorf("revert role attaches AWS managed policies %v", role.props["ManagedPolicyArns"])
	}
	trust := role.props["AssumeRolePolicyDocument"].(map[string]any)["Statement"].([]any)
	b, _ := json.Marshal(trust)
	if len(trust) != 1 || !strings.Contains(string(b), `:role/realdrift-revert-write"`) || !strings.Contains(string(b), "aws:PrincipalOrgID") ||
		strings.Count(string(b), ":role/realdrift-") != 1 {
		t.Errorf("revert role trust %s: want only the central revert-write role, in the organisation", b)
	}
}

// TestRevertRolePolicyCopy holds the committed copy equal to the
// synthesized revert role (go test -run TestRevertRolePolicyCopy -update
// rewrites it).
func TestRevertRolePolicyCopy(t *testing.T) {
	role := revertRole(t)
	want := revertRolePolicies{
		readRolePolicies: readRolePolicies{
			Comment: "The member revert role's policies as infra synthesizes them (infra TestRevertRolePolicyCopy keeps this equal; -update rewrites it). The e2e revert seeds the sandbox with them; internal/service holds their actions equal to the writers'. handlers are the customer managed policies granting the Cloud Control handler permissions of types.",
			Role:    RevertRoleName, Inline: role.props["Policies"], Managed: role.props["ManagedPolicyArns"], Handlers: handlerPolicies("RevertHandlers"),
		},
		Types: defaultRevertTypes(),
	}
	checkJSONCopy(t, want, revertRoleCopy, "revert role")
}

// revertRolePolicies is the storage shape of revertRoleCopy.
type revertRolePolicies struct {
	readRolePolicies
	// Types are the revert types they grant.
	Types []string `json:"types"`
}

// TestRevertHandlerGrants: the revert role holds, through AWS services
// only (aws:ViaAWSService) and, once HandlerCalledVia is set, only
// through the service it names (aws:CalledVia), every IAM action the
// read, update and delete handlers of each default revert type list, and
// nothing else; each managed policy fits IAM's 6,144 characters and exists
// only with the revert role.
func TestRevertHandlerGrants(t *testing.T) {
	want, err := handlerActions(defaultRevertTypes())
	if err != nil {
		t.Fatal(err)
	}
	narrowed := map[string]any{
		"Bool": map[string]any{"aws:ViaAWSService": "true"},
		"ForAnyValue:StringEquals": map[string]any{"Fn::If": []any{HandlersNarrowedCondition,
			map[string]any{"aws:CalledVia": map[string]any{"Ref": HandlerCalledViaParameter}}, map[string]any{"Ref": "AWS::NoValue"}}},
	}
	checkHandlerGrants(t, "RevertHandlers", revertRole(t), RevertEnabledCondition, narrowed, want)
}

// TestHandlerCalledVia: HandlerCalledVia is empty unless set, so the
// handler grants hold through any AWS service until an account has
// confirmed the value (HandlersNarrowed false); set, it narrows them
// (true). Its pattern admits only a service principal's host name, and
// the central stack passes its own HandlerCalledVia to the member
// StackSet.
func TestHandlerCalledVia(t *testing.T) {
	for _, tt := range []struct {
		value string
		want  bool
	}{{"", false}, {"cloudformation.amazonaws.com", true}} {
		params := map[string]string{}
		if tt.value != "" {
			params[HandlerCalledViaParameter] = tt.value
		}
		if got := evalCondition(t, member, HandlersNarrowedCondition, params); got != tt.want {
			t.Errorf("HandlerCalledVia %q: HandlersNarrowed %v, want %v", tt.value, got, tt.want)
		}
	}
	for _, tpl := range []map[string]any{member, central} {
		p, _ := tpl["Parameters"].(map[string]any)[HandlerCalledViaParameter].(map[string]any)
		if p == nil || p["Default"] != "" {
			t.Fatalf("HandlerCalledVia parameter %v: want one defaulting to empty", p)
		}
		re := regexp.MustCompile(p["AllowedPattern"].(string))
		for v, ok := range map[string]bool{"": true, "cloudformation.amazonaws.com": true, "cloudcontrolapi.amazonaws.com": true,
			"*": false, "cloudformation.amazonaws.com,athena.amazonaws.com": false, "example.com": false} {
			if re.MatchString(v) != ok {
				t.Errorf("AllowedPattern %s on %q: %v, want %v", re, v, !ok, ok)
			}
		}
	}
	passed := false
	for _, ss := range resourcesOf(central, "AWS::CloudFormation::StackSet") {
		for _, p := range ss.props["Parameters"].([]any) {
			m := p.(map[string]any)
			if ss.id == "Member" && m["ParameterKey"] == HandlerCalledViaParameter && cmp.Equal(m["ParameterValue"], map[string]any{"Ref": HandlerCalledViaParameter}) {
				passed = true
			}
		}
	}
	if !passed {
		t.Error("the central stack does not pass HandlerCalledVia to the member StackSet")
	}
}

// TestRevertTypesConfig: REALDRIFT_REVERT_TYPES replaces the default list,
// "default" in it stands for the list, and a type the role cannot be
// granted is refused with its reason.
func TestRevertTypesConfig(t *testing.T) {
	if got := parseRevertTypes(" AWS::SQS::Queue, AWS::SNS::Topic ,AWS::SQS::Queue"); !cmp.Equal(got, []string{"AWS::SNS::Topic", "AWS::SQS::Queue"}) {
		t.Errorf("parse = %v", got)
	}
	if got := parseRevertTypes("default,AWS::Glue::Job"); len(got) != len(defaultRevertTypes())+1 || !slices.Contains(got, "AWS::Glue::Job") {
		t.Errorf("default,AWS::Glue::Job = %d types", len(got))
	}
	for typ, want := range map[string]string{
		"AWS::AutoScaling::AutoScalingGroup": "wildcard permission",
		"AWS::No::Such":                      "not in the registry schema snapshot",
		"AWS::ApiGatewayV2::Stage":           "neither update nor delete",
	} {
		if err := checkRevertTypes([]string{typ}); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("checkRevertTypes(%s) = %v, want %q", typ, err, want)
		}
	}
	if err := checkRevertTypes(defaultRevertTypes()); err != nil {
		t.Errorf("default revert types: %v", err)
	}
	if n := len(revertTypesEnv(defaultRevertTypes())); n > maxRevertTypesEnv {
		t.Errorf("default revert types: %d characters, the revert-plan environment holds %d", n, maxRevertTypesEnv)
	}
	too := Config{LambdaDir: "l", StateMachineDir: "s", SweepSchedule: DefaultSweepSchedule, RevertTypes: append(defaultRevertTypes(), defaultRevertTypes()...)}
	if err := too.Validate(); err == nil || !strings.Contains(err.Error(), "4 KB") {
		t.Errorf("Validate of a %d-type list = %v, want the environment bound", len(too.RevertTypes), err)
	}
}

// TestChunkActions: chunks keep the order, and each fits the budget.
func TestChunkActions(t *testing.T) {
	var actions []string
	for i := range 900 {
		actions = append(actions, fmt.Sprintf("svc:Action%04d", i))
	}
	chunks := chunkActions(actions)
	var flat []string
	for _, c := range chunks {
		n := 0
		for _, a := range c {
			n += len(a) + 3
		}
		if n > managedPolicyBudget {
			t.Errorf("chunk of %d characters, budget %d", n, managedPolicyBudget)
		}
		flat = append(flat, c...)
	}
	if !cmp.Equal(flat, actions) || len(chunks) < 2 {
		t.Errorf("%d chunks do not partition the actions in order", len(chunks))
	}
}

// TestApprovalLink: approve-link is the only function with a URL, AuthType
// AWS_IAM, that no resource policy opens to anyone: only the approver
// policy grants lambda:InvokeFunctionUrl, on that function, for AWS_IAM
// URLs. Only approve-link answers approvals, and only the revert state
// machine's.
func TestApprovalLink(t *testing.T) {
	urls := resourcesOf(central, "AWS::Lambda::Url")
	if len(urls) != 1 || !strings.HasPrefix(refID(urls[0].props["TargetFunctionArn"]), "FnApproveLink") || urls[0].props["AuthType"] != "AWS_IAM" {
		t.Fatalf("function URLs %v, want one (AuthType AWS_IAM) on approve-link", urls)
	}
	for _, p := range resourcesOf(central, "AWS::Lambda::Permission") {
		if p.props["Action"] == "lambda:InvokeFunctionUrl" {
			t.Errorf("permission %s opens a function URL to %v: approvers are granted by the approver policy only", p.id, p.props["Principal"])
		}
	}
	pols := resourcesOf(central, "AWS::IAM::ManagedPolicy")
	var approver []byte
	for _, p := range pols {
		if p.props["ManagedPolicyName"] == "realdrift-approver" {
			approver, _ = json.Marshal(p.props["PolicyDocument"])
		}
	}
	if !strings.Contains(string(approver), `"Action":"lambda:InvokeFunctionUrl"`) || !strings.Contains(string(approver), `"lambda:FunctionUrlAuthType":"AWS_IAM"`) ||
		!strings.Contains(string(approver), "FnApproveLink") || strings.Count(string(approver), `"Sid"`) != 1 {
		t.Errorf("approver policy %s: want exactly lambda:InvokeFunctionUrl on approve-link under lambda:FunctionUrlAuthType AWS_IAM", approver)
	}
	names := roleNames(central)
	for _, st := range statements(t, central) {
		for _, a := range st.actions {
			if a != "states:SendTaskSuccess" && a != "states:SendTaskFailure" {
				continue
			}
			if names[st.role] != "realdrift-approve-link" || len(st.resources) != 1 || !strings.Contains(st.resources[0], "stateMachine:"+RevertStateMachineName) {
				t.Errorf("%s (%s) may %s on %v, want only approve-link on the revert state machine", st.where, names[st.role], a, st.resources)
			}
		}
	}
	env := map[string]map[string]any{}
	for _, r := range resourcesOf(central, "AWS::Lambda::Function") {
		env[r.id], _ = r.props["Environment"].(map[string]any)["Variables"].(map[string]any)
	}
	for id, vars := range env {
		if strings.HasPrefix(id, "FnRequestApproval") && !strings.Contains(fmt.Sprint(vars["REALDRIFT_APPROVAL_URL"]), "FunctionUrl") {
			t.Errorf("request-approval REALDRIFT_APPROVAL_URL = %v, want the approve-link URL", vars["REALDRIFT_APPROVAL_URL"])
		}
		// Drift alerts link to the revert state machine.
		if strings.HasPrefix(id, "FnNotify") && !strings.Contains(js(vars["REALDRIFT_REVERT_STATE_MACHINE_ARN"]), ":stateMachine:"+RevertStateMachineName) {
			t.Errorf("notify REALDRIFT_REVERT_STATE_MACHINE_ARN = %s, want the revert state machine", js(vars["REALDRIFT_REVERT_STATE_MACHINE_ARN"]))
		}
	}
}
