package service_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	lambdaevents "github.com/aws/aws-lambda-go/events"
	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/credentials"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/sts"
	"github.com/google/go-cmp/cmp"

	"github.com/realdrift/realdrift/internal/cli"
	"github.com/realdrift/realdrift/internal/deadlinetest"
	"github.com/realdrift/realdrift/internal/drift"
	"github.com/realdrift/realdrift/internal/lambdarouter"
	"github.com/realdrift/realdrift/internal/live"
	"github.com/realdrift/realdrift/internal/notify"
	"github.com/realdrift/realdrift/internal/revert"
	"github.com/realdrift/realdrift/internal/sandbox"
	"github.com/realdrift/realdrift/internal/sandbox/worldgen"
	"github.com/realdrift/realdrift/internal/service"
	"github.com/realdrift/realdrift/internal/store"
	"github.com/realdrift/realdrift/statemachine"
	"github.com/realdrift/realdrift/statemachine/statemachinetest"
)

// The member revert role and the approval link's base, as the e2e
// deployment names them.
const (
	revertRole  = "realdrift-revert"
	approvalURL = "https://approve.realdrift.example/"
	revertARN   = "arn:aws:states:us-east-1:100000000001:stateMachine:realdrift-revert"
)

// alertRevertInput returns the revert input the Slack drift alert of ref
// offers beside its Revert button (the Step Functions console link).
func (e *e2e) alertRevertInput(t *testing.T, ref drift.StackRef) statemachine.RevertInput {
	t.Helper()
	e.hook.mu.Lock()
	defer e.hook.mu.Unlock()
	for _, p := range e.hook.posts {
		if !strings.Contains(p, `"start-revert"`) || !strings.Contains(p, notify.RevertConsoleURL(revertARN)) {
			continue
		}
		var msg struct {
			Blocks []struct{ Text *struct{ Text string } }
		}
		_ = json.Unmarshal([]byte(p), &msg)
		for _, b := range msg.Blocks {
			if b.Text == nil || !strings.HasPrefix(b.Text.Text, "_Revert:") {
				continue
			}
			_, raw, _ := strings.Cut(b.Text.Text, "`")
			raw = strings.TrimSuffix(raw, "`")
			var in statemachine.RevertInput
			if err := json.Unmarshal([]byte(raw), &in); err == nil && in.Ref() == ref {
				return in
			}
		}
	}
	t.Fatalf("no drift alert of %s offers a revert", ref)
	return statemachine.RevertInput{}
}

// revertRoleCopy is the committed copy of the member revert role's
// policies (infra TestRevertRolePolicyCopy keeps it equal to the
// synthesized role).
type revertRoleCopy struct {
	Role   string
	Inline []struct {
		PolicyName     string
		PolicyDocument struct {
			Version   string
			Statement []map[string]any
		}
	}
	Managed []json.RawMessage
	// Handlers are the customer managed policies granting the Cloud
	// Control handler permissions of Types, through AWS services only.
	Handlers []struct {
		PolicyName     string
		PolicyDocument json.RawMessage
	}
	Types []string
}

func readRevertRole(t *testing.T) revertRoleCopy {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(iamDir, "member-revert-role.json"))
	if err != nil {
		t.Fatal(err)
	}
	var c revertRoleCopy
	if err := json.Unmarshal(b, &c); err != nil {
		t.Fatal(err)
	}
	if c.Role != revertRole || len(c.Managed) != 0 || len(c.Handlers) == 0 || len(c.Types) == 0 {
		t.Fatalf("revert role copy is of %s with AWS managed policies %s, %d handler policies of %d types; the e2e assumes %s, its own policies only, handler grants",
			c.Role, c.Managed, len(c.Handlers), len(c.Types), revertRole)
	}
	return c
}

// revertRoleDocuments returns the revert role's policy documents — inline
// and its Cloud Control handler policies — as one member account sees them
// (its partition and account id resolved), deployed with HandlerCalledVia
// empty, as by default.
func revertRoleDocuments(t *testing.T) func(account string) []json.RawMessage {
	return revertRoleDocumentsVia(t, "")
}

// revertRoleDocumentsVia is revertRoleDocuments with the member stack's
// HandlerCalledVia parameter set to via.
func revertRoleDocumentsVia(t *testing.T, via string) func(account string) []json.RawMessage {
	c := readRevertRole(t)
	return func(account string) []json.RawMessage {
		var docs []json.RawMessage
		for _, p := range c.Inline {
			b, err := json.Marshal(p.PolicyDocument)
			if err != nil {
				t.Fatal(err)
			}
			docs = append(docs, resolveIntrinsics(t, b, account, via))
		}
		for _, p := range c.Handlers {
			docs = append(docs, resolveIntrinsics(t, p.PolicyDocument, account, via))
		}
		return docs
	}
}

// noValue is what resolveIntrinsics gives AWS::NoValue: the key holding it
// is left out, as CloudFormation leaves it out.
type noValue struct{}

// resolveIntrinsics resolves the intrinsics of a synthesized member policy as
// CloudFormation does in account (partition aws) with HandlerCalledVia
// via: Fn::Join ARNs, and Fn::If on HandlersNarrowed (true when via is
// set) with Ref HandlerCalledVia and AWS::NoValue.
func resolveIntrinsics(t *testing.T, doc []byte, account, via string) json.RawMessage {
	t.Helper()
	var v any
	if err := json.Unmarshal(doc, &v); err != nil {
		t.Fatal(err)
	}
	var walk func(v any) any
	walk = func(v any) any {
		switch x := v.(type) {
		case map[string]any:
			switch x["Ref"] {
			case "AWS::NoValue":
				return noValue{}
			case "HandlerCalledVia":
				return via
			}
			if f, ok := x["Fn::If"].([]any); ok {
				if len(f) != 3 || f[0] != "HandlersNarrowed" {
					t.Fatalf("revert role policy: cannot resolve Fn::If %v", f)
				}
				if via != "" {
					return walk(f[1])
				}
				return walk(f[2])
			}
			if j, ok := x["Fn::Join"].([]any); ok {
				var b strings.Builder
				for _, part := range j[1].([]any) {
					switch p := part.(type) {
					case string:
						b.WriteString(p)
					case map[string]any:
						switch p["Ref"] {
						case "AWS::Partition":
							b.WriteString("aws")
						case "AWS::AccountId":
							b.WriteString(account)
						default:
							t.Fatalf("revert role policy: cannot resolve %v", p)
						}
					}
				}
				return b.String()
			}
			for k, e := range x {
				if r := walk(e); r == (noValue{}) {
					delete(x, k)
				} else {
					x[k] = r
				}
			}
		case []any:
			for i, e := range x {
				x[i] = walk(e)
			}
		}
		return v
	}
	b, err := json.Marshal(walk(v))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestRevertRoleIsTheWriters holds the revert role infra deploys to
// exactly the actions the writers call (live.WriteActions): no more, and
// none missing.
func TestRevertRoleIsTheWriters(t *testing.T) {
	var allowed []string
	for _, p := range readRevertRole(t).Inline {
		for _, st := range p.PolicyDocument.Statement {
			if st["Effect"] != "Allow" {
				continue
			}
			for _, a := range st["Action"].([]any) {
				allowed = append(allowed, a.(string))
			}
		}
	}
	slices.Sort(allowed)
	if diff := cmp.Diff(allowed, live.WriteActions()); diff != "" {
		t.Errorf("the revert role's actions differ from the writers' (-role +writers; change infra revertActions and rerun its -update):\n%s", diff)
	}
}

// writeCalls counts the sandbox calls whose IAM action is a writer's.
func writeCalls(sb *sandbox.Server) map[string]int {
	out := map[string]int{}
	for api, n := range sb.Calls().Counts {
		svc, op, _ := strings.Cut(api, ":")
		if a := sandbox.IAMAction(svc, op); slices.Contains(live.WriteActions(), a) && a != "cloudformation:GetResource" &&
			a != "cloudformation:GetResourceRequestStatus" && !strings.Contains(a, ":Get") && !strings.Contains(a, ":List") {
			out[a] += n
		}
	}
	return out
}

// revertRun is one revert execution running under the local interpreter.
type revertRun struct {
	local statemachine.Local
	name  string
	done  chan struct{}
	ex    statemachine.Execution
	err   error
}

// startRevert starts the real revert definition for input.
func (e *e2e) startRevert(t *testing.T, name string, input statemachine.RevertInput) *revertRun {
	return e.startRevertScaled(t, name, input, 0)
}

// startRevertScaled starts a revert whose runner clocks (the approval's
// TimeoutSeconds, the execution's) run scale times faster.
func (e *e2e) startRevertScaled(t *testing.T, name string, input statemachine.RevertInput, scale float64) *revertRun {
	t.Helper()
	r := &revertRun{local: e.local, name: name, done: make(chan struct{})}
	go func() {
		defer close(r.done)
		r.ex, r.err = e.local.Run(context.WithoutCancel(t.Context()), statemachine.Run{
			Definition: statemachine.Revert, Input: input, LambdaEndpoint: e.lambdaURL, TaskTokens: e.tokens.URL,
			ExecutionName: name, Account: demoAccount(0), RetryMillis: 1, TimeScale: scale,
			AccessKeyID: statesKey("revert"), SecretAccessKey: "e2e-session-secret",
		})
	}()
	return r
}

// wait returns the finished execution.
func (r *revertRun) wait(t *testing.T) statemachine.Execution {
	t.Helper()
	select {
	case <-r.done:
	case <-deadlinetest.After(t, 3*time.Minute):
		t.Fatalf("revert %s did not finish", r.name)
	}
	if r.err != nil {
		t.Fatalf("revert %s: %v", r.name, r.err)
	}
	statemachinetest.CheckStateOutputs(t, r.ex)
	statemachinetest.CheckSynthesized(t, r.local, statemachine.Revert, r.ex)
	return r.ex
}

// awaitApproval waits until the execution asks for approval.
func (e *e2e) awaitApproval(t *testing.T, r *revertRun) {
	t.Helper()
	ctx := deadlinetest.Context(t, 3*time.Minute)
	waiting := make(chan error, 1)
	go func() { _, err := e.tokens.Awaiting(ctx); waiting <- err }()
	select {
	case err := <-waiting:
		if err != nil {
			t.Fatalf("revert %s never asked for approval: %v", r.name, err)
		}
	case <-r.done:
		t.Fatalf("revert %s ended before asking for approval: %s %+v (%v)", r.name, r.ex.Status, r.ex.Error, r.err)
	}
}

// approve runs `realdrift approve` as the central account's operator.
func (e *e2e) approve(t *testing.T, args ...string) (string, string, int) {
	t.Helper()
	env := map[string]string{
		"AWS_ACCESS_KEY_ID": worldgen.DemoAccessKey(demoAccount(0)), "AWS_SECRET_ACCESS_KEY": "e2e-secret",
		"AWS_ENDPOINT_URL_SFN": e.sfnURL, "AWS_ENDPOINT_URL_STS": e.sandboxURL, "HOME": t.TempDir(),
	}
	var stdout, stderr bytes.Buffer
	code := cli.Run(t.Context(), cli.IO{Stdout: &stdout, Stderr: &stderr, Getenv: func(k string) string { return env[k] }},
		append([]string{"approve", "--store", "dynamodb://" + e.table + "?region=us-east-1", "--endpoint-url", e.ddbURL}, args...))
	return stdout.String(), stderr.String(), code
}

// audited decodes a finished revert's output and reads its audit item.
func (e *e2e) audited(t *testing.T, ex statemachine.Execution) (statemachine.RevertAudited, service.Audit) {
	t.Helper()
	var out statemachine.RevertAudited
	if err := json.Unmarshal(ex.Output, &out); err != nil {
		t.Fatalf("revert output %s: %v", ex.Output, err)
	}
	a, err := e.svc.LoadAudit(t.Context(), out.RunID, out.Key)
	if err != nil {
		t.Fatal(err)
	}
	return out, a
}

// approvalFront serves the approve-link function as its function URL
// (AuthType AWS_IAM) does: Lambda verifies the SigV4 signature, asks IAM
// whether the signer may lambda:InvokeFunctionUrl the function (the
// sandbox's evaluation of its identity policies, with
// lambda:FunctionUrlAuthType AWS_IAM) and names the signer: the central
// account's operator (its identity as the sandbox's STS answers it), or
// persist's execution role session, whose policies grant no such call. It
// returns the URL and the operator's ARN.
func (e *e2e) approvalFront(t *testing.T) (string, string) {
	t.Helper()
	h, operator := e.approvalHandler(t)
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	return srv.URL + "/", operator
}

// approvalHandler is approvalFront's handler and the operator's ARN.
func (e *e2e) approvalHandler(t *testing.T) (http.Handler, string) {
	t.Helper()
	key := worldgen.DemoAccessKey(demoAccount(0))
	who := sts.New(sts.Options{Region: "us-east-1", BaseEndpoint: aws.String(e.sandboxURL), Credentials: credentials.NewStaticCredentialsProvider(key, "e2e-secret", "")})
	id, err := who.GetCallerIdentity(t.Context(), &sts.GetCallerIdentityInput{})
	if err != nil {
		t.Fatal(err)
	}
	operator := lambdarouter.Caller{SecretAccessKey: "e2e-secret", ARN: aws.ToString(id.Arn), Account: aws.ToString(id.Account), UserID: aws.ToString(id.UserId)}
	persist := lambdarouter.Caller{SecretAccessKey: "e2e-session-secret", ARN: "arn:aws:sts::" + demoAccount(0) + ":assumed-role/realdrift-persist/realdrift-persist", Account: demoAccount(0), UserID: "AROAPERSIST:realdrift-persist"}
	return &lambdarouter.FunctionURL{Router: e.router, Function: statemachine.FunctionApproveLink,
		ARN: "arn:aws:lambda:" + centralRegion + ":" + demoAccount(0) + ":function:realdrift-" + statemachine.FunctionApproveLink,
		Callers: func(k string) (lambdarouter.Caller, bool) {
			switch k {
			case key:
				return operator, true
			case functionKey("persist"):
				return persist, true
			}
			return lambdarouter.Caller{}, false
		},
		Authorize: func(k string, a lambdarouter.Ask) bool {
			return e.sandbox.Allows(k, centralRegion, sandbox.Ask{Action: a.Action, Resource: a.Resource, Keys: a.Keys})
		}}, operator.ARN
}

// approveURL runs `realdrift approve --url` as the central account's
// operator.
func (e *e2e) approveURL(t *testing.T, u string, args ...string) (string, string, int) {
	t.Helper()
	return e.approveURLAs(t, worldgen.DemoAccessKey(demoAccount(0)), "e2e-secret", u, args...)
}

// approveURLAs runs `realdrift approve --url` with the given credentials.
func (e *e2e) approveURLAs(t *testing.T, key, secret, u string, args ...string) (string, string, int) {
	t.Helper()
	env := map[string]string{"AWS_ACCESS_KEY_ID": key, "AWS_SECRET_ACCESS_KEY": secret, "AWS_REGION": "us-east-1", "HOME": t.TempDir()}
	var stdout, stderr bytes.Buffer
	code := cli.Run(t.Context(), cli.IO{Stdout: &stdout, Stderr: &stderr, Getenv: func(k string) string { return env[k] }},
		append([]string{"approve", "--url", u}, args...))
	return stdout.String(), stderr.String(), code
}

// TestRevertEndToEnd runs the revert state machine (the real ASL under the
// local interpreter, the real handlers, the sandbox organisation with the
// member read and revert roles enforced as infra deploys them, DynamoDB
// Local): a dry run writes nothing; an approved revert (realdrift approve)
// writes through the revert role, converges and is audited with its
// approver; a rejected one (the approval link) writes nothing.
func TestRevertEndToEnd(t *testing.T) {
	e := startE2EWith(t, e2eConfig{readPolicies: readRoleDocuments(t), revertPolicies: revertRoleDocuments(t)})
	queueDrift := func(ref drift.StackRef) bool {
		list, _ := e.cliFindings(t, ref).([]any)
		for _, f := range list {
			m, _ := f.(map[string]any)
			if m["tier"] == "declared" && m["path"] == "VisibilityTimeout" && strings.HasPrefix(m["logicalId"].(string), "OrdersQueue") {
				return true
			}
		}
		return false
	}
	approved := drift.StackRef{Account: demoAccount(0), Region: "us-east-1", Name: "OrdersService"}
	rejected := drift.StackRef{Account: demoAccount(2), Region: "us-east-1", Name: "OrdersService"}
	for _, ref := range []drift.StackRef{approved, rejected} {
		if !queueDrift(ref) {
			t.Fatalf("%s: the planted VisibilityTimeout drift is missing", ref)
		}
	}

	t.Run("dry run writes nothing", func(t *testing.T) {
		e.sandbox.ResetCalls()
		ex := e.startRevert(t, "revert-dry", statemachine.RevertInput{Account: approved.Account, Region: approved.Region, Stack: approved.Name, All: true, DryRun: true}).wait(t)
		if ex.Status != "SUCCEEDED" {
			t.Fatalf("dry run: %s %+v", ex.Status, ex.Error)
		}
		var out struct {
			Status string
			Items  int
		}
		_ = json.Unmarshal(ex.Output, &out)
		if out.Status != "planned" || out.Items == 0 {
			t.Errorf("dry run output %s: want planned with items", ex.Output)
		}
		if w := writeCalls(e.sandbox); len(w) != 0 {
			t.Errorf("the dry run made write calls: %v", w)
		}
		if _, _, code := e.approve(t, "revert-dry"); code == 0 {
			t.Error("realdrift approve of a dry run succeeded; nothing waits for approval")
		}
	})

	t.Run("approved", func(t *testing.T) {
		// A sweep alerts on the drift; the alert's Revert link gives the
		// execution's input.
		e.sweep(t, "sweep-before-revert")
		input := e.alertRevertInput(t, approved)
		if !input.All || input.DryRun {
			t.Errorf("the alert's revert input %+v: want all, not a dry run (the approval shows the plan)", input)
		}
		e.sandbox.ResetCalls()
		r := e.startRevert(t, "revert-approved", input)
		e.awaitApproval(t, r)
		if w := writeCalls(e.sandbox); len(w) != 0 {
			t.Fatalf("writes before the approval: %v", w)
		}
		if _, errs, code := e.approve(t, "no-such-execution"); code != 2 || !strings.Contains(errs, "no approval is pending") {
			t.Errorf("approve of an unknown execution: exit %d, %s", code, errs)
		}
		out, errs, code := e.approve(t, "arn:aws:states:us-east-1:"+demoAccount(0)+":execution:realdrift-revert:revert-approved")
		if code != 0 || !strings.Contains(out, "approved the revert of "+approved.String()) {
			t.Fatalf("realdrift approve: exit %d\n%s%s", code, out, errs)
		}
		ex := r.wait(t)
		if ex.Status != "SUCCEEDED" {
			t.Fatalf("approved revert: %s %+v", ex.Status, ex.Error)
		}
		res, a := e.audited(t, ex)
		t.Logf("approved revert: %s; writes %v", ex.Output, writeCalls(e.sandbox))
		if res.Status != statemachine.RevertApplied || a.Status != statemachine.RevertApplied {
			t.Errorf("status %s (audit %s), want applied", res.Status, a.Status)
		}
		if a.Approval == nil || !a.Approval.Approved || a.Approval.Via != "cli" || !strings.Contains(a.Approval.Approver, demoAccount(0)) {
			t.Errorf("audit approval %+v: want approved via cli by the central account's identity", a.Approval)
		}
		if len(a.Items) == 0 || a.Counts["reverted"] != len(a.Items) {
			t.Errorf("audit counts %v over %d items: want every item reverted", a.Counts, len(a.Items))
		}
		found := false
		for _, it := range a.Items {
			if it.Status != "reverted" {
				t.Errorf("item %s: %s %s", it.ID, it.Status, it.Error)
			}
			if it.Path == "VisibilityTimeout" && strings.HasPrefix(it.LogicalID, "OrdersQueue") {
				found = true
				if before, _ := json.Marshal(it.Before); string(before) != "300" || it.After == nil || cmp.Equal(it.After, it.Before) {
					t.Errorf("queue item before %s after %v: want 300 before and the template's value after", before, it.After)
				}
			}
		}
		if !found {
			t.Errorf("the audit has no item for the queue's VisibilityTimeout: %+v", a.Items)
		}
		// The audit item is out of reach of the functions that write
		// findings (no grant on AUDIT#), and written once: not even
		// revert-audit replaces it.
		auditAs := func(fn string) error {
			db := dynamodb.New(dynamodb.Options{Region: "us-east-1", BaseEndpoint: aws.String(e.ddbURL), RetryMaxAttempts: 1,
				Credentials: credentials.NewStaticCredentialsProvider(functionKey(fn), "e2e-session-secret", "")})
			return store.NewDynamo(db, e.table).PutAudit(t.Context(), res.RunID, res.Key, []byte(`{"status":"forged"}`), time.Now().Add(time.Hour))
		}
		for _, fn := range []string{"persist", "classify", "notify"} {
			if err := auditAs(fn); err == nil || !strings.Contains(err.Error(), "AccessDenied") {
				t.Errorf("%s overwriting the audit item: %v, want AccessDenied", fn, err)
			}
		}
		if err := auditAs("revert-audit"); !errors.Is(err, store.ErrExists) {
			t.Errorf("revert-audit writing the audit item again: %v, want store.ErrExists", err)
		}
		if again, _ := e.svc.LoadAudit(t.Context(), res.RunID, res.Key); again.Status != statemachine.RevertApplied {
			t.Errorf("the audit item after the attempts: status %q", again.Status)
		}
		if w := writeCalls(e.sandbox); w["cloudformation:UpdateResource"] == 0 {
			t.Errorf("write calls %v: want the queue's Cloud Control update", w)
		}
		if queueDrift(approved) {
			t.Errorf("%s: the VisibilityTimeout drift remains after the revert", approved)
		}
		if _, errs, code := e.approve(t, "revert-approved", "--reject"); code != 2 || !strings.Contains(errs, "already decided") {
			t.Errorf("a second decision: exit %d, %s; want refused as already decided", code, errs)
		}
		if !strings.Contains(strings.Join(e.hook.posts, "\n"), "Revert finished: "+approved.Name) {
			t.Error("no Slack message of the finished revert")
		}
	})

	t.Run("rejected", func(t *testing.T) {
		e.sandbox.ResetCalls()
		r := e.startRevert(t, "revert-rejected", statemachine.RevertInput{Account: rejected.Account, Region: rejected.Region, Stack: rejected.Name, Findings: []string{"OrdersQueue*.VisibilityTimeout"}})
		e.awaitApproval(t, r)
		// The message gives the command, no link that decides: reading the
		// channel approves nothing.
		e.hook.mu.Lock()
		posts := strings.Join(e.hook.posts, "\n")
		e.hook.mu.Unlock()
		if !strings.Contains(posts, "realdrift approve revert-rejected --url "+approvalURL) || strings.Contains(posts, "code=") {
			t.Errorf("the approval message: want the `realdrift approve --url` command and no link with a code:\n%s", posts)
		}
		front, operator := e.approvalFront(t)
		// Unsigned: Lambda refuses before the function runs.
		unsigned, err := http.Post(front, "application/json", strings.NewReader(`{"execution":"revert-rejected","decision":"approve"}`))
		if err != nil {
			t.Fatal(err)
		}
		_ = unsigned.Body.Close()
		if unsigned.StatusCode != 403 {
			t.Errorf("an unsigned decision: HTTP %d, want 403", unsigned.StatusCode)
		}
		// Were the URL deployed with AuthType NONE, the function itself
		// refuses a request Lambda names no signer for.
		req := lambdaevents.LambdaFunctionURLRequest{Version: "2.0", RawPath: "/", Body: `{"execution":"revert-rejected","decision":"approve"}`}
		req.RequestContext.HTTP.Method = "POST"
		req.RequestContext.HTTP.SourceIP = "198.51.100.9"
		var direct lambdaevents.LambdaFunctionURLResponse
		invoke(t, e.lambdaClient(t), statemachine.FunctionApproveLink, req, &direct)
		if direct.StatusCode != 403 || !strings.Contains(direct.Body, "IAM-signed") {
			t.Errorf("a decision without a signer: HTTP %d %s, want 403", direct.StatusCode, direct.Body)
		}
		// Signed, but by a principal IAM allows no lambda:InvokeFunctionUrl
		// on the function: Lambda refuses (403) before the function runs,
		// and the decision stays open for the operator below.
		if out, errs, code := e.approveURLAs(t, functionKey("persist"), "e2e-session-secret", front, "revert-rejected"); code == 0 || strings.Contains(out, "approved") {
			t.Errorf("realdrift approve --url signed by persist's role (no lambda:InvokeFunctionUrl): exit %d\n%s%s", code, out, errs)
		}
		if out, errs, code := e.approveURL(t, front, "revert-rejected", "--reject", "--reason", "not during the freeze"); code != 0 || !strings.Contains(out, "rejected the revert of "+rejected.String()) {
			t.Fatalf("realdrift approve --url --reject: exit %d\n%s%s", code, out, errs)
		}
		ex := r.wait(t)
		if ex.Status != "SUCCEEDED" {
			t.Fatalf("rejected revert: %s %+v", ex.Status, ex.Error)
		}
		res, a := e.audited(t, ex)
		if res.Status != statemachine.RevertRejected || a.Approval == nil || a.Approval.Approved || a.Approval.Via != service.ViaURL || a.Approval.Approver != operator || a.Approval.Reason != "not during the freeze" {
			t.Errorf("rejected revert: status %s, approval %+v", res.Status, a.Approval)
		}
		if w := writeCalls(e.sandbox); len(w) != 0 {
			t.Errorf("the rejected revert made write calls: %v", w)
		}
		if !queueDrift(rejected) {
			t.Errorf("%s: the drift is gone after a rejected revert", rejected)
		}
		for _, it := range a.Items {
			if it.Status != "notWritten" {
				t.Errorf("rejected item %s: %s", it.ID, it.Status)
			}
		}
	})

	// The plan is approved as it was shown: a value changed between the
	// plan and the approval is refused at the write, audited, not written.
	t.Run("stale plan refused", func(t *testing.T) {
		r := e.startRevert(t, "revert-stale", statemachine.RevertInput{Account: rejected.Account, Region: rejected.Region, Stack: rejected.Name, Findings: []string{"OrdersQueue*.VisibilityTimeout"}})
		e.awaitApproval(t, r)
		var plan struct{ Plan revert.Plan }
		b, err := e.store.GetState(t.Context(), "revert-stale", "revert-plan."+rejected.Account+":"+rejected.Region+":"+rejected.Name)
		if err != nil || json.Unmarshal(b, &plan) != nil || len(plan.Plan.Items) != 1 {
			t.Fatalf("the stored plan: %v %s", err, b)
		}
		queue := plan.Plan.Items[0]
		if err := e.sandbox.Apply(sandbox.Change{Op: sandbox.OpSet, Account: rejected.Account, Region: rejected.Region,
			Type: "AWS::SQS::Queue", Identifier: queue.Identifier, Path: "VisibilityTimeout", Value: json.RawMessage(`450`)}); err != nil {
			t.Fatal(err)
		}
		e.sandbox.ResetCalls()
		if out, errs, code := e.approve(t, "revert-stale"); code != 0 {
			t.Fatalf("realdrift approve: exit %d\n%s%s", code, out, errs)
		}
		ex := r.wait(t)
		if ex.Status != "SUCCEEDED" {
			t.Fatalf("stale revert: %s %+v", ex.Status, ex.Error)
		}
		_, a := e.audited(t, ex)
		if len(a.Items) != 1 || a.Items[0].Status != "failed" || !strings.Contains(a.Items[0].Error, "stale plan") || !strings.Contains(a.Items[0].Error, "450") {
			t.Errorf("audit items %+v: want the queue's item refused as a stale plan naming the live 450", a.Items)
		}
		if w := writeCalls(e.sandbox); w["cloudformation:UpdateResource"] != 0 {
			t.Errorf("write calls %v: the stale item was written", w)
		}
		if got, _ := e.sandbox.Live(rejected.Account, rejected.Region, "AWS::SQS::Queue", queue.Identifier); !strings.Contains(string(got), `"VisibilityTimeout":450`) {
			t.Errorf("the queue after a refused stale write: %s", got)
		}
	})

	// An approval nobody answers expires (the approval's TimeoutSeconds on
	// the runner's clock, a day run in seconds): audited as expired,
	// nothing written, a late decision refused.
	t.Run("expiry", func(t *testing.T) {
		e.sandbox.ResetCalls()
		scale := 86400 / deadlinetest.Scale(t, 8*time.Second).Seconds()
		r := e.startRevertScaled(t, "revert-expired", statemachine.RevertInput{Account: rejected.Account, Region: rejected.Region, Stack: rejected.Name, All: true}, scale)
		ex := r.wait(t)
		if ex.Status != "SUCCEEDED" {
			t.Fatalf("expired revert: %s %+v", ex.Status, ex.Error)
		}
		res, a := e.audited(t, ex)
		if res.Status != service.RevertExpired || a.Approval != nil {
			t.Errorf("expired revert: status %s, approval %+v; want %s without an approval", res.Status, a.Approval, service.RevertExpired)
		}
		if w := writeCalls(e.sandbox); len(w) != 0 {
			t.Errorf("the expired revert made write calls: %v", w)
		}
		if _, errs, code := e.approve(t, "revert-expired"); code != 2 || !strings.Contains(errs, "no longer pending") {
			t.Errorf("a late approval: exit %d, %s; want refused as no longer pending", code, errs)
		}
	})
}

// TestRevertHandlersNarrowed: deployed with HandlerCalledVia set, the
// revert role's Cloud Control handler grants hold only for calls made
// through the service it names (infra's HandlersNarrowed). Narrowed to the
// value Cloud Control's handler calls carry (the sandbox's
// CloudControlCalledVia), the queue's Cloud Control update is applied;
// in an account whose stack was deployed with another service's value,
// the handler's own calls are refused and the revert's item fails naming
// AccessDenied in the audit — a wrong value shows at the first revert,
// never as a reverted item.
func TestRevertHandlersNarrowed(t *testing.T) {
	right, wrong := demoAccount(0), demoAccount(2)
	via := map[string]string{right: sandbox.CloudControlCalledVia, wrong: "athena.amazonaws.com"}
	e := startE2EWith(t, e2eConfig{readPolicies: readRoleDocuments(t), revertPolicies: func(account string) []json.RawMessage {
		return revertRoleDocumentsVia(t, via[account])(account)
	}})
	for _, account := range []string{right, wrong} {
		ref := drift.StackRef{Account: account, Region: "us-east-1", Name: "OrdersService"}
		name := "revert-narrowed-" + account
		e.sandbox.ResetCalls()
		r := e.startRevert(t, name, statemachine.RevertInput{Account: ref.Account, Region: ref.Region, Stack: ref.Name, Findings: []string{"OrdersQueue*.VisibilityTimeout"}})
		e.awaitApproval(t, r)
		if out, errs, code := e.approve(t, "arn:aws:states:us-east-1:"+demoAccount(0)+":execution:realdrift-revert:"+name); code != 0 {
			t.Fatalf("%s: realdrift approve: exit %d\n%s%s", ref, code, out, errs)
		}
		ex := r.wait(t)
		if ex.Status != "SUCCEEDED" {
			t.Fatalf("%s: revert %s %+v", ref, ex.Status, ex.Error)
		}
		res, a := e.audited(t, ex)
		t.Logf("%s narrowed to %s: %s; audit counts %v; writes %v", ref, via[account], res.Status, a.Counts, writeCalls(e.sandbox))
		if len(a.Items) == 0 {
			t.Fatalf("%s: nothing planned", ref)
		}
		if account == right {
			if res.Status != statemachine.RevertApplied || a.Counts["reverted"] != len(a.Items) {
				t.Errorf("%s narrowed to Cloud Control's value: %s, counts %v; want every item reverted", ref, res.Status, a.Counts)
			}
			continue
		}
		if a.Counts["reverted"] != 0 || a.Counts["failed"] != len(a.Items) {
			t.Errorf("%s narrowed to another service's value: counts %v; want every item failed, none reverted", ref, a.Counts)
		}
		for _, it := range a.Items {
			if !strings.Contains(it.Error, "AccessDenied") {
				t.Errorf("%s item %s: %s %q, want it failed on the handler's AccessDenied", ref, it.ID, it.Status, it.Error)
			}
		}
	}
}
