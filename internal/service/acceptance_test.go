package service_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/realdrift/realdrift/internal/cli"
	"github.com/realdrift/realdrift/internal/drift"
	"github.com/realdrift/realdrift/internal/sandbox"
	"github.com/realdrift/realdrift/internal/sandbox/worldgen"
	"github.com/realdrift/realdrift/statemachine"
	"github.com/realdrift/realdrift/statemachine/statemachinetest"
)

// The acceptance script (scripts/aws-acceptance.sh), its target stack's
// template and the names it reads.
const (
	acceptanceScript   = "../../scripts/aws-acceptance.sh"
	acceptanceTemplate = "../../testdata/acceptance/target.template.json"
	acceptanceTarget   = "realdrift-acceptance-target"
	acceptanceCentral  = "Realdrift"
	// cliExecEnv makes this test binary run the realdrift CLI (TestMain):
	// the script's `realdrift approve`.
	cliExecEnv = "REALDRIFT_SERVICE_TEST_RUN_CLI"
)

// runCLI runs the realdrift CLI with the process's arguments, when the
// test binary was started as the script's realdrift.
func runCLI() (int, bool) {
	if os.Getenv(cliExecEnv) != "1" {
		return 0, false
	}
	return cli.Run(context.Background(), cli.IO{Stdin: os.Stdin, Stdout: os.Stdout, Stderr: os.Stderr, Getenv: os.Getenv}, os.Args[1:]), true
}

// runScript runs the acceptance script with env (and nothing else of the
// process's environment but PATH), returning its output and exit code.
func runScript(t *testing.T, env []string, args ...string) (string, int) {
	t.Helper()
	cmd := exec.CommandContext(t.Context(), "bash", append([]string{acceptanceScript}, args...)...)
	cmd.Env = append([]string{"PATH=" + os.Getenv("PATH"), "HOME=" + t.TempDir(), "AWS_SHARED_CREDENTIALS_FILE=/dev/null",
		"AWS_CONFIG_FILE=/dev/null", "AWS_EC2_METADATA_DISABLED=true"}, env...)
	cmd.Stdin = nil
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	err := cmd.Run()
	code := 0
	if err != nil {
		ee, ok := err.(*exec.ExitError)
		if !ok {
			t.Fatalf("run %s: %v", acceptanceScript, err)
		}
		code = ee.ExitCode()
	}
	return out.String(), code
}

// TestAcceptanceScriptRefuses: the script writes nothing without an
// explicit --account and a confirmation, and --dry-run prints every call
// (deploy, change, sweep, revert, teardown) and makes none: its AWS CLI and
// realdrift are `false`, so any call made would fail the run.
func TestAcceptanceScriptRefuses(t *testing.T) {
	none := []string{"AWS_CLI=false"}
	for _, tt := range []struct {
		name string
		args []string
		want string
	}{
		{"no account", []string{"--yes", "--ou", "r-ab12"}, "--account ID (12 digits) is required"},
		{"bad account", []string{"--account", "12345", "--yes", "--ou", "r-ab12"}, "--account ID (12 digits) is required"},
		{"no confirmation", []string{"--account", "123456789012", "--ou", "r-ab12"}, "without a confirmation"},
		{"no organizational unit on AWS", []string{"--account", "123456789012", "--yes"}, "--ou is required"},
		{"unknown flag", []string{"--account", "123456789012", "--yes", "--force"}, "unknown argument --force"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			out, code := runScript(t, none, tt.args...)
			if code != 2 || !strings.Contains(out, tt.want) {
				t.Errorf("exit %d, output:\n%s\nwant exit 2 saying %q", code, out, tt.want)
			}
			if strings.Contains(out, "== ") {
				t.Errorf("a step ran after the refusal:\n%s", out)
			}
		})
	}
	t.Run("dry run", func(t *testing.T) {
		out, code := runScript(t, none, "--account", "123456789012", "--ou", "r-ab12", "--dry-run", "--realdrift", "false")
		if code != 0 {
			t.Fatalf("exit %d:\n%s", code, out)
		}
		for _, call := range []string{
			"aws sts get-caller-identity",
			"aws cloudformation deploy --stack-name Realdrift ",
			"aws cloudformation deploy --stack-name realdrift-acceptance-member ",
			"aws cloudformation deploy --stack-name realdrift-acceptance-target --template-file testdata/acceptance/target.template.json",
			"aws sns subscribe",
			"aws sqs set-queue-attributes --queue-url \\<QueueUrl\\> --attributes VisibilityTimeout=45",
			"aws stepfunctions start-execution --state-machine-arn \\<SweepStateMachineArn\\>",
			"aws dynamodb get-item --table-name \\<TableName\\>",
			"aws securityhub get-findings",
			"aws stepfunctions start-execution --state-machine-arn \\<RevertStateMachineArn\\>",
			"false approve --url \\<ApprovalUrl\\>",
			"aws cloudcontrol update-resource --type-name AWS::SQS::Queue",
			"aws secretsmanager get-secret-value --secret-id \\<SlackSecretArn\\>",
			"aws iam simulate-principal-policy --policy-source-arn arn:aws:iam::123456789012:role/realdrift-revert",
			"aws cloudformation delete-stack --stack-name Realdrift ",
			"aws dynamodb delete-table --table-name \\<TableName\\>",
		} {
			if !strings.Contains(out, "would run: "+call) {
				t.Errorf("the dry run does not print %q:\n%s", call, out)
			}
		}
		if strings.Contains(out, "FAIL") {
			t.Errorf("the dry run failed a step:\n%s", out)
		}
	})
}

// TestAcceptanceScript runs scripts/aws-acceptance.sh --endpoint-url
// against the local deployment (the sandbox organisation's management
// account standing for the test account, the member roles seeded from
// infra's policies, the real handlers, the synthesized definitions under
// scripts/sfn, DynamoDB Local), as CI's check that the script itself works:
// every step must pass. The front it calls routes each request by its
// SigV4 signing name: states to executions of the synthesized definitions,
// dynamodb to DynamoDB Local behind the sandbox's IAM, everything else to
// the sandbox; GET /_acceptance/slack lists the Slack webhook's posts.
func TestAcceptanceScript(t *testing.T) {
	tpl, err := os.ReadFile(acceptanceTemplate)
	if err != nil {
		t.Fatal(err)
	}
	account := demoAccount(0)
	target := drift.StackRef{Account: account, Region: centralRegion, Name: acceptanceTarget}
	table := fmt.Sprintf("realdrift-acceptance-%d", time.Now().UnixNano())
	// The approval URL is an output of the central stack, so its listener
	// exists before the world does; it serves once the functions do.
	approve := httptest.NewUnstartedServer(nil)
	t.Cleanup(approve.Close)
	sweepARN := "arn:aws:states:" + centralRegion + ":" + account + ":stateMachine:realdrift-sweep"
	e := startE2EWith(t, e2eConfig{readPolicies: readRoleDocuments(t), revertPolicies: revertRoleDocuments(t),
		securityHub: true, accounts: []string{account}, regions: []string{centralRegion}, table: table},
		func(w *sandbox.World) drift.StackRef {
			addAcceptanceStacks(w, target, string(tpl), []sandbox.Output{
				{Key: "SweepStateMachineArn", Value: sweepARN},
				{Key: "RevertStateMachineArn", Value: revertARN},
				{Key: "TableName", Value: table},
				{Key: "ApprovalUrl", Value: "http://" + approve.Listener.Addr().String() + "/"},
				{Key: "AlertTopicArn", Value: "arn:aws:sns:" + centralRegion + ":" + account + ":realdrift-alerts"},
			})
			return target
		})
	h, _ := e.approvalHandler(t)
	approve.Config.Handler = h
	approve.Start()

	runs := &executions{ctx: t.Context(), e: e, defs: map[string]string{sweepARN: statemachine.Sweep, revertARN: statemachine.Revert}}
	front := httptest.NewServer(&acceptanceFront{e: e, runs: runs, sandbox: proxyTo(t, e.sandboxURL), dynamo: proxyTo(t, e.ddbURL)})
	t.Cleanup(front.Close)

	bin, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	wrapper := filepath.Join(t.TempDir(), "realdrift")
	if err := os.WriteFile(wrapper, []byte("#!/bin/sh\n"+cliExecEnv+"=1 exec '"+bin+"' \"$@\"\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	out, code := runScript(t, []string{"AWS_ACCESS_KEY_ID=" + worldgen.DemoAccessKey(account), "AWS_SECRET_ACCESS_KEY=e2e-secret", "AWS_REGION=" + centralRegion},
		"--account", account, "--region", centralRegion, "--endpoint-url", front.URL, "--yes", "--realdrift", wrapper, "--timeout", "150")
	t.Logf("scripts/aws-acceptance.sh --endpoint-url (%s):\n%s", time.Since(start).Round(time.Second), out)
	if code != 0 {
		t.Fatalf("the acceptance script failed (exit %d)", code)
	}
	for _, want := range []string{"ok   sweep", "ok   the finding is stored", "ok   the alert arrives", "ok   the Security Hub finding arrives",
		"ok   revert through an approval", "ok   the queue is reverted", "0 failed"} {
		if !strings.Contains(out, want) {
			t.Errorf("the script's output lacks %q", want)
		}
	}
	// The definitions the script's executions ran are infra's, byte for byte.
	for _, r := range runs.finished(t) {
		statemachinetest.CheckStateOutputs(t, r.ex)
		statemachinetest.CheckSynthesized(t, e.local, r.def, r.ex)
	}
}

// addAcceptanceStacks adds the script's target stack (its template, one
// queue at VisibilityTimeout 30, named as CloudFormation names it) and the
// central stack's outputs, as a deploy would leave them, to the account
// and region of target.
func addAcceptanceStacks(w *sandbox.World, target drift.StackRef, tpl string, outputs []sandbox.Output) {
	name := target.Name + "-Queue-ACCEPT1"
	url := "https://sqs." + target.Region + ".amazonaws.com/" + target.Account + "/" + name
	queue := &sandbox.Stack{Name: target.Name, TemplateBody: tpl, Resources: []*sandbox.Resource{{
		LogicalID: "Queue", Type: "AWS::SQS::Queue", PhysicalID: url,
		Properties: json.RawMessage(`{"QueueName":"` + name + `","VisibilityTimeout":30,"QueueUrl":"` + url + `","Arn":"arn:aws:sqs:` + target.Region + `:` + target.Account + `:` + name + `"}`),
	}}}
	central := &sandbox.Stack{Name: acceptanceCentral, Description: "realdrift central stack (its outputs; the harness runs what it deploys)",
		TemplateBody: `{"Resources":{}}`, Outputs: outputs}
	for _, a := range w.Accounts {
		for _, r := range a.Regions {
			if a.ID == target.Account && r.Name == target.Region {
				r.Stacks = append(r.Stacks, queue, central)
			}
		}
	}
}

// proxyTo forwards requests to a local server.
func proxyTo(t *testing.T, raw string) http.Handler {
	t.Helper()
	u, err := url.Parse(raw)
	if err != nil {
		t.Fatal(err)
	}
	return httputil.NewSingleHostReverseProxy(u)
}

// acceptanceFront is the one endpoint the script calls (see
// TestAcceptanceScript).
type acceptanceFront struct {
	e               *e2e
	runs            *executions
	sandbox, dynamo http.Handler
}

func (f *acceptanceFront) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.URL.Path == "/_acceptance/slack" {
		f.e.hook.mu.Lock()
		posts := append([]string{}, f.e.hook.posts...)
		f.e.hook.mu.Unlock()
		w.Header().Set("Content-Type", "application/json")
		_ = json.NewEncoder(w).Encode(posts)
		return
	}
	switch signingName(r) {
	case "states":
		f.runs.ServeHTTP(w, r)
	case "dynamodb":
		f.dynamo.ServeHTTP(w, r)
	default:
		f.sandbox.ServeHTTP(w, r)
	}
}

// signingName is the service of a SigV4 Authorization header's credential
// scope (KEY/DATE/REGION/SERVICE/aws4_request).
func signingName(r *http.Request) string {
	_, cred, _ := strings.Cut(r.Header.Get("Authorization"), "Credential=")
	cred, _, _ = strings.Cut(cred, ",")
	if parts := strings.Split(cred, "/"); len(parts) == 5 {
		return parts[3]
	}
	return ""
}

// executions serves StartExecution and DescribeExecution of the deployed
// state machines: each execution runs its synthesized definition under
// scripts/sfn with the real handlers, as the e2e tests run them.
type executions struct {
	// ctx outlives the StartExecution call that starts a run: the test's.
	ctx  context.Context
	e    *e2e
	defs map[string]string // state machine ARN → definition name
	mu   sync.Mutex
	runs map[string]*execution // by execution ARN
}

type execution struct {
	def, arn, machine, name, input string
	started                        time.Time
	done                           chan struct{}
	ex                             statemachine.Execution
	err                            error
}

func (x *executions) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	var in struct {
		StateMachineArn, Name, Input, ExecutionArn string
	}
	if err := json.NewDecoder(r.Body).Decode(&in); err != nil {
		sfnError(w, "ValidationException", err.Error())
		return
	}
	switch r.Header.Get("X-Amz-Target") {
	case "AWSStepFunctions.StartExecution":
		def, ok := x.defs[in.StateMachineArn]
		if !ok {
			sfnError(w, "StateMachineDoesNotExist", "State Machine Does Not Exist: '"+in.StateMachineArn+"'")
			return
		}
		var input any = map[string]any{}
		if in.Input != "" {
			if err := json.Unmarshal([]byte(in.Input), &input); err != nil {
				sfnError(w, "InvalidExecutionInput", err.Error())
				return
			}
		}
		arn := strings.Replace(in.StateMachineArn, ":stateMachine:", ":execution:", 1) + ":" + in.Name
		ex := &execution{def: def, arn: arn, machine: in.StateMachineArn, name: in.Name, input: in.Input, started: time.Now(), done: make(chan struct{})}
		x.mu.Lock()
		if x.runs == nil {
			x.runs = map[string]*execution{}
		}
		if _, dup := x.runs[arn]; dup {
			x.mu.Unlock()
			sfnError(w, "ExecutionAlreadyExists", "Execution Already Exists: '"+arn+"'")
			return
		}
		x.runs[arn] = ex
		x.mu.Unlock()
		go func() {
			defer close(ex.done)
			ex.ex, ex.err = x.e.local.Run(x.ctx, statemachine.Run{
				Definition: def, Input: input, LambdaEndpoint: x.e.lambdaURL, TaskTokens: x.e.tokens.URL,
				ExecutionName: in.Name, Account: demoAccount(0), RetryMillis: 1,
				S3Endpoint: x.e.sandboxURL, AccessKeyID: statesKey(def), SecretAccessKey: "e2e-session-secret",
			})
		}()
		sfnReply(w, map[string]any{"executionArn": arn, "startDate": float64(ex.started.UnixMilli()) / 1000})
	case "AWSStepFunctions.DescribeExecution":
		x.mu.Lock()
		ex, ok := x.runs[in.ExecutionArn]
		x.mu.Unlock()
		if !ok {
			sfnError(w, "ExecutionDoesNotExist", "Execution Does Not Exist: '"+in.ExecutionArn+"'")
			return
		}
		out := map[string]any{"executionArn": ex.arn, "stateMachineArn": ex.machine, "name": ex.name, "input": ex.input,
			"startDate": float64(ex.started.UnixMilli()) / 1000, "status": "RUNNING"}
		select {
		case <-ex.done:
			switch {
			case ex.err != nil:
				out["status"], out["error"], out["cause"] = "FAILED", "States.Runtime", ex.err.Error()
			default:
				out["status"] = ex.ex.Status
				if len(ex.ex.Output) > 0 {
					out["output"] = string(ex.ex.Output)
				}
				if ex.ex.Error != nil {
					out["error"], out["cause"] = ex.ex.Error.Error, ex.ex.Error.Cause
				}
			}
		default:
		}
		sfnReply(w, out)
	default:
		sfnError(w, "UnknownOperationException", "not served by the acceptance front: "+r.Header.Get("X-Amz-Target"))
	}
}

// finished waits for every execution started and returns them.
func (x *executions) finished(t *testing.T) []*execution {
	t.Helper()
	x.mu.Lock()
	defer x.mu.Unlock()
	var out []*execution
	for _, ex := range x.runs {
		<-ex.done
		if ex.err != nil {
			t.Errorf("execution %s: %v", ex.arn, ex.err)
			continue
		}
		out = append(out, ex)
	}
	if len(out) < 2 {
		t.Errorf("the script ran %d executions, want a sweep and a revert", len(out))
	}
	return out
}

func sfnReply(w http.ResponseWriter, v any) {
	w.Header().Set("Content-Type", "application/x-amz-json-1.0")
	_ = json.NewEncoder(w).Encode(v)
}

func sfnError(w http.ResponseWriter, code, msg string) {
	w.Header().Set("Content-Type", "application/x-amz-json-1.0")
	w.WriteHeader(http.StatusBadRequest)
	_ = json.NewEncoder(w).Encode(map[string]string{"__type": code, "message": msg})
}
