package service_test

import (
	"encoding/json"
	"sort"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/realdrift/realdrift/internal/notify"
)

// findingsRole is the member findings role infra creates when Security Hub
// is enabled.
const findingsRole = "realdrift-findings"

// findingsRoleDocuments is infra's findings role policy, for any account:
// the sandbox authorizes the import against the account's default product
// and the query against its hub, as AWS does.
func findingsRoleDocuments(t *testing.T) []json.RawMessage {
	t.Helper()
	hub, err := json.Marshal(map[string]any{"Version": "2012-10-17", "Statement": []any{
		map[string]any{"Sid": "ImportDriftFindings", "Effect": "Allow", "Action": notify.SecurityHubActions[0], "Resource": "arn:aws:securityhub:*:*:product/*/default"},
		map[string]any{"Sid": "FindDriftFindings", "Effect": "Allow", "Action": notify.SecurityHubActions[1], "Resource": "arn:aws:securityhub:*:*:hub/default"},
	}})
	if err != nil {
		t.Fatal(err)
	}
	return []json.RawMessage{hub}
}

// TestSweepEndToEndSecurityHub: with the Security Hub channel on, a sweep
// imports each drifted stack's confirmed drift into Security Hub in the
// stack's own account and region, through the member findings role (the
// sandbox enforcing its policies; the read role stays read-only): exactly
// the drifted stacks have ACTIVE findings. The next identical sweep
// imports nothing again.
func TestSweepEndToEndSecurityHub(t *testing.T) {
	e := startE2EWith(t, e2eConfig{readPolicies: readRoleDocuments(t), securityHub: true})
	e.sweep(t, "sweep-1")
	drifted := e.compare(t, "sweep-1")
	if len(drifted) == 0 {
		t.Fatal("the e2e world has no drifted stack")
	}
	places := map[[2]string]bool{}
	for _, ref := range e.stacks {
		places[[2]string{ref.Account, ref.Region}] = true
	}
	var withFindings []string
	seen := map[string]bool{}
	for p := range places {
		for _, f := range e.sandbox.SecurityHubFindings(p[0], p[1]) {
			pf, _ := f["ProductFields"].(map[string]any)
			k := p[0] + "/" + p[1] + "/" + pf["realdrift/stack"].(string)
			if f["RecordState"] == "ACTIVE" && !seen[k] {
				seen[k] = true
				withFindings = append(withFindings, k)
			}
		}
	}
	sort.Strings(withFindings)
	if diff := cmp.Diff(withFindings, drifted); diff != "" {
		t.Errorf("stacks with ACTIVE Security Hub findings (-hub +drifted):\n%s", diff)
	}
	// The planted changes' own CloudTrail events name who made them (no
	// trigger saw them: looked up through the read role): the findings
	// link to the event.
	linked := 0
	for p := range places {
		for _, f := range e.sandbox.SecurityHubFindings(p[0], p[1]) {
			if u, _ := f["SourceUrl"].(string); strings.Contains(u, "cloudtrail") {
				linked++
			}
		}
	}
	if linked == 0 {
		t.Error("no Security Hub finding has a SourceUrl to the CloudTrail event of its change")
	}
	imports := e.sandbox.Calls().Requests["securityhub:BatchImportFindings"]
	if denied := e.sandbox.Calls().Errors["securityhub:BatchImportFindings:AccessDeniedException"]; imports == 0 || denied > 0 {
		t.Fatalf("%d imports, %d denied", imports, denied)
	}
	e.sweep(t, "sweep-2")
	if again := e.sandbox.Calls().Requests["securityhub:BatchImportFindings"]; again != imports {
		t.Errorf("an identical sweep imported again: %d imports, then %d", imports, again)
	}
}
