package main

import (
	"crypto/sha256"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/aws/aws-cdk-go/awscdk/v2/assertions"
	"github.com/aws/jsii-runtime-go"
	"github.com/google/go-cmp/cmp"
)

// Synthesized once in TestMain and shared by every test.
var (
	template assertions.Template
	central  map[string]any // the central template
	member   map[string]any // the StackSet's template body
	built    *Service
)

const testSchedule = "rate(2 hours)"

func TestMain(m *testing.M) {
	code, err := synthOnce(m)
	jsii.Close()
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	os.Exit(code)
}

func synthOnce(m *testing.M) (int, error) {
	os.Setenv("JSII_SILENCE_WARNING_END_OF_LIFE_NODE_VERSION", "20")
	tmp, err := os.MkdirTemp("", "realdrift-infra-test-")
	if err != nil {
		return 0, err
	}
	defer os.RemoveAll(tmp)
	cfg := Config{
		LambdaDir:       filepath.Join(tmp, "lambda"),
		StateMachineDir: filepath.Join("..", "statemachine"),
		PlaceholderDir:  "placeholder",
		SweepSchedule:   testSchedule,
	}
	for _, f := range functions() {
		dir := filepath.Join(cfg.LambdaDir, f.Name)
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return 0, err
		}
		// Synth zips the directory; the content is never run here.
		if err := os.WriteFile(filepath.Join(dir, "bootstrap"), []byte("test asset "+f.Name), 0o755); err != nil {
			return 0, err
		}
	}
	// Read the definitions from Go so go test's cache sees edits.
	for _, name := range []string{"sweep", "check-stack", "revert", "accept"} {
		if _, err := os.ReadFile(filepath.Join(cfg.StateMachineDir, name+".asl.json")); err != nil {
			return 0, err
		}
	}
	app := newApp(filepath.Join(tmp, "cdk.out"))
	built, err = NewService(app, ServiceStackName, cfg, nil)
	if err != nil {
		return 0, err
	}
	template = assertions.Template_FromStack(built.Stack, nil)
	b, err := json.Marshal(template.ToJSON())
	if err != nil {
		return 0, err
	}
	if err := json.Unmarshal(b, &central); err != nil {
		return 0, err
	}
	for _, r := range resourcesOf(central, "AWS::CloudFormation::StackSet") {
		if r.props["StackSetName"] != MemberStackSetName {
			continue // the global forwarding (events_test.go)
		}
		body, _ := r.props["TemplateBody"].(string)
		if err := json.Unmarshal([]byte(body), &member); err != nil {
			return 0, fmt.Errorf("member template body: %w", err)
		}
	}
	return m.Run(), nil
}

// check runs a CDK assertion, turning its panic into a test error.
func check(t *testing.T, what string, assertion func()) {
	t.Helper()
	defer func() {
		if p := recover(); p != nil {
			t.Errorf("%s: %v", what, p)
		}
	}()
	assertion()
}

type resource struct {
	id    string
	body  map[string]any
	props map[string]any
}

func resourcesOf(tpl map[string]any, typ string) []resource {
	var out []resource
	res, _ := tpl["Resources"].(map[string]any)
	ids := make([]string, 0, len(res))
	for id := range res {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	for _, id := range ids {
		body := res[id].(map[string]any)
		if body["Type"] == typ {
			props, _ := body["Properties"].(map[string]any)
			out = append(out, resource{id: id, body: body, props: props})
		}
	}
	return out
}

func TestResources(t *testing.T) {
	counts := map[string]float64{
		"AWS::DynamoDB::Table":             1,
		"AWS::Lambda::Function":            16,
		"AWS::Lambda::Url":                 1,
		"AWS::StepFunctions::StateMachine": 4,
		"AWS::Scheduler::Schedule":         1,
		"AWS::Events::Rule":                3,
		"AWS::Events::EventBus":            1,
		"AWS::SNS::Topic":                  1,
		"AWS::SecretsManager::Secret":      1,
		"AWS::CloudFormation::StackSet":    2,
		"AWS::S3::Bucket":                  1,
	}
	for typ, n := range counts {
		t.Run(typ, func(t *testing.T) {
			check(t, typ, func() { template.ResourceCountIs(jsii.String(typ), jsii.Number(n)) })
		})
	}
	if len(built.Missing) != 0 {
		t.Errorf("functions synthesized with the placeholder: %v", built.Missing)
	}
}

func TestTable(t *testing.T) {
	check(t, "table", func() {
		template.HasResourceProperties(jsii.String("AWS::DynamoDB::Table"), map[string]any{
			"KeySchema": []any{
				map[string]any{"AttributeName": "pk", "KeyType": "HASH"},
				map[string]any{"AttributeName": "sk", "KeyType": "RANGE"},
			},
			"BillingMode":                      "PAY_PER_REQUEST",
			"TimeToLiveSpecification":          map[string]any{"AttributeName": "ttl", "Enabled": true},
			"PointInTimeRecoverySpecification": map[string]any{"PointInTimeRecoveryEnabled": true},
			"DeletionProtectionEnabled":        true,
			"GlobalSecondaryIndexes": []any{map[string]any{
				"IndexName": "gsi1",
				"KeySchema": []any{
					map[string]any{"AttributeName": "gsi1pk", "KeyType": "HASH"},
					map[string]any{"AttributeName": "gsi1sk", "KeyType": "RANGE"},
				},
				"Projection": map[string]any{"ProjectionType": "INCLUDE", "NonKeyAttributes": []any{"record", "ttl"}},
			}},
		})
	})
	for _, r := range resourcesOf(central, "AWS::DynamoDB::Table") {
		if r.body["DeletionPolicy"] != "Retain" {
			t.Errorf("table DeletionPolicy = %v, want Retain", r.body["DeletionPolicy"])
		}
	}
}

func TestFunctions(t *testing.T) {
	fns := resourcesOf(central, "AWS::Lambda::Function")
	for _, r := range fns {
		t.Run(r.id, func(t *testing.T) {
			got := map[string]any{"Runtime": r.props["Runtime"], "Architectures": r.props["Architectures"], "Handler": r.props["Handler"]}
			want := map[string]any{"Runtime": "provided.al2023", "Architectures": []any{"arm64"}, "Handler": "bootstrap"}
			if diff := cmp.Diff(got, want); diff != "" {
				t.Errorf("(-got +want):\n%s", diff)
			}
			if strings.Contains(fmt.Sprint(r.props["Description"]), "PLACEHOLDER") {
				t.Errorf("uses the placeholder asset: %v", r.props["Description"])
			}
		})
	}
	var roles []string
	for _, r := range resourcesOf(central, "AWS::IAM::Role") {
		if name, ok := r.props["RoleName"].(string); ok {
			roles = append(roles, name)
		}
	}
	want := []string{}
	for _, f := range functions() {
		want = append(want, "realdrift-"+f.Name)
	}
	sort.Strings(want)
	if diff := cmp.Diff(roles, want); diff != "" {
		t.Errorf("named roles, one per function (-got +want):\n%s", diff)
	}
}

// synthesizedCopy is the committed record of the synthesized state
// machines (statemachine.SynthesizedFile): the local runner takes each
// one's type from it and the local tests hold the definition they run
// equal to its hash.
var synthesizedCopy = filepath.Join("..", "testdata", "statemachine", "synthesized.json")

// synthesizedMachine is one entry of synthesizedCopy.
type synthesizedMachine struct {
	Name   string `json:"name"`
	Type   string `json:"type"`
	SHA256 string `json:"sha256"`
}

func TestStateMachines(t *testing.T) {
	placeholder := regexp.MustCompile(`\$\{(\w+)\}`)
	synthesized := map[string]synthesizedMachine{}
	defer func() {
		want, err := json.MarshalIndent(synthesized, "", "  ")
		if err != nil {
			t.Fatal(err)
		}
		want = append(want, '\n')
		if *update {
			if err := os.MkdirAll(filepath.Dir(synthesizedCopy), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(synthesizedCopy, want, 0o644); err != nil {
				t.Fatal(err)
			}
			return
		}
		got, err := os.ReadFile(synthesizedCopy)
		if err != nil {
			t.Fatalf("%v (go test -run TestStateMachines -update writes it)", err)
		}
		if diff := cmp.Diff(string(got), string(want)); diff != "" {
			t.Errorf("%s is not what infra synthesizes (go test -run TestStateMachines -update rewrites it) (-committed +synthesized):\n%s", synthesizedCopy, diff)
		}
	}()
	for _, tt := range []struct{ file, name, typ string }{
		{"sweep", SweepStateMachineName, "STANDARD"},
		{"check-stack", CheckStackStateMachineName, "EXPRESS"},
		{"revert", RevertStateMachineName, "STANDARD"},
		{"accept", AcceptStateMachineName, "STANDARD"},
	} {
		t.Run(tt.file, func(t *testing.T) {
			def, err := os.ReadFile(filepath.Join("..", "statemachine", tt.file+".asl.json"))
			if err != nil {
				t.Fatal(err)
			}
			var sm *resource
			for _, r := range resourcesOf(central, "AWS::StepFunctions::StateMachine") {
				if r.props["StateMachineName"] == tt.name {
					sm = &r
				}
			}
			if sm == nil {
				t.Fatalf("no state machine %s", tt.name)
			}
			if sm.props["StateMachineType"] != tt.typ {
				t.Errorf("type %v, want %s", sm.props["StateMachineType"], tt.typ)
			}
			if sm.props["DefinitionString"] != string(def) {
				t.Errorf("DefinitionString is not %s.asl.json verbatim", tt.file)
			}
			synthesized[tt.file] = synthesizedMachine{
				Name: sm.props["StateMachineName"].(string), Type: sm.props["StateMachineType"].(string),
				SHA256: fmt.Sprintf("%x", sha256.Sum256([]byte(sm.props["DefinitionString"].(string)))),
			}
			subs, _ := sm.props["DefinitionSubstitutions"].(map[string]any)
			needed := map[string]bool{}
			for _, m := range placeholder.FindAllStringSubmatch(string(def), -1) {
				needed[m[1]] = true
			}
			if len(needed) == 0 {
				t.Fatal("definition has no substitutions")
			}
			for name := range needed {
				v, ok := subs[name]
				if !ok {
					t.Errorf("no DefinitionSubstitutions value for ${%s}", name)
					continue
				}
				fn := "Fn" + strings.TrimSuffix(name, "FunctionArn")
				getAtt, _ := v.(map[string]any)["Fn::GetAtt"].([]any)
				if len(getAtt) != 2 || !strings.HasPrefix(getAtt[0].(string), fn) || getAtt[1] != "Arn" {
					t.Errorf("${%s} = %v, want the ARN of %s", name, v, fn)
				}
			}
		})
	}
}

func TestSchedule(t *testing.T) {
	sched := resourcesOf(central, "AWS::Scheduler::Schedule")
	if len(sched) != 1 {
		t.Fatalf("%d schedules, want 1", len(sched))
	}
	p := sched[0].props
	sweepID := ""
	for _, r := range resourcesOf(central, "AWS::StepFunctions::StateMachine") {
		if r.props["StateMachineName"] == SweepStateMachineName {
			sweepID = r.id
		}
	}
	got := map[string]any{"expr": p["ScheduleExpression"], "window": p["FlexibleTimeWindow"], "arn": p["Target"].(map[string]any)["Arn"], "state": p["State"]}
	want := map[string]any{"expr": testSchedule, "window": map[string]any{"Mode": "OFF"}, "arn": map[string]any{"Ref": sweepID}, "state": "ENABLED"}
	if diff := cmp.Diff(got, want); diff != "" {
		t.Errorf("schedule (-got +want):\n%s", diff)
	}
}

func TestTriggerRules(t *testing.T) {
	rules := resourcesOf(central, "AWS::Events::Rule")
	onBus := 0
	for _, r := range rules {
		if r.props["ScheduleExpression"] != nil {
			continue // the flush (TestTriggerFlush)
		}
		pattern := r.props["EventPattern"].(map[string]any)
		if diff := cmp.Diff(pattern["detail-type"], []any{"AWS API Call via CloudTrail"}); diff != "" {
			t.Errorf("%s detail-type (-got +want):\n%s", r.id, diff)
		}
		detail := pattern["detail"].(map[string]any)
		if diff := cmp.Diff(detail, wantChangeDetail(triggerSources())); diff != "" {
			t.Errorf("%s detail (-got +want):\n%s", r.id, diff)
		}
		targets := r.props["Targets"].([]any)
		arn := targets[0].(map[string]any)["Arn"].(map[string]any)["Fn::GetAtt"].([]any)[0].(string)
		if len(targets) != 1 || !strings.HasPrefix(arn, "FnTrigger") {
			t.Errorf("%s targets %v, want the trigger function", r.id, targets)
		}
		if r.props["EventBusName"] != nil {
			onBus++
		}
	}
	if onBus != 1 {
		t.Errorf("%d rules on the realdrift bus, want 1 (member changes) beside the default-bus rule", onBus)
	}
	check(t, "bus policy", func() {
		template.HasResourceProperties(jsii.String("AWS::Events::EventBusPolicy"), map[string]any{
			"Statement": map[string]any{
				"Action":    "events:PutEvents",
				"Condition": map[string]any{"StringEquals": map[string]any{"aws:PrincipalOrgID": map[string]any{"Ref": "OrganizationId"}}},
			},
		})
	})
}

func TestStackSet(t *testing.T) {
	check(t, "stack set", func() {
		template.HasResourceProperties(jsii.String("AWS::CloudFormation::StackSet"), map[string]any{
			"StackSetName":     MemberStackSetName,
			"PermissionModel":  "SERVICE_MANAGED",
			"AutoDeployment":   map[string]any{"Enabled": true, "RetainStacksOnAccountRemoval": false},
			"Capabilities":     []any{"CAPABILITY_NAMED_IAM"},
			"ManagedExecution": map[string]any{"Active": true},
		})
	})
	if member == nil {
		t.Fatal("no member template body")
	}
	if _, ok := member["Parameters"].(map[string]any)["BootstrapVersion"]; ok {
		t.Error("member template needs CDK bootstrap; member accounts have none")
	}
}

func TestMemberReadRole(t *testing.T) {
	var role *resource
	for _, r := range resourcesOf(member, "AWS::IAM::Role") {
		if r.props["RoleName"] == ReadRoleName {
			role = &r
		}
	}
	if role == nil {
		t.Fatal("no member read role")
	}
	if role.body["Condition"] != "InRoleRegion" {
		t.Errorf("read role Condition = %v, want InRoleRegion (IAM is global: one region creates it)", role.body["Condition"])
	}
	trust := role.props["AssumeRolePolicyDocument"].(map[string]any)["Statement"].([]any)
	if len(trust) != 1 {
		t.Fatalf("trust statements %v, want 1", trust)
	}
	st := trust[0].(map[string]any)
	cond := st["Condition"].(map[string]any)
	if diff := cmp.Diff(cond["StringEquals"], map[string]any{"aws:PrincipalOrgID": map[string]any{"Ref": "OrganizationId"}}); diff != "" {
		t.Errorf("trust PrincipalOrgID (-got +want):\n%s", diff)
	}
	var trusted []string
	for _, a := range cond["ArnEquals"].(map[string]any)["aws:PrincipalArn"].([]any) {
		b, _ := json.Marshal(a)
		trusted = append(trusted, string(b))
	}
	if len(trusted) != len(readerRoleNames()) {
		t.Errorf("trusted principals %v, want the %d reader roles", trusted, len(readerRoleNames()))
	}
	for i, name := range readerRoleNames() {
		if i < len(trusted) && (!strings.Contains(trusted[i], `:role/`+name+`"`) || !strings.Contains(trusted[i], `CentralAccountId`)) {
			t.Errorf("trusted principal %s, want the central account's %s role", trusted[i], name)
		}
	}
	if b, _ := json.Marshal(st["Principal"]); !strings.Contains(string(b), "CentralAccountId") {
		t.Errorf("trust principal %s, want the central account", b)
	}
	if diff := cmp.Diff(role.props["ManagedPolicyArns"], []any{map[string]any{"Fn::Join": []any{"", []any{"arn:", map[string]any{"Ref": "AWS::Partition"}, ":iam::aws:policy/SecurityAudit"}}}}); diff != "" {
		t.Errorf("managed policies: want only the read-only SecurityAudit (-got +want):\n%s", diff)
	}
	for _, st := range statements(t, member) {
		if st.role != role.id || st.effect != "Allow" {
			continue
		}
		for _, a := range st.actions {
			if !readAction(a) {
				t.Errorf("read role allows %s, which is not a read action", a)
			}
		}
	}
}

// TestReadHandlerGrants: the read role holds, through Cloud Control only,
// the read verbs the read and list handlers of the read handler types
// list, in managed policies IAM accepts, created with the role.
func TestReadHandlerGrants(t *testing.T) {
	want, err := readHandlerActions(readHandlerTypes(nil))
	if err != nil {
		t.Fatal(err)
	}
	got := checkHandlerGrants(t, "ReadHandlers", memberRole(t, ReadRoleName), "InRoleRegion", viaAWSService, want)
	for _, a := range got {
		if slices.Contains(dataReadDenials(), a) {
			t.Errorf("the read role's handler grants hold the data read %s", a)
		}
	}
	if !slices.Contains(got, "sqs:GetQueueAttributes") {
		t.Error("the read role is not granted sqs:GetQueueAttributes for Cloud Control's SQS queue reads")
	}
	t.Logf("%d read handler types: %d actions", len(readHandlerTypes(nil)), len(got))
}

// viaAWSService is the condition of a handler grant: through AWS services
// only.
var viaAWSService = map[string]any{"Bool": map[string]any{"aws:ViaAWSService": "true"}}

// checkHandlerGrants checks the member template's managed policies PREFIXnn:
// each under cond, attached to role only, within IAM's 6,144 characters,
// its statements Allows under the condition wantCond (viaAWSService, or
// narrower) whose actions together are want. It returns those actions.
func checkHandlerGrants(t *testing.T, prefix string, role resource, cond string, wantCond map[string]any, want []string) []string {
	t.Helper()
	policies := 0
	for _, r := range resourcesOf(member, "AWS::IAM::ManagedPolicy") {
		if !strings.HasPrefix(r.id, prefix) {
			continue
		}
		policies++
		if r.body["Condition"] != cond {
			t.Errorf("%s: Condition %v, want %s", r.id, r.body["Condition"], cond)
		}
		if roles := r.props["Roles"].([]any); len(roles) != 1 || refID(roles[0]) != role.id {
			t.Errorf("%s attached to %v, want only %s", r.id, roles, role.id)
		}
		b, _ := json.Marshal(r.props["PolicyDocument"])
		if n := len(strings.Join(strings.Fields(string(b)), "")); n > 6144 {
			t.Errorf("%s: %d characters, IAM allows 6,144", r.id, n)
		}
	}
	var got []string
	for _, st := range statements(t, member) {
		if !strings.HasPrefix(st.sid, prefix) {
			continue
		}
		if st.role != role.id || st.effect != "Allow" || !cmp.Equal(st.condition, wantCond) {
			t.Errorf("%s: role %s, effect %s, condition %v; want an Allow on %s under %v", st.sid, st.role, st.effect, st.condition, role.id, wantCond)
		}
		got = append(got, st.actions...)
	}
	slices.Sort(got)
	if diff := cmp.Diff(got, want); diff != "" || len(got) == 0 {
		t.Errorf("%s grants (-got +want):\n%s", prefix, diff)
	}
	t.Logf("%s: %d actions in %d managed policies", prefix, len(got), policies)
	return got
}

func TestMemberForwarding(t *testing.T) {
	rules := resourcesOf(member, "AWS::Events::Rule")
	if len(rules) != 1 {
		t.Fatalf("%d member rules, want 1", len(rules))
	}
	target := rules[0].props["Targets"].([]any)[0].(map[string]any)
	if diff := cmp.Diff(target["Arn"], map[string]any{"Ref": "CentralEventBusArn"}); diff != "" {
		t.Errorf("forward target (-got +want):\n%s", diff)
	}
	if target["RoleArn"] == nil {
		t.Error("forward target has no role")
	}
	seen := 0
	for _, st := range statements(t, member) {
		if st.effect != "Allow" || !strings.HasPrefix(st.role, "ForwardRole") {
			continue
		}
		seen++
		if diff := cmp.Diff(st.actions, []string{"events:PutEvents"}); diff != "" {
			t.Errorf("forward role actions (-got +want):\n%s", diff)
		}
	}
	if seen == 0 {
		t.Error("no forward role policy found")
	}
}

// statement is one IAM policy statement with the role it belongs to.
type statement struct {
	where     string
	role      string
	sid       string
	effect    string
	actions   []string
	resources []string
	condition map[string]any
}

func strs(v any) []string {
	switch x := v.(type) {
	case string:
		return []string{x}
	case []any:
		var out []string
		for _, e := range x {
			if s, ok := e.(string); ok {
				out = append(out, s)
			} else {
				b, _ := json.Marshal(e)
				out = append(out, string(b))
			}
		}
		return out
	case nil:
		return nil
	default:
		b, _ := json.Marshal(x)
		return []string{string(b)}
	}
}

// statements lists every identity-policy statement of a template: inline
// role policies, AWS::IAM::Policy documents and customer managed policies
// attached to the template's roles.
func statements(t *testing.T, tpl map[string]any) []statement {
	t.Helper()
	var out []statement
	add := func(where, role string, doc any) {
		for _, s := range doc.(map[string]any)["Statement"].([]any) {
			s := s.(map[string]any)
			cond, _ := s["Condition"].(map[string]any)
			sid, _ := s["Sid"].(string)
			out = append(out, statement{where: where, role: role, sid: sid, effect: s["Effect"].(string), actions: strs(s["Action"]), resources: strs(s["Resource"]), condition: cond})
		}
	}
	for _, r := range resourcesOf(tpl, "AWS::IAM::Role") {
		policies, _ := r.props["Policies"].([]any)
		for _, p := range policies {
			add(r.id, r.id, p.(map[string]any)["PolicyDocument"])
		}
	}
	for _, r := range resourcesOf(tpl, "AWS::IAM::Policy") {
		for _, role := range r.props["Roles"].([]any) {
			add(r.id, role.(map[string]any)["Ref"].(string), r.props["PolicyDocument"])
		}
	}
	for _, r := range resourcesOf(tpl, "AWS::IAM::ManagedPolicy") {
		roles, _ := r.props["Roles"].([]any)
		for _, role := range roles {
			add(r.id, role.(map[string]any)["Ref"].(string), r.props["PolicyDocument"])
		}
	}
	if len(out) == 0 {
		t.Fatal("no IAM statements found")
	}
	return out
}

var readVerb = regexp.MustCompile(`^[a-z0-9-]+:(Get|List|Describe|BatchGet|Query|Scan|Search|Lookup|View)[A-Za-z0-9]*$`)

func readAction(a string) bool { return readVerb.MatchString(a) }

// starResourceWrites are write actions AWS grants only on "*": the log
// delivery calls Step Functions makes for Express logging.
func starResourceWrites() map[string]bool {
	return map[string]bool{
		"logs:CreateLogDelivery": true, "logs:UpdateLogDelivery": true, "logs:DeleteLogDelivery": true,
		"logs:PutResourcePolicy": true,
		// X-Ray tracing of the sweep and check-stack state machines.
		"xray:PutTraceSegments": true, "xray:PutTelemetryRecords": true,
	}
}

// revertAction matches write actions only the member revert role may hold.
var revertAction = regexp.MustCompile(`^(cloudcontrol:(Create|Update|Delete)Resource|cloudformation:(Create|Update|Delete|Execute|Continue|Rollback|Cancel|Import|Set|Signal)\w*|iam:PassRole|\w+:(Put|Update|Modify|Delete|Create|Attach|Detach|Tag|Untag)\w*)$`)

// allowedWrites are the write actions the service needs, by owner.
func allowedWrites() map[string]bool {
	return map[string]bool{
		"logs:CreateLogStream": true, "logs:PutLogEvents": true,
		"dynamodb:PutItem": true, "dynamodb:UpdateItem": true, "dynamodb:DeleteItem": true, "dynamodb:BatchWriteItem": true,
		"sns:Publish": true, "events:PutEvents": true,
		"states:StartExecution": true, "states:StopExecution": true,
		"states:SendTaskSuccess": true, "states:SendTaskFailure": true,
		"lambda:InvokeFunction": true, "sts:AssumeRole": true,
		"sqs:SendMessage": true,
		// The sweep's stack lists and Distributed Map results (runs/*).
		"s3:PutObject": true, "s3:AbortMultipartUpload": true,
	}
}

func TestLeastPrivilege(t *testing.T) {
	for name, tpl := range map[string]map[string]any{"central": central, "member": member} {
		for _, st := range statements(t, tpl) {
			if st.effect != "Allow" {
				continue
			}
			for _, a := range st.actions {
				where := name + " " + st.where + " " + a
				if strings.Contains(a, "*") {
					t.Errorf("%s: wildcard action", where)
				}
				// The opt-in revert role's writes: TestMemberRevertRole.
				if name == "member" && st.role == revertRoleID(t) {
					continue
				}
				// The opt-in findings role's two calls: TestSecurityHubOptIn.
				if name == "member" && st.role == findingsRole(t).id {
					continue
				}
				read := readAction(a) || a == "dynamodb:ConditionCheckItem" || a == "dynamodb:GetRecords" || a == "dynamodb:GetShardIterator"
				if read {
					continue
				}
				if revertAction.MatchString(a) && !allowedWrites()[a] && !starResourceWrites()[a] {
					t.Errorf("%s: revert or infrastructure write permission", where)
				}
				if !allowedWrites()[a] && !starResourceWrites()[a] {
					t.Errorf("%s: write action not in the service's list", where)
				}
				for _, r := range st.resources {
					if r == "*" && !starResourceWrites()[a] {
						t.Errorf("%s: write action on every resource", where)
					}
				}
			}
		}
	}
}

// TestAssumeOnlyMemberRoles: the central functions assume the member read
// role, only revert-write the member revert role, and only notify the
// member findings role.
func TestAssumeOnlyMemberRoles(t *testing.T) {
	names := roleNames(central)
	for _, st := range statements(t, central) {
		for _, a := range st.actions {
			if a != "sts:AssumeRole" {
				continue
			}
			for _, r := range st.resources {
				switch {
				case strings.Contains(r, ":role/"+ReadRoleName+`"`):
				case strings.Contains(r, ":role/"+RevertRoleName+`"`):
					if names[st.role] != "realdrift-revert-write" {
						t.Errorf("%s (%s) may assume the revert role, want only realdrift-revert-write", st.where, names[st.role])
					}
				case strings.Contains(r, ":role/"+FindingsRoleName+`"`):
					if names[st.role] != "realdrift-notify" {
						t.Errorf("%s (%s) may assume the findings role, want only realdrift-notify", st.where, names[st.role])
					}
				default:
					t.Errorf("%s may assume %s, want only the member read, revert and findings roles", st.where, r)
				}
			}
		}
	}
}

func TestMissingLambdas(t *testing.T) {
	cfg := Config{LambdaDir: t.TempDir(), StateMachineDir: "../statemachine", PlaceholderDir: "placeholder", SweepSchedule: DefaultSweepSchedule}
	if _, _, err := cfg.assetDirs(); err == nil || !strings.Contains(err.Error(), "make lambdas") {
		t.Errorf("assetDirs without binaries: %v, want an error naming make lambdas", err)
	}
	cfg.AllowMissingLambdas = true
	dirs, missing, err := cfg.assetDirs()
	if err != nil {
		t.Fatal(err)
	}
	if len(missing) != len(functions()) || dirs["discover"] != "placeholder" {
		t.Errorf("missing %v, discover asset %s; want every function on the placeholder", missing, dirs["discover"])
	}
}

func TestConfigValidate(t *testing.T) {
	for _, tt := range []struct {
		schedule string
		ok       bool
	}{
		{"rate(6 hours)", true},
		{"rate(1 day)", true},
		{"cron(0 3 * * ? *)", true},
		{"rate(0 hours)", false},
		{"every 6 hours", false},
		{"rate(6 weeks)", false},
	} {
		t.Run(tt.schedule, func(t *testing.T) {
			cfg := Config{LambdaDir: "x", StateMachineDir: "y", SweepSchedule: tt.schedule}
			if err := cfg.Validate(); (err == nil) != tt.ok {
				t.Errorf("Validate(%q) = %v, want ok=%v", tt.schedule, err, tt.ok)
			}
		})
	}
}
