package service_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/credentials"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	awslambda "github.com/aws/aws-sdk-go-v2/service/lambda"
	"github.com/aws/smithy-go/logging"
	"github.com/google/go-cmp/cmp"

	"github.com/realdrift/realdrift/internal/cli"
	"github.com/realdrift/realdrift/internal/drift"
	"github.com/realdrift/realdrift/internal/lambdarouter"
	"github.com/realdrift/realdrift/internal/report/reporttest"
	"github.com/realdrift/realdrift/internal/sandbox"
	"github.com/realdrift/realdrift/internal/sandbox/worldgen"
	"github.com/realdrift/realdrift/internal/schema"
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
	stacks     []drift.StackRef
	planted    []plantedChange
	queues     map[string]string
	clock      *clock
	events     *events
	sandbox    *sandbox.Server
	sandboxURL string
	lambdaURL  string
	// router serves the functions (lambdaURL); the approval URL's front
	// invokes it too.
	router *lambdarouter.Router
	store  *store.Dynamo
	svc    *service.Service
	hook   *webhook
	starts *starts
	// tokens answers the approval task's callbacks (SendTaskSuccess and
	// SendTaskFailure) and holds the local waits for them.
	tokens   *statemachinetest.TaskTokens
	sfnURL   string
	stateDir string
	// cliStore, once set, is the --store the CLI checks against instead
	// of stateDir (the table, after a team recorded into it).
	cliStore string
	checkARN string
	// db and table are the DynamoDB Local client and table the store uses.
	db     *dynamodb.Client
	table  string
	ddbURL string
	// logs holds every line the handlers logged.
	logs *logBuffer
	// bus is the central bus's policy; ebURL the EventBridge stand-in.
	bus   *busPolicy
	ebURL string
	// snsURL is the sandbox served over TLS, where the functions publish
	// to the alert topic; snsCA the certificate they trust it by.
	snsURL string
	snsCA  []byte
	// children accepts a Distributed Map's child starts behind the
	// sandbox's IAM, at childURL.
	children *childStarts
	childURL string
}

// startE2E starts the local deployment over the demo world, the member read
// role's policies enforced as infra deploys them; each extra adds a stack
// to the world and returns it.
func startE2E(t *testing.T, extra ...func(*sandbox.World) drift.StackRef) *e2e {
	t.Helper()
	return startE2EWith(t, e2eConfig{readPolicies: readRoleDocuments(t)}, extra...)
}

// e2eConfig varies the local deployment.
type e2eConfig struct {
	// readPolicies are the member read role's policy documents.
	readPolicies []json.RawMessage
	// slackSecret, when set, is the Slack secret's value instead of the
	// local webhook's URL.
	slackSecret string
	// revertPolicies, when set, are the member revert role's policy
	// documents: the role is seeded and the service writes through it.
	revertPolicies func(account string) []json.RawMessage
	// accept gives drift alerts the accept state machine's link.
	accept bool
	// securityHub turns the Security Hub channel on.
	securityHub bool
	// centralDrop names central function-role statements (ROLE/SID) left
	// out of infra's copy (the negative tests).
	centralDrop []string
	// accounts, when set, limits sweeps to these accounts
	// (REALDRIFT_ACCOUNTS).
	accounts []string
	// table, when set, names the table instead of a fresh name.
	table string
	// regions, when set, are the regions swept instead of the demo
	// world's (REALDRIFT_REGIONS).
	regions []string
	// trustEdit, when set, rewrites a member role's trust policy in one
	// account (the negative tests).
	trustEdit func(account, role string, doc json.RawMessage) json.RawMessage
	// scps are the organization's service control policies.
	scps []*sandbox.ServiceControlPolicy
	// serviceDrop names state-machine and Scheduler role statements
	// (ROLE/SID) left out of infra's copy (the negative tests).
	serviceDrop []string
	// alertDrop names alert topic or key policy statements (topic/SID,
	// key/SID) left out of infra's copy (the negative tests).
	alertDrop []string
	// forwardEdit, when set, rewrites a member forwarding role's policy
	// documents (the negative tests).
	forwardEdit func(role string, doc json.RawMessage) json.RawMessage
	// tableKeyPolicy, when set, puts the table on a customer managed key
	// under this policy instead of infra's encryption (the negative tests).
	tableKeyPolicy json.RawMessage
}

// startE2EWith starts the local deployment as configured.
func startE2EWith(t *testing.T, conf e2eConfig, extra ...func(*sandbox.World) drift.StackRef) *e2e {
	t.Helper()
	l := statemachinetest.Local(t)
	ddbURL := dynamoLocal.Endpoint(t, "the end-to-end sweep")
	ctx := t.Context()
	e := &e2e{local: l, hook: &webhook{}, starts: &starts{}, logs: &logBuffer{}}
	world, stacks, planted, queues := e2eWorld(t)
	for _, add := range extra {
		stacks = append(stacks, add(world))
	}
	e.stacks, e.planted, e.queues = stacks, planted, queues
	// discover writes each account-region's stack list to the targets
	// bucket in the central account; the sweep's Stacks Map reads it
	// (ItemReader) and writes its results beside it (ResultWriter).
	for _, a := range world.Accounts {
		if a.ID == demoAccount(0) {
			a.Regions[0].Resources = append(a.Regions[0].Resources, &sandbox.Resource{
				Type: "AWS::S3::Bucket", PhysicalID: targetsBucket, Properties: json.RawMessage(`{"BucketName":"` + targetsBucket + `"}`)})
		}
	}
	seedReadRole(world, conf.readPolicies)
	// Who may assume the member roles, as infra deploys them.
	seedTrust(world, memberTrust(t, world.Organization.ID), conf.trustEdit)
	// Who may put events on the central bus: member accounts forward
	// with their forwarding role, the bus's policy admitting them.
	busDoc, forward := busCopy(t, world.Organization.ID)
	seedForwardRole(world, forward, conf.forwardEdit)
	e.bus = &busPolicy{doc: busDoc}
	world.Organization.SCPs = conf.scps
	// Each function calls AWS with its own role, as infra deploys it.
	table := conf.table
	if table == "" {
		table = fmt.Sprintf("realdrift-e2e-%d", time.Now().UnixNano())
	}
	fill := map[string]string{
		"{{Account}}": demoAccount(0), "{{Region}}": centralRegion, "{{OrganizationId}}": world.Organization.ID,
		"{{Table}}": table, "{{SlackSecretArn}}": slackSecretArn(), "{{Topic}}": alertTopicName,
		"{{EventBus}}": "realdrift", "{{TargetsBucket}}": targetsBucket,
	}
	seedCentralRoles(world, centralRoles(t, "central-roles.json", fill, conf.centralDrop...))
	// Each state machine runs with its own role (the runner signs its
	// Lambda invocations and S3 calls with it), as infra deploys it.
	seedCentralRoles(world, centralRoles(t, "service-roles.json", fill, conf.serviceDrop...))
	// The alert topic, encrypted with the messages key, under infra's
	// topic and key policies.
	topicPolicy, keyPolicy := alertTopicCopy(t, fill, conf.alertDrop...)
	seedAlertTopic(t, world, topicPolicy, keyPolicy)
	if conf.revertPolicies != nil {
		for _, a := range world.Accounts {
			// Complete: the revert role attaches no AWS managed policy, so
			// what Cloud Control's handlers call needs the role's own
			// Allow (its RevertHandlers policies), as on AWS.
			a.Policies = append(a.Policies, &sandbox.Policies{Role: revertRole, Documents: conf.revertPolicies(a.ID), Complete: true})
		}
	}
	if conf.securityHub {
		for _, a := range world.Accounts {
			a.Policies = append(a.Policies, &sandbox.Policies{Role: findingsRole, Documents: findingsRoleDocuments(t)})
		}
	}
	opts := sandbox.Options{OperationDelay: time.Millisecond}
	if snap, err := schema.Embedded(); err == nil {
		opts.Facts = snap.Lookup
	}
	sb, err := sandbox.New(world, opts)
	if err != nil {
		t.Fatal(err)
	}
	e.sandbox = sb
	for _, p := range planted {
		if err := sb.Apply(p.change); err != nil {
			t.Fatalf("plant %+v: %v", p.change, err)
		}
	}
	sbSrv := httptest.NewServer(sb)
	t.Cleanup(func() { sbSrv.Close(); sb.Close() })
	e.sandboxURL = sbSrv.URL
	e.snsURL, e.snsCA = serveTLS(t, sb)
	// DynamoDB Local, behind the sandbox's IAM and the table's key.
	key, encrypted := tableKey(t, fill, conf.tableKeyPolicy)
	ddbSrv := httptest.NewServer(guardedDynamo(t, sb, ddbURL, table, key, encrypted))
	t.Cleanup(ddbSrv.Close)
	ddbURL = ddbSrv.URL

	hookSrv := httptest.NewServer(e.hook)
	t.Cleanup(hookSrv.Close)
	const slackSecret = slackSecretID
	slackValue := `{"url":"` + hookSrv.URL + `/services/T000/B000/e2e"}`
	if conf.slackSecret != "" {
		slackValue = conf.slackSecret
	}
	secSrv := httptest.NewServer(sb.Guard("secretsmanager", secretsAsks, secrets{id: slackSecret, value: slackValue}))
	t.Cleanup(secSrv.Close)
	// Step Functions: StartExecution (the trigger) and the callbacks of a
	// waiting revert (SendTaskSuccess, SendTaskFailure).
	e.tokens = statemachinetest.ServeTaskTokens(t)
	sfnSrv := httptest.NewServer(sb.Guard("states", statesAsks, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("X-Amz-Target") == "AWSStepFunctions.StartExecution" {
			e.starts.ServeHTTP(w, r)
			return
		}
		e.tokens.ServeHTTP(w, r)
	})))
	t.Cleanup(sfnSrv.Close)
	e.sfnURL = sfnSrv.URL
	// A Distributed Map's children start with the state machine's role
	// (the runner asks states:StartExecution before it runs each).
	e.children = &childStarts{}
	childSrv := httptest.NewServer(sb.Guard("states", statesAsks, e.children))
	t.Cleanup(childSrv.Close)
	e.childURL = childSrv.URL
	e.events = &events{}
	ebSrv := httptest.NewServer(sb.Guard("events", e.bus.asks, e.events))
	t.Cleanup(ebSrv.Close)
	e.ebURL = ebSrv.URL

	e.checkARN = "arn:aws:states:us-east-1:" + demoAccount(0) + ":stateMachine:realdrift-check-stack"
	set := service.Settings{
		Table:         table,
		TargetsBucket: targetsBucket,
		Regions:       demoRegions(),
		ReadRoleName:  readRole,
		SlackSecretID: slackSecret,
		CheckStackARN: e.checkARN,
		EventBus:      "realdrift",
		Debounce:      time.Minute,
		Endpoints: service.Endpoints{
			Default: sbSrv.URL, DynamoDB: ddbURL, SecretsManager: secSrv.URL, StepFunctions: sfnSrv.URL, EventBridge: ebSrv.URL,
			SNS: e.snsURL,
		},
		CABundle:    e.snsCA,
		TopicARN:    alertTopicArn(),
		ApprovalURL: approvalURL,
		Accounts:    conf.accounts,
		AccessKeyID: worldgen.DemoAccessKey(demoAccount(0)), SecretAccessKey: "e2e-secret",
	}
	if conf.regions != nil {
		set.Regions = conf.regions
	}
	if conf.revertPolicies != nil {
		set.RevertRoleName = revertRole
		set.RevertStateMachineARN = revertARN
		set.RevertTypes = readRevertRole(t).Types
	}
	if conf.accept {
		set.AcceptStateMachineARN = acceptARN
	}
	if conf.securityHub {
		set.SecurityHub, set.FindingsRoleName = true, findingsRole
	}
	cfg, err := service.AWSConfig(ctx, set, centralRegion)
	if err != nil {
		t.Fatal(err)
	}
	// DynamoDB Local's CRC32 headers make the SDK warn when it closes an
	// unread error body; the warnings say nothing about the run.
	cfg.Logger = logging.Nop{}
	db := dynamodb.NewFromConfig(cfg, func(o *dynamodb.Options) { o.BaseEndpoint = aws.String(ddbURL) })
	if err := store.CreateTable(ctx, db, table); err != nil {
		t.Fatal(err)
	}
	e.db, e.table, e.ddbURL = db, table, ddbURL
	e.store = store.NewDynamo(db, table)
	if _, err := e.store.PutIgnoreRules(ctx, "", []byte(ignoreYAML()), 0); err != nil {
		t.Fatal(err)
	}
	e.stateDir = t.TempDir()
	if err := os.WriteFile(filepath.Join(e.stateDir, "ignore.yaml"), []byte(ignoreYAML()), 0o644); err != nil {
		t.Fatal(err)
	}
	e.clock = &clock{}
	svcOpts := []service.Option{service.WithClock(e.clock.now), service.WithLogger(slog.New(slog.NewJSONHandler(e.logs, nil)))}
	// The test's own reads (audit items) use the central account's
	// unrestricted key; every function is served by a service built with
	// its role's session key, as Lambda runs it.
	if e.svc, err = service.New(cfg, set, svcOpts...); err != nil {
		t.Fatal(err)
	}
	// The functions, behind the sandbox's IAM: a state machine's role may
	// invoke only what its policies grant (lambda:InvokeFunction).
	e.router = lambdarouter.New()
	if err := func(r *lambdarouter.Router) error {
		for name := range e.svc.Handlers() {
			fset := set
			fset.AccessKeyID, fset.SecretAccessKey = functionKey(name), "e2e-session-secret"
			fcfg, err := service.AWSConfig(ctx, fset, centralRegion)
			if err != nil {
				return err
			}
			fcfg.Logger = logging.Nop{}
			fsvc, err := service.New(fcfg, fset, svcOpts...)
			if err != nil {
				return err
			}
			h, err := fsvc.Handler(name)
			if err != nil {
				return err
			}
			if err := r.Handle(name, h); err != nil {
				return err
			}
		}
		return nil
	}(e.router); err != nil {
		t.Fatal(err)
	}
	lambdaSrv := httptest.NewServer(sb.Guard("lambda", invokeAsks, e.router))
	t.Cleanup(lambdaSrv.Close)
	e.lambdaURL = lambdaSrv.URL
	return e
}

// runSweep runs the real sweep definition with the sweep role's
// credentials and returns its execution, whatever its status.
func (e *e2e) runSweep(t *testing.T, runID string) statemachine.Execution {
	t.Helper()
	ex, err := e.local.Run(t.Context(), statemachine.Run{
		Definition: statemachine.Sweep, Input: map[string]any{}, LambdaEndpoint: e.lambdaURL,
		ExecutionName: runID, Account: demoAccount(0), RetryMillis: 1,
		S3Endpoint: e.sandboxURL, AccessKeyID: statesKey("sweep"), SecretAccessKey: "e2e-session-secret",
		StatesEndpoint: e.childURL,
	})
	if err != nil {
		t.Fatal(err)
	}
	return ex
}

// sweep runs the real sweep definition and checks its state outputs.
func (e *e2e) sweep(t *testing.T, runID string) statemachine.RunSummary {
	t.Helper()
	ex := e.runSweep(t, runID)
	if ex.Status != "SUCCEEDED" {
		t.Fatalf("sweep %s: status %s, error %+v", runID, ex.Status, ex.Error)
	}
	statemachinetest.CheckStateOutputs(t, ex)
	statemachinetest.CheckSynthesized(t, e.local, statemachine.Sweep, ex)
	t.Logf("%s: %d states, largest output %d bytes, %d retries", runID, len(ex.States), ex.MaxStateOutputBytes, ex.Retries)
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
		ExecutionName: call.Name, Account: demoAccount(0), RetryMillis: 1,
		AccessKeyID: statesKey("check-stack"), SecretAccessKey: "e2e-session-secret",
	})
	if err != nil {
		t.Fatal(err)
	}
	statemachinetest.CheckStateOutputs(t, ex)
	statemachinetest.CheckSynthesized(t, e.local, statemachine.CheckStack, ex)
	return ex
}

// cliFindings runs `realdrift check --json` for one stack against the same
// sandbox with the account's own keys and the same ignore rules (and
// baselines: the state directory's, or the table's once cliStore is set),
// and returns the stack's findings as generic JSON.
func (e *e2e) cliFindings(t *testing.T, ref drift.StackRef) any {
	t.Helper()
	var stdout, stderr bytes.Buffer
	state := []string{"--state-dir", e.stateDir}
	if e.cliStore != "" {
		state = []string{"--store", e.cliStore}
	}
	code := cli.Run(t.Context(), cli.IO{Stdout: &stdout, Stderr: &stderr, Getenv: e.cliEnv(t, ref)},
		// One stack: the service checks each nested stack as a target of
		// its own, so the CLI does not descend here.
		append([]string{"check", "--json", "--no-recursive", "--region", ref.Region, "--endpoint-url", e.sandboxURL, ref.Name}, state...))
	if code != 0 {
		t.Fatalf("realdrift check %s: exit %d\n%s", ref, code, stderr.String())
	}
	reporttest.Validate(t, "realdrift check "+ref.String(), stdout.Bytes())
	var rep struct {
		Stacks []struct {
			Stack, Account, Region string
			Findings               []map[string]any
		}
	}
	if err := json.Unmarshal(stdout.Bytes(), &rep); err != nil {
		t.Fatalf("realdrift check %s: %v\n%s", ref, err, stdout.String())
	}
	if len(rep.Stacks) != 1 || rep.Stacks[0].Stack != ref.Name || rep.Stacks[0].Account != ref.Account || rep.Stacks[0].Region != ref.Region {
		t.Fatalf("realdrift check %s: report for %+v", ref, rep.Stacks)
	}
	// The store keeps findings without the report's stable id
	// (report.FindingID, which the schema checks): compare the rest.
	findings := make([]any, 0, len(rep.Stacks[0].Findings))
	for _, f := range rep.Stacks[0].Findings {
		delete(f, "id")
		findings = append(findings, f)
	}
	return findings
}

// cliEnv is the CLI's environment for a stack: the account's own keys,
// and DynamoDB Local as the endpoint of a --store table.
func (e *e2e) cliEnv(t *testing.T, ref drift.StackRef) func(string) string {
	env := map[string]string{
		"AWS_ACCESS_KEY_ID": worldgen.DemoAccessKey(ref.Account), "AWS_SECRET_ACCESS_KEY": "e2e-secret",
		"HOME": t.TempDir(), "AWS_ENDPOINT_URL_DYNAMODB": e.ddbURL,
	}
	return func(k string) string { return env[k] }
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
	// Who changed a resource is the service's own knowledge (the
	// trigger's stored events, lookups through the read role), which
	// `realdrift check` without --who does not report; the alerts show it
	// (writerIn).
	list, _ := generic.([]any)
	for _, f := range list {
		if m, ok := f.(map[string]any); ok {
			delete(m, "changedBy")
		}
	}
	return generic, rec
}

// compare holds the stored findings of every checkable stack equal to what
// the CLI reports for it, and returns the stacks with confirmed drift.
func (e *e2e) compare(t *testing.T, runID string) []string {
	t.Helper()
	var drifted []string
	for _, ref := range e.stacks {
		if ref.Name == lockedName {
			continue
		}
		got, rec := e.storedFindings(t, ref)
		if rec.RunID != runID {
			t.Errorf("%s: latest run %s, want %s", ref, rec.RunID, runID)
		}
		want := e.cliFindings(t, ref)
		if list, _ := got.([]any); testing.Verbose() {
			t.Logf("%s: %d findings agree with the CLI (drift %v)", ref, len(list), hasDrift(got))
		}
		if diff := cmp.Diff(got, want); diff != "" {
			t.Errorf("%s: stored findings differ from `realdrift check --json` (-stored +cli):\n%s", ref, diff)
		}
		if hasDrift(got) {
			drifted = append(drifted, key(ref))
		}
	}
	sort.Strings(drifted)
	return drifted
}

func key(ref drift.StackRef) string { return ref.Account + "/" + ref.Region + "/" + ref.Name }

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

	// First sweep: every stack checked, the denied one recorded as failed,
	// one alert per drifted stack.
	sum := e.sweep(t, "sweep-1")
	t.Logf("sweep-1: %+v; %d alerts", sum, e.hook.total())
	drifted := e.compare(t, "sweep-1")
	for _, p := range e.planted {
		if p.change.Path == "VisibilityTimeout" && !slices.Contains(drifted, key(p.stack)) {
			t.Errorf("%s: planted %s change is not drift", p.stack, p.change.Path)
		}
	}
	wantSum := statemachine.RunSummary{
		RunID: "sweep-1", Accounts: len(worldgen.DemoAccounts()), Stacks: len(e.stacks), Checked: len(e.stacks) - 1, Failed: 1,
		Changed: len(drifted), Counts: sum.Counts,
	}
	if diff := cmp.Diff(sum, wantSum); diff != "" {
		t.Errorf("sweep-1 summary (-got +want):\n%s", diff)
	}
	if sum.Counts["drift"] < len(drifted) || sum.Counts["ignored"] < 1 || sum.Counts["unrecorded"] < 1 {
		t.Errorf("sweep-1 counts %v: want at least %d drift, an ignored and an unrecorded finding", sum.Counts, len(drifted))
	}
	e.checkFailed(t, "sweep-1")
	if diff := cmp.Diff(e.hook.alerts(), ones(drifted)); diff != "" {
		t.Errorf("alerts after sweep-1 (-got +want):\n%s", diff)
	}
	if e.children.count() == 0 {
		t.Error("no Distributed Map child started through the sweep role's states:StartExecution")
	}
	// The same alerts arrived on the alert topic: published over TLS
	// under infra's topic and key policies (TestAlertTopicPolicies).
	if diff := cmp.Diff(e.topicAlerts(t), ones(drifted)); diff != "" {
		t.Errorf("alert topic after sweep-1 (-got +want):\n%s", diff)
	}

	if diff := cmp.Diff(e.events.count(), map[string]int{"Drift Detected": len(drifted), service.SweepDetailType: 1}); diff != "" {
		t.Errorf("events after sweep-1 (-got +want):\n%s", diff)
	}

	// Step Functions retries of handlers that already succeeded change
	// nothing: the same answer, no second history item, no second alert.
	e.retries(t, "sweep-1", sum, drifted)

	// Second, identical sweep: same findings, no alert.
	alerts := e.hook.total()
	sum2 := e.sweep(t, "sweep-2")
	t.Logf("sweep-2: %+v", sum2)
	if sum2.Changed != 0 || sum2.Checked != len(e.stacks)-1 || sum2.Failed != 1 {
		t.Errorf("sweep-2 summary %+v: want nothing changed, %d checked, 1 failed", sum2, len(e.stacks)-1)
	}
	if again := e.compare(t, "sweep-2"); !slices.Equal(again, drifted) {
		t.Errorf("sweep-2 drifted stacks %v, want %v", again, drifted)
	}
	if got := e.hook.total(); got != alerts {
		t.Errorf("sweep-2 sent %d alerts, want none", got-alerts)
	}
	if diff := cmp.Diff(e.topicAlerts(t), ones(drifted)); diff != "" {
		t.Errorf("alert topic after sweep-2, which changed nothing (-got +want):\n%s", diff)
	}
	if diff := cmp.Diff(e.events.count(), map[string]int{"Drift Detected": len(drifted), service.SweepDetailType: 2}); diff != "" {
		t.Errorf("events after sweep-2 (-got +want):\n%s", diff)
	}

	e.recordBaseline(t, drifted)
	e.trigger(t, drifted)
}

// recordBaseline is the acceptance figure of a baseline recorded by the
// CLI into the service's table: `realdrift record --store dynamodb://…`
// (the verb a team runs) writes one stack's live-only state to the table,
// and the next sweep applies it: the recorded values are suppressed and
// nothing alerts. Then a value the template does not declare, at its
// default when recorded (record watches it), changes out of band: without
// the table's baseline it would be potential drift and never alert; with
// it the next sweep reports undeclared drift ("changed since record") and
// alerts that stack once, and the next, identical sweep alerts nothing.
func (e *e2e) recordBaseline(t *testing.T, drifted []string) {
	t.Helper()
	ref := drift.StackRef{Account: demoAccount(2), Region: "us-east-1", Name: "OrdersService"}
	before, _ := e.storedFindings(t, ref)
	if !hasUnrecorded(before) {
		t.Fatalf("%s has no unrecorded finding to record", ref)
	}
	target := watchedQueueValue(t, before)
	storeURL := "dynamodb://" + e.table + "?region=us-east-1"
	var stdout, stderr bytes.Buffer
	if code := cli.Run(t.Context(), cli.IO{Stdout: &stdout, Stderr: &stderr, Getenv: e.cliEnv(t, ref)},
		[]string{"record", "--yes", "--region", ref.Region, "--endpoint-url", e.sandboxURL, "--store", storeURL, ref.Name}); code != 0 {
		t.Fatalf("realdrift record --store %s: exit %d\n%s%s", ref, code, stdout.String(), stderr.String())
	}
	if !strings.Contains(stdout.String(), "→ "+storeURL) {
		t.Errorf("record --store says %q, want the table named", stdout.String())
	}
	if _, _, err := e.store.GetBaseline(t.Context(), ref); err != nil {
		t.Fatalf("the table's baseline of %s after record --store: %v", ref, err)
	}
	if files, _ := filepath.Glob(filepath.Join(e.stateDir, "baselines", "*")); len(files) > 0 {
		t.Errorf("record --store wrote state files %v", files)
	}
	e.cliStore = storeURL // the CLI now checks against the table too
	alerts := e.hook.total()
	sum := e.sweep(t, "sweep-3")
	t.Logf("sweep-3: %+v", sum)
	if again := e.compare(t, "sweep-3"); !slices.Equal(again, drifted) {
		t.Errorf("sweep-3 drifted stacks %v, want %v", again, drifted)
	}
	after, _ := e.storedFindings(t, ref)
	if hasUnrecorded(after) || sum.Counts["suppressed"] < 1 || sum.Changed != 0 {
		t.Errorf("%s after record: unrecorded %v, summary %+v; want the recorded values suppressed and nothing changed", ref, hasUnrecorded(after), sum)
	}
	if got := e.hook.total(); got != alerts {
		t.Errorf("sweep-3 sent %d alerts, want none", got-alerts)
	}

	// An undeclared change to a recorded value alerts once, naming who
	// made it: no trigger saw the change, so the sweep looks it up
	// (LookupEvents through the read role, which infra grants it).
	if err := e.sandbox.Apply(sandbox.Change{Op: sandbox.OpSet, Account: ref.Account, Region: ref.Region,
		Type: "AWS::SQS::Queue", Identifier: target.physicalID, Path: target.path, Value: target.changed,
		Principal: "carol", UserAgent: "aws-cli/2.15.0 Python/3.11", EventName: "SetQueueAttributes", EventSource: "sqs.amazonaws.com"}); err != nil {
		t.Fatal(err)
	}
	perStack := e.hook.alerts()[key(ref)]
	alerts = e.hook.total()
	sum = e.sweep(t, "sweep-4")
	t.Logf("sweep-4: %+v", sum)
	if again := e.compare(t, "sweep-4"); !slices.Equal(again, drifted) {
		t.Errorf("sweep-4 drifted stacks %v, want %v", again, drifted)
	}
	got, _ := e.storedFindings(t, ref)
	if f := findingAt(got, target.logicalID, target.path); f["tier"] != "undeclared" || f["note"] != "changed since record" || f["unrecorded"] == true {
		t.Errorf("%s %s.%s after the change: %v; want undeclared drift, changed since record", ref, target.logicalID, target.path, f)
	}
	// The same check without the table's baseline cannot tell it from an
	// intended setting: potential drift, which never alerts.
	e.cliStore = ""
	if f := findingAt(e.cliFindings(t, ref), target.logicalID, target.path); f["unrecorded"] != true {
		t.Errorf("check --state-dir (no baseline) %s.%s: %v; want potential drift", target.logicalID, target.path, f)
	}
	e.cliStore = storeURL
	if sum.Changed != 1 || e.hook.total()-alerts != 1 || e.hook.alerts()[key(ref)]-perStack != 1 {
		t.Errorf("sweep-4: %d changed, %d alerts (%d for %s); want the one stack changed and alerted once",
			sum.Changed, e.hook.total()-alerts, e.hook.alerts()[key(ref)]-perStack, ref)
	}
	if w := e.hook.writerIn(key(ref), "carol"); w != "changed by carol (CLI)" {
		t.Errorf("sweep-4's alert for %s names the writer as %q, want carol by the CLI (a lookup through the read role)", ref, w)
	}
	// The next, identical sweep: the same drift, no new alert.
	alerts = e.hook.total()
	sum = e.sweep(t, "sweep-5")
	t.Logf("sweep-5: %+v", sum)
	if again := e.compare(t, "sweep-5"); !slices.Equal(again, drifted) {
		t.Errorf("sweep-5 drifted stacks %v, want %v", again, drifted)
	}
	if got, _ := e.storedFindings(t, ref); findingAt(got, target.logicalID, target.path)["note"] != "changed since record" {
		t.Errorf("sweep-5: %s no longer reports the changed value", ref)
	}
	if sum.Changed != 0 || e.hook.total() != alerts {
		t.Errorf("sweep-5: %d changed, %d alerts; want none", sum.Changed, e.hook.total()-alerts)
	}
}

// queueValue is a live-only numeric value of an SQS queue and a different
// value to set it to.
type queueValue struct {
	logicalID, physicalID, path string
	changed                     json.RawMessage
}

// watchedQueueValue picks an undeclared numeric value of an SQS queue at
// its default among generic findings: record watches it.
func watchedQueueValue(t *testing.T, findings any) queueValue {
	t.Helper()
	list, _ := findings.([]any)
	for _, f := range list {
		m, _ := f.(map[string]any)
		n, ok := m["actual"].(float64)
		if m["tier"] == "atDefault" && m["resourceType"] == "AWS::SQS::Queue" && ok && n < 100 {
			return queueValue{logicalID: m["logicalId"].(string), physicalID: m["physicalId"].(string), path: m["path"].(string),
				changed: json.RawMessage(fmt.Sprint(int64(n) + 1))}
		}
	}
	t.Fatalf("no numeric SQS value at its default among %v", findings)
	return queueValue{}
}

// findingAt returns the generic finding at a logical id and path (nil if
// none).
func findingAt(findings any, logicalID, path string) map[string]any {
	list, _ := findings.([]any)
	for _, f := range list {
		if m, _ := f.(map[string]any); m["logicalId"] == logicalID && m["path"] == path {
			return m
		}
	}
	return nil
}

// hasUnrecorded reports whether generic findings hold potential drift.
func hasUnrecorded(findings any) bool {
	list, _ := findings.([]any)
	for _, f := range list {
		if m, _ := f.(map[string]any); m["unrecorded"] == true {
			return true
		}
	}
	return false
}

// trigger changes a clean stack's queue out of band and sends a burst of
// CloudTrail events for it: after the burst's trailing-edge window, one
// check starts, finds the drift, alerts once.
func (e *e2e) trigger(t *testing.T, drifted []string) {
	t.Helper()
	target, queueURL := e.cleanQueue(t, drifted)
	_, seen := e.sandbox.BusEvents(0)
	if err := e.sandbox.Apply(sandbox.Change{Op: sandbox.OpSet, Account: target.Account, Region: target.Region,
		Type: "AWS::SQS::Queue", Identifier: queueURL, Path: "VisibilityTimeout", Value: json.RawMessage(`120`),
		Principal: "arn:aws:sts::" + target.Account + ":assumed-role/Admin/erin", UserAgent: "console.amazonaws.com",
		EventName: "SetQueueAttributes", EventSource: "sqs.amazonaws.com"}); err != nil {
		t.Fatal(err)
	}
	invoker := e.lambdaClient(t)
	// The change's own CloudTrail event, as EventBridge delivers it: the
	// trigger keeps its writer for the check it starts.
	bus, _ := e.sandbox.BusEvents(seen)
	if len(bus) != 1 {
		t.Fatalf("the change put %d events on the bus, want 1", len(bus))
	}
	if res := invokeTriggerRaw(t, invoker, bus[0]); len(res.Pending) != 1 {
		t.Errorf("the change's own event: %+v, want its stack's window opened", res)
	}
	cfnEvent := queueEvent(target, queueURL, "cfn-0")
	cfnEvent.Detail.UserIdentity.InvokedBy = "cloudformation.amazonaws.com"
	if res := invokeTrigger(t, invoker, cfnEvent); res.Ignored == "" || len(res.Started) > 0 {
		t.Errorf("a change CloudFormation made: %+v, want it ignored", res)
	}
	unknown := queueEvent(target, "https://sqs."+target.Region+".amazonaws.com/"+target.Account+"/not-a-stack-queue", "unknown-0")
	if res := invokeTrigger(t, invoker, unknown); len(res.Started) > 0 {
		t.Errorf("a change to an unindexed resource started %v", res.Started)
	}
	// A burst of changes, each inside the window the one before extended:
	// nothing starts until the window after the last one closed.
	for i := range 4 {
		res := invokeTrigger(t, invoker, queueEvent(target, queueURL, fmt.Sprintf("burst-%d", i)))
		if len(res.Started) > 0 || len(res.Pending)+len(res.Debounced) != 1 {
			t.Errorf("burst event %d: %+v, want its stack's window opened or extended and nothing started", i, res)
		}
		e.clock.advance(40 * time.Second) // inside the one-minute window
		if res := invokeTrigger(t, invoker, flushEvent()); len(res.Started) > 0 {
			t.Fatalf("a flush inside the extended window started %v", res.Started)
		}
	}
	e.clock.advance(30 * time.Second)
	flushed := invokeTrigger(t, invoker, flushEvent())
	started := flushed.Started
	calls := e.starts.taken()
	if len(started) != 1 || len(calls) != 1 {
		t.Fatalf("a burst of 4 events started %v (StartExecution calls %+v), want exactly one check after the window", started, calls)
	}
	if calls[0].StateMachineArn != e.checkARN || calls[0].Name != started[0] {
		t.Errorf("StartExecution %+v: want %s named %s", calls[0], e.checkARN, started[0])
	}
	before := e.hook.alerts()[key(target)]
	ex := e.checkStack(t, calls[0])
	if ex.Status != "SUCCEEDED" {
		t.Fatalf("check-stack for the event: status %s, error %+v", ex.Status, ex.Error)
	}
	got, rec := e.storedFindings(t, target)
	if rec.RunID != started[0] || !hasDrift(got) {
		t.Errorf("%s after the event: latest run %s (want %s), drift %v (want true)", target, rec.RunID, started[0], hasDrift(got))
	}
	if diff := cmp.Diff(got, e.cliFindings(t, target)); diff != "" {
		t.Errorf("%s after the event: stored findings differ from the CLI (-stored +cli):\n%s", target, diff)
	}
	if n := e.hook.alerts()[key(target)] - before; n != 1 {
		t.Errorf("%s alerted %d times after the event, want 1", target, n)
	}
	// The alert names who made the change, from the event the trigger
	// kept (the later burst events name no time, so no writer).
	if w := e.hook.writerIn(key(target), "erin"); w != "changed by erin (console)" {
		t.Errorf("%s's alert names the writer as %q, want erin in the console", target, w)
	}

	// The window closed with the check: the next change opens a new one,
	// checked once after it.
	if res := invokeTrigger(t, invoker, queueEvent(target, queueURL, "later-0")); len(res.Pending) != 1 {
		t.Errorf("an event after the check: %+v, want a new window", res)
	}
	e.clock.advance(2 * time.Minute)
	res := invokeTrigger(t, invoker, flushEvent())
	if calls := e.starts.taken(); len(res.Started) != 1 || len(calls) != 1 {
		t.Errorf("the flush after the new window started %v (calls %d), want one check", res.Started, len(calls))
	}
}

// flushEvent is the scheduled input that starts the checks whose debounce
// windows closed.
func flushEvent() service.ChangeEvent {
	return service.ChangeEvent{Source: service.FlushSource, DetailType: service.FlushDetailType}
}

// clock is the service's clock: the real time plus an offset tests move.
type clock struct {
	mu     sync.Mutex
	offset time.Duration
}

func (c *clock) now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return time.Now().Add(c.offset)
}

func (c *clock) advance(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.offset += d
}

// cleanQueue picks a stack without drift in a member account whose orders
// queue declares its VisibilityTimeout, and returns it and the queue's URL.
func (e *e2e) cleanQueue(t *testing.T, drifted []string) (drift.StackRef, string) {
	t.Helper()
	for _, ref := range e.stacks {
		if url := e.queues[key(ref)]; url != "" && ref.Account != demoAccount(0) && !slices.Contains(drifted, key(ref)) {
			return ref, url
		}
	}
	t.Fatal("no clean stack with an orders queue to change")
	return drift.StackRef{}, ""
}

func ones(keys []string) map[string]int {
	out := map[string]int{}
	for _, k := range keys {
		out[k] = 1
	}
	return out
}

// retries re-invokes persist, notify and close-run of a finished sweep, as
// Step Functions does when a successful invocation's answer is lost.
func (e *e2e) retries(t *testing.T, runID string, sum statemachine.RunSummary, drifted []string) {
	t.Helper()
	c := e.lambdaClient(t)
	alerts := e.hook.total()
	for _, ref := range e.stacks {
		if !slices.Contains(drifted, key(ref)) {
			continue
		}
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
	locked := e.stacks[len(e.stacks)-1]
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
	if failed != 1 || len(recs) != len(e.stacks) {
		t.Errorf("run %s: %d records, %d failed; want %d records, 1 failed", runID, len(recs), failed, len(e.stacks))
	}
}

func (e *e2e) lambdaClient(t *testing.T) *awslambda.Client {
	t.Helper()
	return awslambda.New(awslambda.Options{
		Region: "us-east-1", BaseEndpoint: aws.String(e.lambdaURL),
		// The central account's unrestricted key: the functions are
		// behind the sandbox's IAM, which refuses a key no principal owns.
		Credentials: credentials.NewStaticCredentialsProvider(worldgen.DemoAccessKey(demoAccount(0)), "e2e-secret", ""),
	})
}

// queueEvent is the CloudTrail event of a SetQueueAttributes call on a
// queue of the stack's account and region, made by a person.
func queueEvent(ref drift.StackRef, queueURL, id string) service.ChangeEvent {
	return service.ChangeEvent{
		ID: "ev-" + id, DetailType: "AWS API Call via CloudTrail", Source: "aws.sqs", Account: ref.Account, Region: ref.Region,
		Detail: service.EventDetail{
			EventID: "e2e-" + id, EventSource: "sqs.amazonaws.com", EventName: "SetQueueAttributes",
			AWSRegion: ref.Region, RecipientAccountID: ref.Account, SourceIPAddress: "198.51.100.7", UserAgent: "aws-cli/2",
			UserIdentity:      service.UserIdentity{Type: "AssumedRole", ARN: "arn:aws:sts::" + ref.Account + ":assumed-role/Admin/alice"},
			RequestParameters: json.RawMessage(`{"queueUrl":"` + queueURL + `","attributes":{"VisibilityTimeout":"120"}}`),
		},
	}
}

func invokeTrigger(t *testing.T, c *awslambda.Client, ev service.ChangeEvent) service.TriggerResult {
	t.Helper()
	payload, err := json.Marshal(ev)
	if err != nil {
		t.Fatal(err)
	}
	return invokeTriggerRaw(t, c, payload)
}

// invokeTriggerRaw invokes the trigger with an event as delivered.
func invokeTriggerRaw(t *testing.T, c *awslambda.Client, payload []byte) service.TriggerResult {
	t.Helper()
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
