package service_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http/httptest"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/credentials"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	awslambda "github.com/aws/aws-sdk-go-v2/service/lambda"
	"github.com/google/go-cmp/cmp"

	"github.com/realdrift/realdrift/internal/cli"
	"github.com/realdrift/realdrift/internal/drift"
	"github.com/realdrift/realdrift/internal/sandbox"
	"github.com/realdrift/realdrift/internal/service"
	"github.com/realdrift/realdrift/internal/store"
	"github.com/realdrift/realdrift/statemachine"
	"github.com/realdrift/realdrift/statemachine/statemachinetest"
)

// e2e is the running local deployment: the sandbox organisation, DynamoDB
// Local, the real handlers behind a Lambda Invoke router, the Slack webhook,
// Secrets Manager and Step Functions StartExecution stand-ins.
type e2e struct {
	local      statemachine.Local
	plan       []e2eStack
	sandbox    *sandbox.Server
	sandboxURL string
	lambdaURL  string
	store      *store.Dynamo
	svc        *service.Service
	hook       *webhook
	starts     *starts
	stateDir   string
	checkARN   string
}

func startE2E(t *testing.T) *e2e {
	t.Helper()
	l := statemachinetest.Local(t)
	ddbURL := dynamoEndpoint(t)
	ctx := t.Context()
	e := &e2e{local: l, plan: e2ePlan(), hook: &webhook{}, starts: &starts{}}

	sb, err := sandbox.New(e2eWorld(e.plan), sandbox.Options{OperationDelay: time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	e.sandbox = sb
	sbSrv := httptest.NewServer(denyStack(sb, lockedName))
	t.Cleanup(func() { sbSrv.Close(); sb.Close() })
	e.sandboxURL = sbSrv.URL

	hookSrv := httptest.NewServer(e.hook)
	t.Cleanup(hookSrv.Close)
	const slackSecret = "realdrift/slack-webhook"
	secSrv := httptest.NewServer(secrets{id: slackSecret, value: `{"url":"` + hookSrv.URL + `/services/T000/B000/e2e"}`})
	t.Cleanup(secSrv.Close)
	sfnSrv := httptest.NewServer(e.starts)
	t.Cleanup(sfnSrv.Close)

	table := fmt.Sprintf("realdrift-e2e-%d", time.Now().UnixNano())
	e.checkARN = "arn:aws:states:us-east-1:" + orgMgmt + ":stateMachine:realdrift-check-stack"
	set := service.Settings{
		Table:         table,
		Regions:       e2eRegions,
		ReadRoleName:  readRole,
		SlackSecretID: slackSecret,
		CheckStackARN: e.checkARN,
		Debounce:      time.Minute,
		Endpoints: service.Endpoints{
			Default: sbSrv.URL, DynamoDB: ddbURL, SecretsManager: secSrv.URL, StepFunctions: sfnSrv.URL,
		},
		AccessKeyID: accessKey(orgMgmt), SecretAccessKey: "e2e-secret",
	}
	cfg, err := service.AWSConfig(ctx, set, "us-east-1")
	if err != nil {
		t.Fatal(err)
	}
	db := dynamodb.NewFromConfig(cfg, func(o *dynamodb.Options) { o.BaseEndpoint = aws.String(ddbURL) })
	if err := store.CreateTable(ctx, db, table); err != nil {
		t.Fatal(err)
	}
	e.store = store.NewDynamo(db, table)
	if _, err := e.store.PutIgnoreRules(ctx, "", []byte(ignoreYAML), 0); err != nil {
		t.Fatal(err)
	}
	e.stateDir = t.TempDir()
	if err := os.WriteFile(filepath.Join(e.stateDir, "ignore.yaml"), []byte(ignoreYAML), 0o644); err != nil {
		t.Fatal(err)
	}
	if e.svc, err = service.New(cfg, set); err != nil {
		t.Fatal(err)
	}
	e.lambdaURL = statemachinetest.Serve(t, e.svc.Register)
	return e
}

func (e *e2e) stackNames() []string {
	var names []string
	for _, s := range e.plan {
		names = append(names, s.ref.Name)
	}
	return names
}

// sweep runs the real sweep definition and checks its state outputs.
func (e *e2e) sweep(t *testing.T, runID string) statemachine.RunSummary {
	t.Helper()
	ex, err := e.local.Run(t.Context(), statemachine.Run{
		Definition: statemachine.Sweep, Input: map[string]any{}, LambdaEndpoint: e.lambdaURL,
		ExecutionName: runID, Account: orgMgmt, RetryMillis: 1,
	})
	if err != nil {
		t.Fatal(err)
	}
	if ex.Status != "SUCCEEDED" {
		t.Fatalf("sweep %s: status %s, error %+v", runID, ex.Status, ex.Error)
	}
	statemachinetest.CheckStateOutputs(t, ex)
	var sum statemachine.RunSummary
	if err := json.Unmarshal(ex.Output, &sum); err != nil {
		t.Fatalf("sweep output %s: %v", ex.Output, err)
	}
	return sum
}

// checkStack runs the real check-stack definition for a captured start.
func (e *e2e) checkStack(t *testing.T, call startCall) statemachine.Execution {
	t.Helper()
	var in statemachine.CheckInput
	if err := json.Unmarshal([]byte(call.Input), &in); err != nil {
		t.Fatalf("start input %s: %v", call.Input, err)
	}
	ex, err := e.local.Run(t.Context(), statemachine.Run{
		Definition: statemachine.CheckStack, Input: in, LambdaEndpoint: e.lambdaURL,
		ExecutionName: call.Name, Account: orgMgmt, RetryMillis: 1,
	})
	if err != nil {
		t.Fatal(err)
	}
	statemachinetest.CheckStateOutputs(t, ex)
	return ex
}

// cliFindings runs `realdrift check --json` for one stack against the same
// sandbox with the account's own keys and the same ignore rules, and
// returns the stack's findings as generic JSON.
func (e *e2e) cliFindings(t *testing.T, ref drift.StackRef) any {
	t.Helper()
	env := map[string]string{
		"AWS_ACCESS_KEY_ID": accessKey(ref.Account), "AWS_SECRET_ACCESS_KEY": "e2e-secret",
		"HOME": t.TempDir(),
	}
	var stdout, stderr bytes.Buffer
	code := cli.Run(t.Context(), cli.IO{Stdout: &stdout, Stderr: &stderr, Getenv: func(k string) string { return env[k] }},
		[]string{"check", "--json", "--region", ref.Region, "--endpoint-url", e.sandboxURL, "--state-dir", e.stateDir, ref.Name})
	if code != 0 {
		t.Fatalf("realdrift check %s: exit %d\n%s", ref, code, stderr.String())
	}
	var rep struct {
		Stacks []struct {
			Stack, Account, Region string
			Findings               any
		}
	}
	if err := json.Unmarshal(stdout.Bytes(), &rep); err != nil {
		t.Fatalf("realdrift check %s: %v\n%s", ref, err, stdout.String())
	}
	if len(rep.Stacks) != 1 || rep.Stacks[0].Stack != ref.Name || rep.Stacks[0].Account != ref.Account || rep.Stacks[0].Region != ref.Region {
		t.Fatalf("realdrift check %s: report for %+v", ref, rep.Stacks)
	}
	return rep.Stacks[0].Findings
}

// storedFindings returns the stack's latest findings in DynamoDB Local as
// generic JSON, and the run that wrote them.
func (e *e2e) storedFindings(t *testing.T, ref drift.StackRef) (any, store.RunRecord) {
	t.Helper()
	rec, fs, err := e.store.LatestFindings(t.Context(), ref)
	if err != nil {
		t.Fatalf("latest findings of %s: %v", ref, err)
	}
	b, err := json.Marshal(fs)
	if err != nil {
		t.Fatal(err)
	}
	var generic any
	if err := json.Unmarshal(b, &generic); err != nil {
		t.Fatal(err)
	}
	return generic, rec
}

// compare holds the stored findings of every checkable stack equal to what
// the CLI reports for it.
func (e *e2e) compare(t *testing.T, runID string) {
	t.Helper()
	for _, s := range e.plan {
		if s.ref.Name == lockedName {
			continue
		}
		got, rec := e.storedFindings(t, s.ref)
		if rec.RunID != runID {
			t.Errorf("%s: latest run %s, want %s", s.ref, rec.RunID, runID)
		}
		want := e.cliFindings(t, s.ref)
		if list, _ := got.([]any); testing.Verbose() {
			t.Logf("%s: %d findings agree with the CLI (drift %v)", s.ref, len(list), hasDrift(got))
		}
		if diff := cmp.Diff(got, want); diff != "" {
			t.Errorf("%s: stored findings differ from `realdrift check --json` (-stored +cli):\n%s", s.ref, diff)
		}
		if s.drifted() != hasDrift(got) {
			t.Errorf("%s: stored findings have drift = %v, planted %v", s.ref, hasDrift(got), s.drifted())
		}
	}
}

// hasDrift reports whether generic findings hold confirmed drift.
func hasDrift(findings any) bool {
	list, _ := findings.([]any)
	for _, f := range list {
		m, _ := f.(map[string]any)
		switch m["tier"] {
		case "deleted", "declared", "undeclared", "added":
			if m["unrecorded"] != true {
				return true
			}
		}
	}
	return false
}

// TestSweepEndToEnd is the service's acceptance run: the real ASL under the
// local Step Functions interpreter, the real handlers, the sandbox
// organisation (3 accounts × 2 regions, drift planted, one stack denied) and
// DynamoDB Local.
func TestSweepEndToEnd(t *testing.T) {
	e := startE2E(t)
	ctx := t.Context()
	names := e.stackNames()

	var drifted []string
	for _, s := range e.plan {
		if s.drifted() {
			drifted = append(drifted, s.ref.Name)
		}
	}
	sort.Strings(drifted)

	// First sweep: every stack checked, the denied one recorded as failed,
	// one alert per drifted stack.
	sum := e.sweep(t, "sweep-1")
	wantSum := statemachine.RunSummary{
		RunID: "sweep-1", Accounts: len(e2eAccounts), Stacks: len(e.plan), Checked: len(e.plan) - 1, Failed: 1,
		Changed: len(drifted), Counts: sum.Counts,
	}
	if diff := cmp.Diff(sum, wantSum); diff != "" {
		t.Errorf("sweep-1 summary (-got +want):\n%s", diff)
	}
	if sum.Counts["drift"] < len(drifted) {
		t.Errorf("sweep-1 counts %v: want at least %d drift findings", sum.Counts, len(drifted))
	}
	t.Logf("sweep-1: %+v; %d alerts for drifted stacks %v", sum, e.hook.total(), drifted)
	e.compare(t, "sweep-1")
	e.checkFailed(t, "sweep-1")
	if diff := cmp.Diff(alerted(e.hook.count(names)), drifted); diff != "" {
		t.Errorf("alerts after sweep-1 (-got +want):\n%s", diff)
	}
	for n, c := range e.hook.count(drifted) {
		if c != 1 {
			t.Errorf("stack %s alerted %d times, want 1", n, c)
		}
	}

	// Step Functions retries of handlers that already succeeded change
	// nothing: the same answer, no second history item, no second alert.
	e.retries(t, "sweep-1", sum)

	// Second, identical sweep: same findings, no alert.
	alerts := e.hook.total()
	sum2 := e.sweep(t, "sweep-2")
	if sum2.Changed != 0 || sum2.Checked != len(e.plan)-1 || sum2.Failed != 1 {
		t.Errorf("sweep-2 summary %+v: want nothing changed, %d checked, 1 failed", sum2, len(e.plan)-1)
	}
	t.Logf("sweep-2: %+v", sum2)
	e.compare(t, "sweep-2")
	if got := e.hook.total(); got != alerts {
		t.Errorf("sweep-2 sent %d alerts, want none", got-alerts)
	}

	// A change to a clean stack's queue, then a burst of CloudTrail events
	// for it: one check starts, it finds the drift and alerts once.
	var target e2eStack
	for _, s := range e.plan {
		if !s.drifted() && s.topic && s.ref.Account != orgMgmt {
			target = s
			break
		}
	}
	if err := e.sandbox.Apply(sandbox.Change{Op: sandbox.OpSet, Account: target.ref.Account, Region: target.ref.Region,
		Type: "AWS::SQS::Queue", Identifier: target.queueURL(), Path: "VisibilityTimeout", Value: json.RawMessage(`120`)}); err != nil {
		t.Fatal(err)
	}
	invoker := e.lambdaClient(t)
	cfnEvent := queueEvent(target, "cfn-0")
	cfnEvent.Detail.UserIdentity.InvokedBy = "cloudformation.amazonaws.com"
	if res := invokeTrigger(t, invoker, cfnEvent); res.Ignored == "" || len(res.Started) > 0 {
		t.Errorf("a change CloudFormation made: %+v, want it ignored", res)
	}
	unknown := queueEvent(target, "unknown-0")
	unknown.Detail.RequestParameters = json.RawMessage(`{"queueUrl":"https://sqs.eu-west-1.amazonaws.com/` + target.ref.Account + `/not-a-stack-queue"}`)
	if res := invokeTrigger(t, invoker, unknown); len(res.Started) > 0 {
		t.Errorf("a change to an unindexed resource started %v", res.Started)
	}
	var started []string
	for i := range 4 {
		res := invokeTrigger(t, invoker, queueEvent(target, fmt.Sprintf("burst-%d", i)))
		started = append(started, res.Started...)
	}
	calls := e.starts.taken()
	if len(started) != 1 || len(calls) != 1 {
		t.Fatalf("a burst of 4 events started %v (StartExecution calls %+v), want exactly one check", started, calls)
	}
	if calls[0].StateMachineArn != e.checkARN || calls[0].Name != started[0] {
		t.Errorf("StartExecution %+v: want %s named %s", calls[0], e.checkARN, started[0])
	}
	ex := e.checkStack(t, calls[0])
	if ex.Status != "SUCCEEDED" {
		t.Fatalf("check-stack for the event: status %s, error %+v", ex.Status, ex.Error)
	}
	got, rec := e.storedFindings(t, target.ref)
	if rec.RunID != started[0] || !hasDrift(got) {
		t.Errorf("%s after the event: latest run %s (want %s), drift %v (want true)", target.ref, rec.RunID, started[0], hasDrift(got))
	}
	if diff := cmp.Diff(got, e.cliFindings(t, target.ref)); diff != "" {
		t.Errorf("%s after the event: stored findings differ from the CLI (-stored +cli):\n%s", target.ref, diff)
	}
	if c := e.hook.count([]string{target.ref.Name})[target.ref.Name]; c != 1 {
		t.Errorf("%s alerted %d times after the event, want 1", target.ref.Name, c)
	}
	_ = ctx
}

// retries re-invokes persist, notify and close-run of a finished sweep, as
// Step Functions does when a successful invocation's answer is lost.
func (e *e2e) retries(t *testing.T, runID string, sum statemachine.RunSummary) {
	t.Helper()
	c := e.lambdaClient(t)
	alerts := e.hook.total()
	for _, s := range e.plan {
		if !s.drifted() {
			continue
		}
		ref := s.ref
		fkey := "findings." + ref.Account + ":" + ref.Region + ":" + ref.Name
		var persisted statemachine.Persisted
		invoke(t, c, statemachine.FunctionPersist, statemachine.PersistTask{Action: statemachine.ActionRecordStack, RunID: runID, Stack: &ref, FindingsKey: fkey}, &persisted)
		if !persisted.Changed {
			t.Errorf("retried persist of %s answered unchanged; the first attempt said changed", ref)
		}
		invoke(t, c, statemachine.FunctionNotify, statemachine.NotifyTask{Kind: statemachine.KindStack, RunID: runID, Stack: &ref, FindingsKey: fkey}, nil)
		runs, err := e.store.ListRuns(t.Context(), ref, 0)
		if err != nil {
			t.Fatal(err)
		}
		if len(runs) != 1 {
			t.Errorf("%s has %d history items after a retried persist, want 1", ref, len(runs))
		}
	}
	locked := e.plan[len(e.plan)-1].ref
	invoke(t, c, statemachine.FunctionPersist, statemachine.PersistTask{Action: statemachine.ActionRecordFailure, RunID: runID, Stack: &locked, Error: "AccessDenied", Cause: "retried"}, nil)
	var again statemachine.RunSummary
	invoke(t, c, statemachine.FunctionPersist, statemachine.PersistTask{Action: statemachine.ActionCloseRun, RunID: runID}, &again)
	if diff := cmp.Diff(again, sum); diff != "" {
		t.Errorf("retried close-run (-got +want):\n%s", diff)
	}
	if got := e.hook.total(); got != alerts {
		t.Errorf("retried notify sent %d more alerts, want none", got-alerts)
	}
	e.checkFailed(t, runID)
}

func invoke(t *testing.T, c *awslambda.Client, fn string, in, out any) {
	t.Helper()
	payload, err := json.Marshal(in)
	if err != nil {
		t.Fatal(err)
	}
	res, err := c.Invoke(context.WithoutCancel(t.Context()), &awslambda.InvokeInput{FunctionName: aws.String(fn), Payload: payload})
	if err != nil {
		t.Fatal(err)
	}
	if res.FunctionError != nil {
		t.Fatalf("%s: %s: %s", fn, *res.FunctionError, res.Payload)
	}
	if out != nil {
		if err := json.Unmarshal(res.Payload, out); err != nil {
			t.Fatalf("%s result %s: %v", fn, res.Payload, err)
		}
	}
}

// checkFailed holds that the denied stack's run is recorded as failed with
// the AccessDenied reason.
func (e *e2e) checkFailed(t *testing.T, runID string) {
	t.Helper()
	recs, err := e.store.RunsByID(t.Context(), runID)
	if err != nil {
		t.Fatal(err)
	}
	failed := 0
	for _, r := range recs {
		if r.Status != store.RunFailed {
			continue
		}
		failed++
		if r.Stack.Name != lockedName || !strings.Contains(r.Reason, "AccessDenied") {
			t.Errorf("failed run %s %s: %q, want %s with AccessDenied", r.RunID, r.Stack, r.Reason, lockedName)
		}
	}
	if failed != 1 || len(recs) != len(e.plan) {
		t.Errorf("run %s: %d records, %d failed; want %d records, 1 failed", runID, len(recs), failed, len(e.plan))
	}
}

// alerted lists the stacks with at least one alert, sorted.
func alerted(counts map[string]int) []string {
	var out []string
	for n, c := range counts {
		if c > 0 {
			out = append(out, n)
		}
	}
	sort.Strings(out)
	return out
}

func (e *e2e) lambdaClient(t *testing.T) *awslambda.Client {
	t.Helper()
	return awslambda.New(awslambda.Options{
		Region: "us-east-1", BaseEndpoint: aws.String(e.lambdaURL),
		Credentials: credentials.NewStaticCredentialsProvider("local", "local", ""),
	})
}

// queueEvent is the CloudTrail event of a SetQueueAttributes call on the
// stack's queue, made by a person in the member account.
func queueEvent(s e2eStack, id string) service.ChangeEvent {
	return service.ChangeEvent{
		ID: "ev-" + id, DetailType: "AWS API Call via CloudTrail", Source: "aws.sqs", Account: s.ref.Account, Region: s.ref.Region,
		Detail: service.EventDetail{
			EventID: "e2e-" + id, EventSource: "sqs.amazonaws.com", EventName: "SetQueueAttributes",
			AWSRegion: s.ref.Region, RecipientAccountID: s.ref.Account, SourceIPAddress: "198.51.100.7", UserAgent: "aws-cli/2",
			UserIdentity:      service.UserIdentity{Type: "AssumedRole", ARN: "arn:aws:sts::" + s.ref.Account + ":assumed-role/Admin/alice"},
			RequestParameters: json.RawMessage(`{"queueUrl":"` + s.queueURL() + `","attributes":{"VisibilityTimeout":"120"}}`),
		},
	}
}

func invokeTrigger(t *testing.T, c *awslambda.Client, ev service.ChangeEvent) service.TriggerResult {
	t.Helper()
	payload, err := json.Marshal(ev)
	if err != nil {
		t.Fatal(err)
	}
	out, err := c.Invoke(context.WithoutCancel(t.Context()), &awslambda.InvokeInput{FunctionName: aws.String(statemachine.FunctionTrigger), Payload: payload})
	if err != nil {
		t.Fatal(err)
	}
	if out.FunctionError != nil {
		t.Fatalf("trigger: %s: %s", *out.FunctionError, out.Payload)
	}
	var res service.TriggerResult
	if err := json.Unmarshal(out.Payload, &res); err != nil {
		t.Fatalf("trigger result %s: %v", out.Payload, err)
	}
	return res
}
