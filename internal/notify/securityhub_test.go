package notify_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/securityhub"
	shtypes "github.com/aws/aws-sdk-go-v2/service/securityhub/types"
	"github.com/google/go-cmp/cmp"

	"github.com/realdrift/realdrift/internal/drift"
	"github.com/realdrift/realdrift/internal/notify"
	"github.com/realdrift/realdrift/internal/sandbox"
	"github.com/realdrift/realdrift/internal/sandbox/sandboxtest"
)

const hubAccount, hubRegion = "222222222222", "eu-west-1"

func hubWorld() *sandbox.World {
	return &sandbox.World{Accounts: []*sandbox.Account{{ID: hubAccount, AccessKeys: []sandbox.AccessKey{{ID: "AKIAHUB000000000001", UserName: "ops"}},
		Regions: []*sandbox.Region{{Name: hubRegion}}}}}
}

// TestSecurityHubSend: the stack's confirmed drift is imported into
// Security Hub in its own account and region (aws-sdk-go-v2 against the
// sandbox), potential drift is not; a later send updates the finding that
// is still drift (same Id, CreatedAt kept), archives the one that is gone,
// and a Resolved alert archives the rest. Findings of another stack are
// never touched.
func TestSecurityHubSend(t *testing.T) {
	hub := hubWorld()
	srv, url := sandboxtest.Serve(t, hub, sandbox.Options{})
	client := securityhub.NewFromConfig(sandboxtest.Config(url, sandboxtest.Key(t, hub, hubAccount), hubRegion))
	h := &notify.SecurityHub{Client: func(account, region string) notify.SecurityHubAPI {
		if account != hubAccount || region != hubRegion {
			t.Errorf("client asked for %s/%s", account, region)
		}
		return client
	}}
	stack := drift.StackRef{Account: hubAccount, Region: hubRegion, Name: "Orders"}
	other := drift.StackRef{Account: hubAccount, Region: hubRegion, Name: "Billing"}
	t0 := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	declared := drift.Finding{Tier: drift.Declared, LogicalID: "Queue", ResourceType: "AWS::SQS::Queue", PhysicalID: "q", Path: "VisibilityTimeout", Desired: 30.0, Actual: 60.0}
	added := drift.Finding{Tier: drift.Added, LogicalID: "Role/AWS::IAM::RolePolicy", ResourceType: "AWS::IAM::RolePolicy", PhysicalID: "rogue", Actual: map[string]any{"PolicyName": "rogue"}}
	potential := drift.Finding{Tier: drift.Undeclared, LogicalID: "Queue", ResourceType: "AWS::SQS::Queue", PhysicalID: "q", Path: "DelaySeconds", Actual: 5.0, Unrecorded: true}

	send := func(ref drift.StackRef, at time.Time, fs ...drift.Finding) {
		t.Helper()
		if err := h.Send(t.Context(), notify.Summarize(ref, "run", at, fs, "")); err != nil {
			t.Fatal(err)
		}
	}
	byState := func() map[string][]string {
		out := map[string][]string{}
		for _, f := range srv.SecurityHubFindings(hubAccount, hubRegion) {
			out[f["RecordState"].(string)] = append(out[f["RecordState"].(string)], f["Title"].(string))
		}
		return out
	}

	send(other, t0, declared)
	send(stack, t0, declared, added, potential)
	got := byState()
	if len(got["ACTIVE"]) != 3 || len(got["ARCHIVED"]) != 0 {
		t.Fatalf("after the first sends: %v, want 3 active (Orders' declared and added, Billing's declared), none archived", got)
	}
	for _, title := range got["ACTIVE"] {
		if strings.Contains(title, "DelaySeconds") {
			t.Errorf("potential drift imported: %q", title)
		}
	}
	first := map[string]string{}
	for _, f := range srv.SecurityHubFindings(hubAccount, hubRegion) {
		first[f["Id"].(string)] = f["CreatedAt"].(string)
	}

	// The added policy was removed: its finding is archived, the declared
	// one updated in place.
	t1 := t0.Add(time.Hour)
	send(stack, t1, declared)
	got = byState()
	if len(got["ACTIVE"]) != 2 || len(got["ARCHIVED"]) != 1 || !strings.Contains(got["ARCHIVED"][0], "RolePolicy") {
		t.Fatalf("after the added child went: %v, want Orders' declared and Billing's active, the added one archived", got)
	}
	for _, f := range srv.SecurityHubFindings(hubAccount, hubRegion) {
		if created, ok := first[f["Id"].(string)]; !ok || f["CreatedAt"] != created {
			t.Errorf("finding %s: CreatedAt %v, want the first import's %s (found %v)", f["Id"], f["CreatedAt"], created, ok)
		}
	}

	// Resolved: nothing of Orders stays active; Billing's is untouched.
	send(stack, t1.Add(time.Hour))
	got = byState()
	if len(got["ACTIVE"]) != 1 || len(got["ARCHIVED"]) != 2 {
		t.Fatalf("after Resolved: %v, want only Billing's active", got)
	}
}

// TestSecurityHubRejectsAnotherAccountsFindings: BatchImportFindings takes
// a finding only for the calling account's own product, as AWS does; the
// sender reports the failure instead of losing it.
func TestSecurityHubRejectsAnotherAccountsFindings(t *testing.T) {
	hub := hubWorld()
	_, url := sandboxtest.Serve(t, hub, sandbox.Options{})
	client := securityhub.NewFromConfig(sandboxtest.Config(url, sandboxtest.Key(t, hub, hubAccount), hubRegion))
	h := &notify.SecurityHub{Client: func(string, string) notify.SecurityHubAPI { return client }}
	stack := drift.StackRef{Account: "333333333333", Region: hubRegion, Name: "Elsewhere"}
	f := drift.Finding{Tier: drift.Deleted, LogicalID: "Topic", ResourceType: "AWS::SNS::Topic", PhysicalID: "arn:aws:sns:eu-west-1:333333333333:t"}
	err := h.Send(t.Context(), notify.Summarize(stack, "run", time.Date(2026, 3, 1, 0, 0, 0, 0, time.UTC), []drift.Finding{f}, ""))
	if err == nil || !strings.Contains(err.Error(), "not imported") {
		t.Fatalf("err = %v, want the findings not imported", err)
	}
}

// TestSecurityHubActionsCopy holds the sender's IAM actions equal to the
// committed list infra grants the read role (infra TestSecurityHubOptIn
// holds the synthesized policy to the same file).
func TestSecurityHubActionsCopy(t *testing.T) {
	b, err := os.ReadFile(filepath.Join("..", "..", "testdata", "iam", "member-securityhub-actions.json"))
	if err != nil {
		t.Fatal(err)
	}
	var want []string
	if err := json.Unmarshal(b, &want); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(notify.SecurityHubActions, want); diff != "" {
		t.Errorf("notify.SecurityHubActions differ from testdata/iam/member-securityhub-actions.json (-sender +file):\n%s", diff)
	}
}

// TestSecurityHubKeepsTriage: an analyst's triage in Security Hub
// (BatchUpdateFindings: workflow SUPPRESSED, a note) survives realdrift's
// next import of the same drift, as Security Hub keeps customer fields
// over a provider's updates.
func TestSecurityHubKeepsTriage(t *testing.T) {
	hub := hubWorld()
	srv, url := sandboxtest.Serve(t, hub, sandbox.Options{})
	client := securityhub.NewFromConfig(sandboxtest.Config(url, sandboxtest.Key(t, hub, hubAccount), hubRegion))
	h := &notify.SecurityHub{Client: func(string, string) notify.SecurityHubAPI { return client }}
	stack := drift.StackRef{Account: hubAccount, Region: hubRegion, Name: "Orders"}
	f := drift.Finding{Tier: drift.Declared, LogicalID: "Queue", ResourceType: "AWS::SQS::Queue", PhysicalID: "q", Path: "VisibilityTimeout", Desired: 30.0, Actual: 60.0}
	at := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	if err := h.Send(t.Context(), notify.Summarize(stack, "run-1", at, []drift.Finding{f}, "")); err != nil {
		t.Fatal(err)
	}
	found := srv.SecurityHubFindings(hubAccount, hubRegion)
	if len(found) != 1 {
		t.Fatalf("%d findings imported, want 1", len(found))
	}
	id, product := found[0]["Id"].(string), found[0]["ProductArn"].(string)
	out, err := client.BatchUpdateFindings(t.Context(), &securityhub.BatchUpdateFindingsInput{
		FindingIdentifiers: []shtypes.AwsSecurityFindingIdentifier{{Id: aws.String(id), ProductArn: aws.String(product)}},
		Workflow:           &shtypes.WorkflowUpdate{Status: shtypes.WorkflowStatusSuppressed},
		Note:               &shtypes.NoteUpdate{Text: aws.String("accepted risk, ticket OPS-12"), UpdatedBy: aws.String("analyst")},
	})
	if err != nil || len(out.ProcessedFindings) != 1 {
		t.Fatalf("BatchUpdateFindings: %v %+v", err, out)
	}
	if err := h.Send(t.Context(), notify.Summarize(stack, "run-2", at.Add(time.Hour), []drift.Finding{f}, "")); err != nil {
		t.Fatal(err)
	}
	after := srv.SecurityHubFindings(hubAccount, hubRegion)[0]
	w, _ := after["Workflow"].(map[string]any)
	note, _ := after["Note"].(map[string]any)
	if w["Status"] != "SUPPRESSED" || note["Text"] != "accepted risk, ticket OPS-12" || after["UpdatedAt"] == found[0]["UpdatedAt"] {
		t.Errorf("after re-import: workflow %v, note %v, updated %v (first %v): want the triage kept and the finding updated", w, note, after["UpdatedAt"], found[0]["UpdatedAt"])
	}
}
