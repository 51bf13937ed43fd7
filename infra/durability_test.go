package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func readFile(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func js(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}

// resourceByPrefix returns the one resource of typ whose logical id starts
// with prefix.
func resourceByPrefix(t *testing.T, tpl map[string]any, typ, prefix string) resource {
	t.Helper()
	var found []resource
	for _, r := range resourcesOf(tpl, typ) {
		if strings.HasPrefix(r.id, prefix) {
			found = append(found, r)
		}
	}
	if len(found) != 1 {
		t.Fatalf("%d %s resources named %s*, want 1", len(found), typ, prefix)
	}
	return found[0]
}

// keyStatements returns a key's policy statements by Sid.
func keyStatements(t *testing.T, key resource) map[string]map[string]any {
	t.Helper()
	out := map[string]map[string]any{}
	for _, s := range key.props["KeyPolicy"].(map[string]any)["Statement"].([]any) {
		s := s.(map[string]any)
		sid, _ := s["Sid"].(string)
		out[sid] = s
	}
	return out
}

func TestKeys(t *testing.T) {
	keys := resourcesOf(central, "AWS::KMS::Key")
	if len(keys) != 2 {
		t.Errorf("%d keys, want 2 (logs, messages)", len(keys))
	}
	for _, k := range keys {
		if k.props["EnableKeyRotation"] != true {
			t.Errorf("%s: EnableKeyRotation = %v, want true", k.id, k.props["EnableKeyRotation"])
		}
		if k.body["DeletionPolicy"] != "Retain" {
			t.Errorf("%s: DeletionPolicy = %v, want Retain (deleting a key loses what it encrypted)", k.id, k.body["DeletionPolicy"])
		}
		if spec, ok := k.props["KeySpec"]; ok && spec != "SYMMETRIC_DEFAULT" {
			t.Errorf("%s: KeySpec %v, want symmetric", k.id, spec)
		}
	}
	// Identity policies never grant KMS: the key policies name who may
	// use each key.
	for _, st := range statements(t, central) {
		for _, a := range st.actions {
			if strings.HasPrefix(a, "kms:") && st.effect == "Allow" {
				t.Errorf("%s %s grants %s; key use belongs in the key policy", st.where, st.sid, a)
			}
		}
	}
}

func TestLogsKey(t *testing.T) {
	key := resourceByPrefix(t, central, "AWS::KMS::Key", "LogsKey")
	st := keyStatements(t, key)["CloudWatchLogsEncrypt"]
	if st == nil {
		t.Fatal("logs key policy has no CloudWatchLogsEncrypt statement")
	}
	if got := js(st["Principal"]); !strings.Contains(got, `"logs.",{"Ref":"AWS::Region"},".amazonaws.com"`) {
		t.Errorf("principal %s, want the regional CloudWatch Logs service", got)
	}
	acts := strs(st["Action"])
	for _, a := range []string{"kms:Encrypt", "kms:Decrypt", "kms:GenerateDataKey"} {
		if !contains(acts, a) {
			t.Errorf("CloudWatch Logs may not %s with the logs key (actions %v)", a, acts)
		}
	}
	if got := js(st["Condition"]); !strings.Contains(got, `"ArnLike":{"kms:EncryptionContext:aws:logs:arn"`) || !strings.Contains(got, `":log-group:*"`) {
		t.Errorf("condition %s, want the encryption context limited to this account's log groups", got)
	}
	groups := resourcesOf(central, "AWS::Logs::LogGroup")
	if len(groups) != len(functions())+4 {
		t.Errorf("%d log groups, want one per function and per state machine", len(groups))
	}
	for _, g := range groups {
		if refID(g.props["KmsKeyId"]) != key.id {
			t.Errorf("log group %s: KmsKeyId %v, want the logs key", g.id, g.props["KmsKeyId"])
		}
	}
}

func TestMessagesKey(t *testing.T) {
	key := resourceByPrefix(t, central, "AWS::KMS::Key", "MessagesKey")
	topic := resourceByPrefix(t, central, "AWS::SNS::Topic", "Alerts")
	if refID(topic.props["KmsMasterKeyId"]) != key.id {
		t.Errorf("alert topic KmsMasterKeyId %v, want the messages key", topic.props["KmsMasterKeyId"])
	}
	sts := keyStatements(t, key)
	for _, tt := range []struct {
		sid, principal, via string
	}{
		{"AlertPublishers", "RoleNotify", "sns."},
		{"TriggerDeadLetterWriters", "RoleTrigger", "sqs."},
		{"ScheduleDeadLetterWriters", "SchedulerRole", "sqs."},
	} {
		t.Run(tt.sid, func(t *testing.T) {
			st := sts[tt.sid]
			if st == nil {
				t.Fatalf("no %s statement in the messages key policy", tt.sid)
			}
			if p := js(st["Principal"]); !strings.Contains(p, `"Fn::GetAtt":["`+tt.principal) {
				t.Errorf("principal %s, want %s", p, tt.principal)
			}
			if diff := cmp.Diff(strs(st["Action"]), []string{"kms:Decrypt", "kms:GenerateDataKey"}); diff != "" {
				t.Errorf("actions (-got +want):\n%s", diff)
			}
			if c := js(st["Condition"]); !strings.Contains(c, `"kms:ViaService":{"Fn::Join":["",["`+tt.via) {
				t.Errorf("condition %s, want use only through %samazonaws.com", c, tt.via)
			}
		})
	}
	st := sts["EventBridgeDeadLetters"]
	if st == nil {
		t.Fatal("no EventBridgeDeadLetters statement in the messages key policy")
	}
	if p := js(st["Principal"]); p != `{"Service":"events.amazonaws.com"}` {
		t.Errorf("principal %s, want EventBridge", p)
	}
	c := js(st["Condition"])
	for _, rule := range []string{":rule/" + LocalTriggerRuleName + `"`, ":rule/" + EventBusName + "/" + MemberTriggerRuleName + `"`, ":rule/" + FlushRuleName + `"`} {
		if !strings.Contains(c, rule) {
			t.Errorf("EventBridge may use the key for %s, want only the trigger rules (condition %s)", rule, c)
		}
	}
	for _, r := range resourcesOf(central, "AWS::Events::Rule") {
		if r.props["Name"] != LocalTriggerRuleName && r.props["Name"] != MemberTriggerRuleName && r.props["Name"] != FlushRuleName {
			t.Errorf("rule %s is named %v; the key policy names the rules by name", r.id, r.props["Name"])
		}
	}
}

// deadLetterQueue checks arn names an encrypted SQS queue of tpl and
// returns it.
func deadLetterQueue(t *testing.T, where string, tpl map[string]any, arn any) *resource {
	t.Helper()
	id := refID(arn)
	for _, q := range resourcesOf(tpl, "AWS::SQS::Queue") {
		if q.id != id {
			continue
		}
		kms := refID(q.props["KmsMasterKeyId"])
		if !strings.HasPrefix(kms, "MessagesKey") && q.props["SqsManagedSseEnabled"] != true {
			t.Errorf("%s: dead-letter queue %s is not encrypted (KmsMasterKeyId %v)", where, q.id, q.props["KmsMasterKeyId"])
		}
		if p, _ := q.props["MessageRetentionPeriod"].(float64); p < 4*24*3600 {
			t.Errorf("%s: dead-letter queue %s keeps messages %vs, want days", where, q.id, q.props["MessageRetentionPeriod"])
		}
		return &q
	}
	t.Errorf("%s: dead letters go to %v, want an SQS queue of the template", where, arn)
	return nil
}

// retryPolicy checks a bounded retry policy (attempts and age both set).
func retryPolicy(t *testing.T, where string, v any) {
	t.Helper()
	p, _ := v.(map[string]any)
	attempts, ok1 := p["MaximumRetryAttempts"].(float64)
	age, ok2 := p["MaximumEventAgeInSeconds"].(float64)
	if !ok1 || !ok2 || attempts < 1 || age < 60 {
		t.Errorf("%s: retry policy %v, want MaximumRetryAttempts >= 1 and MaximumEventAgeInSeconds set", where, v)
	}
}

// queueAllowsRule checks queue's policy lets EventBridge send for rule only.
func queueAllowsRule(t *testing.T, where string, tpl map[string]any, queue, rule string) {
	t.Helper()
	for _, qp := range resourcesOf(tpl, "AWS::SQS::QueuePolicy") {
		if !strings.Contains(js(qp.props["Queues"]), `"`+queue+`"`) {
			continue
		}
		for _, s := range qp.props["PolicyDocument"].(map[string]any)["Statement"].([]any) {
			s := s.(map[string]any)
			if s["Effect"] == "Allow" && js(s["Principal"]) == `{"Service":"events.amazonaws.com"}` &&
				js(s["Action"]) == `"sqs:SendMessage"` && strings.Contains(js(s["Condition"]), `"aws:SourceArn":{"Fn::GetAtt":["`+rule+`","Arn"]}`) {
				return
			}
		}
	}
	t.Errorf("%s: queue %s does not let EventBridge send dead letters of rule %s", where, queue, rule)
}

func TestEventBridgeTargets(t *testing.T) {
	for name, tpl := range map[string]map[string]any{"central": central, "member": member} {
		rules := resourcesOf(tpl, "AWS::Events::Rule")
		if len(rules) == 0 {
			t.Errorf("%s: no rules", name)
		}
		for _, r := range rules {
			for i, tg := range r.props["Targets"].([]any) {
				tg := tg.(map[string]any)
				where := name + " " + r.id + " target " + js(i)
				dlc, _ := tg["DeadLetterConfig"].(map[string]any)
				q := deadLetterQueue(t, where, tpl, dlc["Arn"])
				if q != nil {
					queueAllowsRule(t, where, tpl, q.id, r.id)
				}
				if _, isBus := tg["RoleArn"]; isBus && refID(tg["Arn"]) == "CentralEventBusArn" {
					// EventBridge retries delivery to another account's
					// bus with its default policy; bus targets take none.
					continue
				}
				retryPolicy(t, where, tg["RetryPolicy"])
			}
		}
	}
}

func TestScheduleDelivery(t *testing.T) {
	sched := resourcesOf(central, "AWS::Scheduler::Schedule")
	if len(sched) != 1 {
		t.Fatalf("%d schedules, want 1", len(sched))
	}
	target := sched[0].props["Target"].(map[string]any)
	retryPolicy(t, "schedule", target["RetryPolicy"])
	dlc, _ := target["DeadLetterConfig"].(map[string]any)
	q := deadLetterQueue(t, "schedule", central, dlc["Arn"])
	if q == nil {
		return
	}
	// The Scheduler sends dead letters with the schedule's role.
	role := refID(target["RoleArn"])
	if !roleSends(t, role, q.id) {
		t.Errorf("schedule role %s may not send to its dead-letter queue %s", role, q.id)
	}
}

// roleSends reports whether role may sqs:SendMessage to queue.
func roleSends(t *testing.T, role, queue string) bool {
	for _, st := range statements(t, central) {
		if st.role == role && st.effect == "Allow" && contains(st.actions, "sqs:SendMessage") {
			for _, r := range st.resources {
				if refIDString(r) == queue {
					return true
				}
			}
		}
	}
	return false
}

// TestAsyncInvocations holds every asynchronously invoked function (one
// EventBridge, S3, SNS, ... may invoke: a lambda:InvokeFunction permission
// for a service) to a bounded retry policy and an on-failure destination.
// The state machines invoke synchronously, through their roles.
func TestAsyncInvocations(t *testing.T) {
	async := map[string]bool{}
	for _, p := range resourcesOf(central, "AWS::Lambda::Permission") {
		if strings.HasSuffix(js(p.props["Principal"]), `.amazonaws.com"`) {
			async[refID(p.props["FunctionName"])] = true
		}
	}
	if len(async) == 0 {
		t.Fatal("no asynchronously invoked function found (the trigger is one)")
	}
	configs := map[string]resource{}
	for _, c := range resourcesOf(central, "AWS::Lambda::EventInvokeConfig") {
		configs[refID(c.props["FunctionName"])] = c
	}
	var fns []string
	for fn := range async {
		fns = append(fns, fn)
	}
	sort.Strings(fns)
	for _, fn := range fns {
		t.Run(fn, func(t *testing.T) {
			c, ok := configs[fn]
			if !ok {
				t.Fatalf("%s is invoked asynchronously but has no EventInvokeConfig", fn)
			}
			if c.props["Qualifier"] != "$LATEST" {
				t.Errorf("qualifier %v, want $LATEST (the function is invoked unqualified)", c.props["Qualifier"])
			}
			retryPolicy(t, fn, c.props)
			dest, _ := c.props["DestinationConfig"].(map[string]any)
			onFailure, _ := dest["OnFailure"].(map[string]any)
			q := deadLetterQueue(t, fn+" on failure", central, onFailure["Destination"])
			if q == nil {
				return
			}
			// Lambda sends to the destination with the function's role.
			var role string
			for _, f := range resourcesOf(central, "AWS::Lambda::Function") {
				if f.id == fn {
					role = refID(f.props["Role"])
				}
			}
			if !roleSends(t, role, q.id) {
				t.Errorf("%s's role %s may not send to its on-failure destination %s", fn, role, q.id)
			}
			if !strings.Contains(js(c.body["DependsOn"]), role) {
				t.Errorf("EventInvokeConfig does not depend on %s: Lambda checks the destination permission on creation", role)
			}
		})
	}
}

func TestStateMachineLogging(t *testing.T) {
	key := resourceByPrefix(t, central, "AWS::KMS::Key", "LogsKey")
	for _, name := range []string{SweepStateMachineName, CheckStackStateMachineName, RevertStateMachineName, AcceptStateMachineName} {
		t.Run(name, func(t *testing.T) {
			var sm *resource
			for _, r := range resourcesOf(central, "AWS::StepFunctions::StateMachine") {
				if r.props["StateMachineName"] == name {
					sm = &r
				}
			}
			if sm == nil {
				t.Fatalf("no state machine %s", name)
			}
			lc, _ := sm.props["LoggingConfiguration"].(map[string]any)
			if lc["Level"] != "ALL" {
				t.Errorf("logging level %v, want ALL", lc["Level"])
			}
			// Payloads are references (TestStateMachinePayloadsAreReferences),
			// so execution data is logged; except the revert's: its approval
			// step's input carries the task token.
			if want := name != RevertStateMachineName; lc["IncludeExecutionData"] != want {
				t.Errorf("IncludeExecutionData %v, want %v", lc["IncludeExecutionData"], want)
			}
			dests, _ := lc["Destinations"].([]any)
			if len(dests) != 1 {
				t.Fatalf("log destinations %v, want 1", dests)
			}
			group := refID(dests[0].(map[string]any)["CloudWatchLogsLogGroup"].(map[string]any)["LogGroupArn"])
			var lg *resource
			for _, g := range resourcesOf(central, "AWS::Logs::LogGroup") {
				if g.id == group {
					lg = &g
				}
			}
			if lg == nil {
				t.Fatalf("logs go to %s, not a log group of the stack", group)
			}
			if refID(lg.props["KmsKeyId"]) != key.id {
				t.Errorf("log group %s is not encrypted with the logs key", lg.id)
			}
			dpp := js(lg.props["DataProtectionPolicy"])
			for _, id := range []string{"AwsSecretKey", "OpenSshPrivateKey", "PkcsPrivateKey"} {
				if !strings.Contains(dpp, "data-identifier/"+id+`"`) {
					t.Errorf("log group %s does not mask %s", lg.id, id)
				}
			}
			if !strings.Contains(dpp, `"Deidentify":{"MaskConfig":{}}`) {
				t.Errorf("log group %s data protection policy does not mask (%s)", lg.id, dpp)
			}
		})
	}
}

// referenceFields are every field the definitions may put into a state's
// input or output (Parameters and ItemSelector keys, ResultPath names),
// each a reference or a small summary (statemachine/payload.go): logging
// execution data logs only these. A new field must be one too, or the
// state machines' IncludeExecutionData must become false.
func referenceFields() map[string]string {
	return map[string]string{
		"runId": "run id", "stack": "StackRef", "account": "account id", "trigger": "sweep|event",
		"desiredKey": "store key", "resolvedKey": "store key", "findingsKey": "store key",
		"batch": "batch number", "counts": "counts by tier", "action": "persist action", "kind": "notify kind",
		"status": "checked|failed|deferred", "changed": "bool", "resources": "resource count", "summary": "RunSummary (counts)",
		"error": "error name", "cause": "handler error message",
		// ResultPath names: Desired, Resolved, Classified, Persisted,
		// DiscoveredAccounts/Targets, a caught error.
		"desired": "key, resource count, batch numbers", "resolved": "key, parent batch numbers",
		"classified": "key, counts", "persisted": "changed", "failure": "Error, Cause",
		"discovered": "account ids, accountsAtOnce / RegionTargets", "recordFailure": "nothing (persist record-failure)",
		"region":    "RegionTargets: region, stack count, the S3 bucket, key and results prefix of its stack list (inline StackRefs only locally)",
		"stacksRun": "the Stacks Map Run's ARN and manifest bucket and key", "results": "ResultWriterDetails: bucket, key",
		"large": "RegionTargets of the large stacks' list",
		// The revert (not logged with execution data: see TestStateMachineLogging).
		"request": "the execution input: StackRef fields, finding globs, all, dryRun", "execution": "execution ARN",
		"planKey": "store key", "resource": "plan resource number", "auditKey": "store key", "key": "store key",
		"items": "count", "notRevertable": "count", "plan": "RevertPlanned: key, counts, resource numbers",
		"approval": "Approval: approver, via, time, reason", "converged": "key, counts", "audit": "RevertAudited: key, status, counts",
		"writeFailure": "Error, Cause", "auditFailure": "Error, Cause", "notifyFailure": "Error, Cause",
		"FunctionName": "function ARN", "Payload": "the approval task's payload: references and the task token",
		// The accept (logged with execution data): its request is the
		// execution input (StackRef fields, finding globs, the reason a
		// person gave).
		"accepted": "AcceptAudited: key, status, counts", "audited": "AcceptAudited of a failed accept",
	}
}

func TestStateMachinePayloadsAreReferences(t *testing.T) {
	allowed := referenceFields()
	for _, file := range []string{"sweep", "check-stack", "revert", "accept"} {
		var def map[string]any
		if err := json.Unmarshal([]byte(readFile(t, filepath.Join("..", "statemachine", file+".asl.json"))), &def); err != nil {
			t.Fatal(err)
		}
		var walk func(states map[string]any)
		walk = func(states map[string]any) {
			for name, s := range states {
				s := s.(map[string]any)
				for _, field := range []string{"Parameters", "ItemSelector", "ResultSelector"} {
					params, _ := s[field].(map[string]any)
					for k := range params {
						if _, ok := allowed[strings.TrimSuffix(k, ".$")]; !ok {
							t.Errorf("%s %s %s passes %q: make sure it is a reference (logged with execution data) and list it in referenceFields", file, name, field, k)
						}
					}
				}
				for _, field := range []string{"ResultPath", "OutputPath", "InputPath"} {
					p, ok := s[field].(string)
					if !ok || p == "$" {
						continue
					}
					top := strings.SplitN(strings.TrimPrefix(p, "$."), ".", 2)[0]
					if _, ok := allowed[top]; !ok {
						t.Errorf("%s %s %s is %q: make sure it holds a reference and list it in referenceFields", file, name, field, p)
					}
				}
				if ip, ok := s["ItemProcessor"].(map[string]any); ok {
					walk(ip["States"].(map[string]any))
				}
			}
		}
		walk(def["States"].(map[string]any))
	}
}

func TestTableDeletionProtection(t *testing.T) {
	for _, r := range resourcesOf(central, "AWS::DynamoDB::Table") {
		if r.props["DeletionProtectionEnabled"] != true {
			t.Errorf("table %s DeletionProtectionEnabled = %v, want true", r.id, r.props["DeletionProtectionEnabled"])
		}
		pitr, _ := r.props["PointInTimeRecoverySpecification"].(map[string]any)
		if pitr["PointInTimeRecoveryEnabled"] != true {
			t.Errorf("table %s point-in-time recovery %v, want enabled", r.id, pitr)
		}
	}
}

func contains(list []string, s string) bool {
	for _, e := range list {
		if e == s {
			return true
		}
	}
	return false
}
