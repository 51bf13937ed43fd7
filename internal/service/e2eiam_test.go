package service_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/realdrift/realdrift/internal/sandbox"
	"github.com/realdrift/realdrift/internal/store"
)

// iamDir holds the committed copies of the member read role's policies:
// member-read-role.json as infra synthesizes it (infra's
// TestReadRolePolicyCopy keeps it equal), managed/ the excerpts of the AWS
// managed policies it attaches.
var iamDir = filepath.Join("..", "..", "testdata", "iam")

// readRoleDocuments returns the read role's policy documents: its inline
// policies, statements whose Sid is in drop left out, and the committed
// excerpt of every managed policy it attaches (a managed policy without an
// excerpt fails the test, so a new attachment gets one).
func readRoleDocuments(t *testing.T, drop ...string) []json.RawMessage {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(iamDir, "member-read-role.json"))
	if err != nil {
		t.Fatal(err)
	}
	var copy struct {
		Role   string
		Inline []struct {
			PolicyName     string
			PolicyDocument struct {
				Version   string
				Statement []map[string]any
			}
		}
		Managed []json.RawMessage
	}
	if err := json.Unmarshal(b, &copy); err != nil {
		t.Fatal(err)
	}
	if copy.Role != readRole {
		t.Fatalf("read role copy is of %s, the e2e assumes %s", copy.Role, readRole)
	}
	var docs []json.RawMessage
	dropped := 0
	for _, p := range copy.Inline {
		d := p.PolicyDocument
		d.Statement = slices.DeleteFunc(d.Statement, func(st map[string]any) bool {
			sid, _ := st["Sid"].(string)
			if slices.Contains(drop, sid) {
				dropped++
				return true
			}
			return false
		})
		doc, err := json.Marshal(d)
		if err != nil {
			t.Fatal(err)
		}
		docs = append(docs, doc)
	}
	if dropped != len(drop) {
		t.Fatalf("dropped %d of the statements %v", dropped, drop)
	}
	for _, m := range copy.Managed {
		// The ARN is synthesized as a join on the partition: its name is
		// the part after policy/.
		_, name, ok := strings.Cut(string(m), ":iam::aws:policy/")
		if !ok {
			t.Fatalf("managed policy %s is not an AWS managed policy", m)
		}
		name = strings.TrimRight(name, `"]} `+"\n")
		b, err := os.ReadFile(filepath.Join(iamDir, "managed", name+".json"))
		if err != nil {
			t.Fatalf("the read role attaches %s: commit an excerpt of it under testdata/iam/managed (%v)", name, err)
		}
		var ex struct{ Document json.RawMessage }
		if err := json.Unmarshal(b, &ex); err != nil {
			t.Fatalf("managed/%s.json: %v", name, err)
		}
		docs = append(docs, ex.Document)
	}
	return docs
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
