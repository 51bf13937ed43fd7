package service_test

import (
	"encoding/json"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/realdrift/realdrift/internal/live"
	"github.com/realdrift/realdrift/internal/sandbox"
	"github.com/realdrift/realdrift/internal/sandbox/sandboxtest"
	"github.com/realdrift/realdrift/internal/store"
)

// iamDir holds the committed copies of the member read role's policies:
// member-read-role.json as infra synthesizes it (infra's
// TestReadRolePolicyCopy keeps it equal), managed/ the excerpts of the AWS
// managed policies it attaches.
var iamDir = filepath.Join("..", "..", "testdata", "iam")

// readRoleDocuments returns the read role's policy documents
// (sandboxtest.ReadRole.Documents), statements whose Sid is in drop left
// out.
func readRoleDocuments(t *testing.T, drop ...string) []json.RawMessage {
	t.Helper()
	r := sandboxtest.LoadReadRole(t, iamDir)
	if r.Role != readRole {
		t.Fatalf("read role copy is of %s, the e2e assumes %s", r.Role, readRole)
	}
	return r.Documents(t, iamDir, drop...)
}

// TestReadRoleGrantsTheReaders holds the read role to the readers: every
// action live.ReadActions lists (each call a reader, supplement or
// enumerator makes) is granted by an unconditional Allow of the role's
// inline policies (infra readerActions; change it and rerun infra's
// TestReadRolePolicyCopy -update), and none is refused by its
// unconditional Deny.
func TestReadRoleGrantsTheReaders(t *testing.T) {
	r := sandboxtest.LoadReadRole(t, iamDir)
	allowed, denied := r.Actions("Allow"), r.Actions("Deny")
	for _, a := range live.ReadActions() {
		if !slices.Contains(allowed, a) {
			t.Errorf("the read role does not grant %s, which a reader calls", a)
		}
		if slices.Contains(denied, a) {
			t.Errorf("the read role denies %s, which a reader calls", a)
		}
	}
}

// TestReadRoleLooksUpWriters: the read role grants cloudtrail:LookupEvents
// (who changed a drifted resource no trigger event named, writers.go;
// infra's LookUpWriters) and no other CloudTrail action.
func TestReadRoleLooksUpWriters(t *testing.T) {
	r := sandboxtest.LoadReadRole(t, iamDir)
	var got []string
	for _, a := range r.Actions("Allow") {
		if strings.HasPrefix(a, "cloudtrail:") {
			got = append(got, a)
		}
	}
	if !slices.Equal(got, []string{"cloudtrail:LookupEvents"}) {
		t.Errorf("the read role's CloudTrail actions %v, want only cloudtrail:LookupEvents", got)
	}
}

// lockedDeny is the stack-scoped deny a member account attached to the read
// role: every CloudFormation call naming the locked stack is refused
// (listing the account's stacks still works).
func lockedDeny() json.RawMessage {
	return json.RawMessage(`{"Version":"2012-10-17","Statement":[{"Sid":"E2ELockedStack","Effect":"Deny","Action":"cloudformation:*","Resource":"arn:aws:cloudformation:*:*:stack/` + lockedName + `/*"}]}`)
}

// seedReadRole gives every account's read role the documents; the locked
// stack's account also the stack-scoped deny.
func seedReadRole(w *sandbox.World, docs []json.RawMessage) {
	for _, a := range w.Accounts {
		d := slices.Clone(docs)
		if a.ID == demoAccount(1) {
			d = append(d, lockedDeny())
		}
		a.Policies = append(a.Policies, &sandbox.Policies{Role: readRole, Documents: d})
	}
}

// TestSweepEndToEndIAMDenied is the negative of the acceptance run: with
// the read role's Cloud Control statement (ReadResources) dropped, the
// sandbox refuses cloudformation:GetResource as AWS would, and every
// resource the sweep reads through Cloud Control is reported skipped with
// AccessDenied, never silently clean.
func TestSweepEndToEndIAMDenied(t *testing.T) {
	e := startE2EWith(t, e2eConfig{readPolicies: readRoleDocuments(t, "ReadResources")})
	sum := e.sweep(t, "sweep-denied")
	t.Logf("sweep-denied: %+v", sum)
	if sum.Counts["skipped"] == 0 {
		t.Errorf("summary counts %v: want skipped findings", sum.Counts)
	}
	ref := e.stacks[0]
	got, _ := e.storedFindings(t, ref)
	skipped := 0
	list, _ := got.([]any)
	for _, f := range list {
		m, _ := f.(map[string]any)
		if m["tier"] != "skipped" {
			continue
		}
		reason, _ := m["reason"].(string)
		if !strings.Contains(reason, "AccessDenied") || !strings.Contains(reason, "cloudformation:GetResource") {
			t.Errorf("%s %s skipped for %q, want AccessDenied on cloudformation:GetResource", ref, m["logicalId"], reason)
		}
		skipped++
	}
	if skipped == 0 {
		t.Errorf("%s: no resource skipped with the Cloud Control statement dropped; findings %v", ref, got)
	}
	if n := e.sandbox.Calls().Errors["cloudcontrolapi:GetResource:AccessDeniedException"]; n == 0 {
		t.Errorf("the sandbox refused no GetResource call; errors %v", e.sandbox.Calls().Errors)
	}
}

// TestSweepEndToEndCentralRoleDenied is the negative for the central
// functions' roles, each function calling with its own role's session key
// (e2ecentral_test.go): one statement dropped from infra's copy, the
// sandbox refuses what it granted and the sweep says so, never clean.
//   - read-resources without AssumeMemberReadRole: every resource it reads
//     is skipped with AccessDenied on sts:AssumeRole;
//   - classify without its IGNORE#/STACK# table grant: DynamoDB (behind the
//     sandbox's guard) refuses the baseline read, and every check is a
//     failed run naming dynamodb:GetItem.
func TestSweepEndToEndCentralRoleDenied(t *testing.T) {
	t.Run("read-resources/AssumeMemberReadRole", func(t *testing.T) {
		e := startE2EWith(t, e2eConfig{readPolicies: readRoleDocuments(t), centralDrop: []string{"realdrift-read-resources/AssumeMemberReadRole"}})
		sum := e.sweep(t, "central-denied-assume")
		if sum.Counts["skipped"] == 0 || sum.Counts["drift"] != 0 {
			t.Errorf("summary counts %v: want skipped findings and no drift", sum.Counts)
		}
		got, _ := e.storedFindings(t, e.stacks[0])
		list, _ := got.([]any)
		skipped := 0
		for _, f := range list {
			m, _ := f.(map[string]any)
			if m["tier"] != "skipped" {
				continue
			}
			skipped++
			reason, _ := m["reason"].(string)
			if !strings.Contains(reason, "assumed-role/realdrift-read-resources/") || !strings.Contains(reason, "sts:AssumeRole") {
				t.Errorf("%s skipped for %q, want the read-resources role refused sts:AssumeRole", m["logicalId"], reason)
			}
		}
		if skipped == 0 {
			t.Errorf("%s: nothing skipped; findings %v", e.stacks[0], got)
		}
	})
	t.Run("classify/TableIgnoreStack", func(t *testing.T) {
		e := startE2EWith(t, e2eConfig{readPolicies: readRoleDocuments(t), centralDrop: []string{"realdrift-classify/TableIgnoreStack"}})
		const run = "central-denied-table"
		sum := e.sweep(t, run)
		if sum.Checked != 0 || sum.Failed != sum.Stacks {
			t.Errorf("summary %+v: want every check failed", sum)
		}
		recs, err := e.store.RunsByID(t.Context(), run)
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range recs {
			if r.Stack.Name == lockedName {
				continue // refused by the member role first
			}
			if r.Status != store.RunFailed || !strings.Contains(r.Reason, "dynamodb:GetItem") {
				t.Errorf("run %s %s: %s %q, want failed on dynamodb:GetItem", r.RunID, r.Stack, r.Status, r.Reason)
			}
		}
		if n := e.sandbox.Calls().Errors["dynamodb:GetItem:AccessDeniedException"]; n == 0 {
			t.Errorf("the guard refused no GetItem; errors %v", e.sandbox.Calls().Errors)
		}
	})
}
