package service_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/credentials"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"

	"github.com/realdrift/realdrift/internal/drift"
	"github.com/realdrift/realdrift/internal/notify"
	"github.com/realdrift/realdrift/internal/sandbox"
	"github.com/realdrift/realdrift/internal/service"
	"github.com/realdrift/realdrift/internal/store"
	"github.com/realdrift/realdrift/statemachine"
	"github.com/realdrift/realdrift/statemachine/statemachinetest"
)

// acceptARN is the accept state machine the e2e's drift alerts link to.
const acceptARN = "arn:aws:states:us-east-1:100000000001:stateMachine:realdrift-accept"

// TestAcceptEndToEnd: accept.asl.json under the local interpreter with the
// real handlers, the sandbox organisation (the member read role's policies
// enforced as infra deploys them) and DynamoDB Local. An accept records the
// stack's live-only state into the table's baseline through the read role
// and audits it; the next sweep reports no undeclared drift for the stack.
// An undeclared change then alerts with an Accept… link; the accept started
// with the link's input records it, with its recorded value before, and the
// sweep after reports no undeclared drift again while the declared drift
// stays. An accept of a stack that does not exist fails AcceptFailed,
// audited with the error, and records nothing.
func TestAcceptEndToEnd(t *testing.T) {
	e := startE2EWith(t, e2eConfig{readPolicies: readRoleDocuments(t), accept: true})
	e.cliStore = "dynamodb://" + e.table + "?region=us-east-1"
	ref := drift.StackRef{Account: demoAccount(2), Region: "us-east-1", Name: "OrdersService"}

	e.sweep(t, "accept-sweep-1")
	before, _ := e.storedFindings(t, ref)
	if !hasLiveOnly(before) || !hasDeclared(before) {
		t.Fatalf("%s before the accept: want live-only findings and declared drift, got %v", ref, before)
	}
	watched := watchedQueueValue(t, before)

	// 1. Accept everything live-only, as a person starts it from the console.
	ex := e.runAccept(t, "accept-1", statemachine.AcceptInput{Account: ref.Account, Region: ref.Region, Stack: ref.Name, Reason: "the subscription is intended"})
	out, a := e.accepted(t, ex)
	t.Logf("accept-1: %s; accepted %+v", ex.Output, a.Accepted)
	if out.Status != statemachine.AcceptRecorded || a.Status != statemachine.AcceptRecorded || out.Accepted == 0 || out.Accepted != len(a.Accepted) || out.Entries == 0 {
		t.Fatalf("accept-1: output %+v, audit %+v; want recorded with the accepted values", out, a)
	}
	if !strings.HasSuffix(a.Execution, ":accept-1") {
		t.Errorf("audit execution %q: want the execution's ARN", a.Execution)
	}
	if a.Request.Reason != "the subscription is intended" || a.Stack != ref || len(a.NotRead) != 0 {
		t.Errorf("audit %+v: want the request's reason, the stack and nothing unread", a)
	}
	if _, _, err := e.store.GetBaseline(t.Context(), ref); err != nil {
		t.Fatalf("no baseline of %s in the table after the accept: %v", ref, err)
	}
	// The audit item is write-once: out of reach of the functions that
	// write findings (no grant on AUDIT#), and not even accept replaces it.
	auditAs := func(fn string) error {
		db := dynamodb.New(dynamodb.Options{Region: "us-east-1", BaseEndpoint: aws.String(e.ddbURL), RetryMaxAttempts: 1,
			Credentials: credentials.NewStaticCredentialsProvider(functionKey(fn), "e2e-session-secret", "")})
		return store.NewDynamo(db, e.table).PutAudit(t.Context(), out.RunID, out.Key, []byte(`{"status":"forged"}`), time.Now().Add(time.Hour))
	}
	for _, fn := range []string{"persist", "classify"} {
		if err := auditAs(fn); err == nil || !strings.Contains(err.Error(), "AccessDenied") {
			t.Errorf("%s overwriting the accept's audit item: %v, want AccessDenied", fn, err)
		}
	}
	if err := auditAs("accept"); !errors.Is(err, store.ErrExists) {
		t.Errorf("accept writing its audit item again: %v, want store.ErrExists", err)
	}
	if again, err := e.svc.LoadAcceptAudit(t.Context(), out.RunID, out.Key); err != nil || again.Status != statemachine.AcceptRecorded || len(again.Accepted) != len(a.Accepted) {
		t.Errorf("the accept's audit item after the attempts: %+v, %v", again, err)
	}
	e.sweep(t, "accept-sweep-2")
	e.compare(t, "accept-sweep-2") // the CLI checks against the table too
	after, _ := e.storedFindings(t, ref)
	if hasLiveOnly(after) {
		t.Errorf("%s after the accept still has undeclared drift: %v", ref, liveOnly(after))
	}
	if !hasDeclared(after) {
		t.Errorf("%s after the accept: the declared drift is gone; an accept records live-only state only", ref)
	}

	// 2. An undeclared change alerts with an Accept… link; the link's input
	// records it.
	if err := e.sandbox.Apply(sandbox.Change{Op: sandbox.OpSet, Account: ref.Account, Region: ref.Region,
		Type: "AWS::SQS::Queue", Identifier: watched.physicalID, Path: watched.path, Value: watched.changed}); err != nil {
		t.Fatal(err)
	}
	alerts := e.hook.alerts()[key(ref)]
	e.sweep(t, "accept-sweep-3")
	changed, _ := e.storedFindings(t, ref)
	if f := findingAt(changed, watched.logicalID, watched.path); f["tier"] != "undeclared" || f["unrecorded"] == true {
		t.Fatalf("%s.%s after the change: %v; want undeclared drift", watched.logicalID, watched.path, f)
	}
	if n := e.hook.alerts()[key(ref)] - alerts; n != 1 {
		t.Errorf("%s alerted %d times after the change, want 1", ref, n)
	}
	input := e.alertAcceptInput(t, ref)
	ex = e.runAccept(t, "accept-2", input)
	out, a = e.accepted(t, ex)
	if out.Status != statemachine.AcceptRecorded || len(a.Accepted) != 1 {
		t.Fatalf("accept-2: %+v, accepted %+v; want the one changed value", out, a.Accepted)
	}
	got := a.Accepted[0]
	want := fmt.Sprint(string(watched.changed))
	if got.LogicalID != watched.logicalID || got.Path != watched.path || fmt.Sprint(got.Value) != want || got.Before == nil || got.Note != "changed since record" {
		t.Errorf("accept-2 audited %+v; want %s.%s, recorded value before, %s now", got, watched.logicalID, watched.path, want)
	}
	e.sweep(t, "accept-sweep-4")
	e.compare(t, "accept-sweep-4")
	final, _ := e.storedFindings(t, ref)
	if hasLiveOnly(final) || !hasDeclared(final) {
		t.Errorf("%s after the second accept: live-only %v, declared %v; want no undeclared drift and the declared drift kept", ref, liveOnly(final), hasDeclared(final))
	}

	// 3. A stack that cannot be checked: the accept fails, audited, and
	// writes no baseline.
	missing := drift.StackRef{Account: ref.Account, Region: ref.Region, Name: "NoSuchStack"}
	ex, err := e.local.Run(t.Context(), statemachine.Run{
		Definition: statemachine.Accept, Input: statemachine.AcceptInput{Account: missing.Account, Region: missing.Region, Stack: missing.Name},
		LambdaEndpoint: e.lambdaURL, ExecutionName: "accept-missing", Account: demoAccount(0), RetryMillis: 1,
		AccessKeyID: statesKey("accept"), SecretAccessKey: "e2e-session-secret",
	})
	if err != nil {
		t.Fatal(err)
	}
	if ex.Status != "FAILED" || ex.Error == nil || ex.Error.Error != statemachine.ErrorAcceptFailed {
		t.Errorf("accept of a missing stack: %s %+v, want FAILED %s", ex.Status, ex.Error, statemachine.ErrorAcceptFailed)
	}
	fa, err := e.svc.LoadAcceptAudit(t.Context(), "accept-missing", service.AcceptAuditKey(missing))
	if err != nil || fa.Status != statemachine.AcceptFailed || fa.Error == "" || len(fa.Accepted) != 0 {
		t.Errorf("audit of the failed accept: %+v, %v; want failed with the error and nothing accepted", fa, err)
	}
	if _, _, err := e.store.GetBaseline(t.Context(), missing); err == nil {
		t.Errorf("the failed accept wrote a baseline of %s", missing)
	}
}

// runAccept runs the real accept definition to its end.
func (e *e2e) runAccept(t *testing.T, name string, input statemachine.AcceptInput) statemachine.Execution {
	t.Helper()
	ex, err := e.local.Run(context.WithoutCancel(t.Context()), statemachine.Run{
		Definition: statemachine.Accept, Input: input, LambdaEndpoint: e.lambdaURL,
		ExecutionName: name, Account: demoAccount(0), RetryMillis: 1,
		AccessKeyID: statesKey("accept"), SecretAccessKey: "e2e-session-secret",
	})
	if err != nil {
		t.Fatal(err)
	}
	statemachinetest.CheckStateOutputs(t, ex)
	statemachinetest.CheckSynthesized(t, e.local, statemachine.Accept, ex)
	if ex.Status != "SUCCEEDED" {
		t.Fatalf("accept %s: %s %+v", name, ex.Status, ex.Error)
	}
	return ex
}

// accepted decodes an accept's output and reads its audit item.
func (e *e2e) accepted(t *testing.T, ex statemachine.Execution) (statemachine.AcceptAudited, service.AcceptAudit) {
	t.Helper()
	var out statemachine.AcceptAudited
	if err := json.Unmarshal(ex.Output, &out); err != nil {
		t.Fatalf("accept output %s: %v", ex.Output, err)
	}
	a, err := e.svc.LoadAcceptAudit(t.Context(), out.RunID, out.Key)
	if err != nil {
		t.Fatal(err)
	}
	return out, a
}

// alertAcceptInput reads the accept input a drift alert of ref offers
// beside its Accept… button.
func (e *e2e) alertAcceptInput(t *testing.T, ref drift.StackRef) statemachine.AcceptInput {
	t.Helper()
	e.hook.mu.Lock()
	defer e.hook.mu.Unlock()
	for i := len(e.hook.posts) - 1; i >= 0; i-- {
		p := e.hook.posts[i]
		if !strings.Contains(p, `"start-accept"`) || !strings.Contains(p, notify.RevertConsoleURL(acceptARN)) {
			continue
		}
		var msg struct {
			Blocks []struct{ Text *struct{ Text string } }
		}
		_ = json.Unmarshal([]byte(p), &msg)
		for _, b := range msg.Blocks {
			if b.Text == nil || !strings.HasPrefix(b.Text.Text, "_Accept") {
				continue
			}
			_, raw, _ := strings.Cut(b.Text.Text, "`")
			raw = strings.TrimSuffix(raw, "`")
			var in statemachine.AcceptInput
			if err := json.Unmarshal([]byte(raw), &in); err == nil && in.Ref() == ref {
				return in
			}
		}
	}
	t.Fatalf("no drift alert of %s offers an accept", ref)
	return statemachine.AcceptInput{}
}

// liveOnly lists the undeclared and added findings in generic findings
// that are drift or potential drift.
func liveOnly(findings any) []string {
	var out []string
	list, _ := findings.([]any)
	for _, f := range list {
		m, _ := f.(map[string]any)
		if m["tier"] == "undeclared" || m["tier"] == "added" {
			out = append(out, fmt.Sprintf("%v.%v (%v, unrecorded %v)", m["logicalId"], m["path"], m["tier"], m["unrecorded"]))
		}
	}
	return out
}

func hasLiveOnly(findings any) bool { return len(liveOnly(findings)) > 0 }

// hasDeclared reports whether generic findings hold declared drift.
func hasDeclared(findings any) bool {
	list, _ := findings.([]any)
	for _, f := range list {
		if m, _ := f.(map[string]any); m["tier"] == "declared" {
			return true
		}
	}
	return false
}
