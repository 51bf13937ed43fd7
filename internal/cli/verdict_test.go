package cli

import (
	"context"
	"encoding/json"
	"encoding/xml"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/realdrift/realdrift/internal/deadlinetest"
	"github.com/realdrift/realdrift/internal/drift"
	"github.com/realdrift/realdrift/internal/notify"
	"github.com/realdrift/realdrift/internal/sandbox"
)

// noGetResourceWorld is the App stack (two queues, read through Cloud
// Control) for a user whose policy allows everything but
// cloudformation:GetResource, the IAM action of Cloud Control's reads.
func noGetResourceWorld(t *testing.T) *sandboxEnv {
	t.Helper()
	w := appWorld(t, map[string][]appResource{
		"App": {
			queue("Orders", "App-Orders-1", map[string]any{"VisibilityTimeout": 30}, nil),
			queue("Jobs", "App-Jobs-1", map[string]any{"VisibilityTimeout": 60}, nil),
		},
	})
	policy := `{"Version":"2012-10-17","Statement":[{"Effect":"Allow","NotAction":"cloudformation:GetResource","Resource":"*"}]}`
	w.Accounts[0].Policies = []*sandbox.Policies{{User: "dev", Documents: []json.RawMessage{json.RawMessage(policy)}}}
	return startSandbox(t, w, testKey, testRegion)
}

// TestIncompleteInEveryForm: a stack none of whose resources could be read
// (the read policy lacks cloudformation:GetResource) is INCOMPLETE in the
// text, JSON, SARIF, JUnit and ASFF reports and in the alert built from
// its findings — never CLEAN — and check --fail exits 3, --strict 1.
func TestIncompleteInEveryForm(t *testing.T) {
	e := noGetResourceWorld(t)
	flags := []string{"App", "--no-baseline", "--call-timeout", "5s", "--max-attempts", "1"}

	text, errs, code := e.run("check", append([]string{"--fail"}, flags...)...)
	if code != ExitIncomplete {
		t.Errorf("check --fail: exit %d, want %d\n%s\n%s", code, ExitIncomplete, text, errs)
	}
	if !strings.Contains(text, "result: INCOMPLETE (2 of 2 not read)") || strings.Contains(text, "CLEAN") {
		t.Errorf("text report:\n%s", text)
	}
	if _, errs, code := e.run("check", append([]string{"--strict"}, flags...)...); code != ExitDrift {
		t.Errorf("check --strict: exit %d, want 1\n%s", code, errs)
	}
	out, errs, code := e.run("check", flags...)
	if code != ExitOK || !strings.Contains(errs, "coverage incomplete (2 resources not read); exiting 0 because check is report-only") {
		t.Errorf("report-only check: exit %d, stderr:\n%s", code, errs)
	}
	if strings.Contains(out, "CLEAN") {
		t.Errorf("report-only text says CLEAN:\n%s", out)
	}

	out, _, _ = e.run("check", append([]string{"--format", "json"}, flags...)...)
	var rep struct {
		Verdict          string `json:"verdict"`
		CoverageComplete bool   `json:"coverageComplete"`
		NotRead          int    `json:"notRead"`
		Stacks           []struct {
			Verdict   string          `json:"verdict"`
			Resources int             `json:"resources"`
			NotRead   int             `json:"notRead"`
			Findings  []drift.Finding `json:"findings"`
		} `json:"stacks"`
	}
	if err := json.Unmarshal([]byte(out), &rep); err != nil || len(rep.Stacks) != 1 {
		t.Fatalf("JSON report: %v\n%s", err, out)
	}
	if s := rep.Stacks[0]; rep.Verdict != "incomplete" || s.Verdict != "incomplete" || rep.CoverageComplete || s.Resources != 2 || s.NotRead != 2 {
		t.Errorf("JSON: verdict %s/%s, coverageComplete %v, %d of %d not read", rep.Verdict, s.Verdict, rep.CoverageComplete, s.NotRead, s.Resources)
	}
	for _, f := range rep.Stacks[0].Findings {
		if f.Tier == drift.Skipped && !strings.Contains(f.Reason, "cloudformation:GetResource") {
			t.Errorf("skipped %s does not name the action: %s", f.LogicalID, f.Reason)
		}
	}

	out, _, _ = e.run("check", append([]string{"--format", "sarif"}, flags...)...)
	var sarif struct {
		Runs []struct {
			Invocations []struct {
				ExecutionSuccessful bool `json:"executionSuccessful"`
				Notes               []struct {
					Level   string `json:"level"`
					Message struct{ Text string }
				} `json:"toolExecutionNotifications"`
			} `json:"invocations"`
		} `json:"runs"`
	}
	if err := json.Unmarshal([]byte(out), &sarif); err != nil || len(sarif.Runs) != 1 || len(sarif.Runs[0].Invocations) != 1 {
		t.Fatalf("SARIF: %v\n%s", err, out)
	}
	inv := sarif.Runs[0].Invocations[0]
	if inv.ExecutionSuccessful || len(inv.Notes) != 2 || !strings.Contains(inv.Notes[0].Message.Text, "not read") || !strings.Contains(inv.Notes[0].Message.Text, "INCOMPLETE (2 of 2 not read)") {
		t.Errorf("SARIF invocation: %+v", inv)
	}

	out, _, _ = e.run("check", append([]string{"--format", "junit"}, flags...)...)
	var junit struct {
		Skipped int `xml:"skipped,attr"`
		Suites  []struct {
			Cases []struct {
				Name    string `xml:"name,attr"`
				Skipped *struct {
					Message string `xml:"message,attr"`
				} `xml:"skipped"`
			} `xml:"testcase"`
		} `xml:"testsuite"`
	}
	if err := xml.Unmarshal([]byte(out), &junit); err != nil || len(junit.Suites) != 1 {
		t.Fatalf("JUnit: %v\n%s", err, out)
	}
	skipped := 0
	for _, c := range junit.Suites[0].Cases {
		if c.Skipped != nil && strings.HasPrefix(c.Skipped.Message, "not read: ") {
			skipped++
		}
	}
	if skipped != 2 || junit.Skipped != 2 {
		t.Errorf("JUnit: %d skipped test cases (attribute %d), want 2\n%s", skipped, junit.Skipped, out)
	}

	out, _, _ = e.run("check", append([]string{"--format", "asff"}, flags...)...)
	var asff []map[string]any
	if err := json.Unmarshal([]byte(out), &asff); err != nil {
		t.Fatalf("ASFF: %v\n%s", err, out)
	}
	notRead := 0
	for _, f := range asff {
		if f["GeneratorId"] == "realdrift/notRead" && strings.Contains(f["Title"].(string), "INCOMPLETE (2 of 2 not read)") {
			notRead++
		}
	}
	if notRead != 2 {
		t.Errorf("ASFF: %d not-read findings, want 2\n%s", notRead, out)
	}

	// The alert built from the stored findings (the service's notify step
	// does the same) says INCOMPLETE, never that no drift remains.
	ref := drift.StackRef{Account: testAccount, Region: testRegion, Name: "App"}
	sum := notify.Summarize(ref, "run-2", time.Date(2030, 1, 1, 0, 0, 0, 0, time.UTC), rep.Stacks[0].Findings, "previous-drift").
		WithResources(drift.Resources(2, rep.Stacks[0].Findings))
	msg := notify.Subject(sum) + "\n" + notify.Text(sum)
	if !strings.Contains(msg, "INCOMPLETE (2 of 2 not read)") || strings.Contains(msg, "No drift remains") {
		t.Errorf("alert:\n%s", msg)
	}
}

// TestInterruptedReportSaysSo: a check interrupted midway (Other hangs)
// writes a JSON report marked interrupted, not complete, listing the
// stack it did not check; with -o FILE the file is left as it was.
func TestInterruptedReportSaysSo(t *testing.T) {
	e := twoStackEnv(t)
	if err := e.srv.SetFaults([]sandbox.FaultRule{{Service: "cloudformation", Action: "GetTemplate", Match: "StackName=Other&", Hang: true}}); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), deadlinetest.Scale(t, 3*time.Second))
	defer cancel()
	out, errs, code := e.runCtx(ctx, "check", "--all", "--json", "--no-baseline")
	if code != ExitInterrupt {
		t.Fatalf("exit %d, want 130\n%s", code, errs)
	}
	var rep struct {
		Verdict          string   `json:"verdict"`
		Interrupted      bool     `json:"interrupted"`
		CoverageComplete bool     `json:"coverageComplete"`
		NotChecked       []string `json:"notChecked"`
		Stacks           []struct {
			Stack string `json:"stack"`
		} `json:"stacks"`
	}
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatalf("partial JSON: %v\n%s", err, out)
	}
	if !rep.Interrupted || rep.CoverageComplete || len(rep.NotChecked) != 1 || rep.NotChecked[0] != "Other" || rep.Verdict == "clean" ||
		len(rep.Stacks) != 1 || rep.Stacks[0].Stack != "App" {
		t.Errorf("partial report: %+v", rep)
	}

	f := filepath.Join(t.TempDir(), "report.json")
	if err := os.WriteFile(f, []byte("old report\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	ctx2, cancel2 := context.WithTimeout(context.Background(), deadlinetest.Scale(t, 3*time.Second))
	defer cancel2()
	_, errs, code = e.runCtx(ctx2, "check", "--all", "--json", "--no-baseline", "-o", f)
	got, _ := os.ReadFile(f)
	if code != ExitInterrupt || string(got) != "old report\n" || !strings.Contains(errs, "-o "+f+" left as it was") {
		t.Errorf("interrupted -o: exit %d, file %q, stderr:\n%s", code, got, errs)
	}
	if ents, _ := os.ReadDir(filepath.Dir(f)); len(ents) != 1 {
		t.Errorf("files left beside the report: %v", ents)
	}
}

// TestRevertSaysWhatItCouldNotRead: a revert whose read of one drifted
// queue is denied reverts the other, lists the denied one "not read" with
// the reason in the plan and the result, and exits 3 (incomplete), never
// 0 as if everything converged.
func TestRevertSaysWhatItCouldNotRead(t *testing.T) {
	e := faultWorld(t)
	if _, errs, code := e.run("record", "--all", "--yes"); code != ExitOK {
		t.Fatalf("record: exit %d\n%s", code, errs)
	}
	e.change(sandbox.Change{Op: sandbox.OpSet, Type: "AWS::SQS::Queue", Identifier: queueURL("App-Orders-1"), Path: "VisibilityTimeout", Value: json.RawMessage(`45`)})
	e.change(sandbox.Change{Op: sandbox.OpSet, Type: "AWS::SQS::Queue", Identifier: queueURL("App-Jobs-1"), Path: "VisibilityTimeout", Value: json.RawMessage(`90`)})
	if err := e.srv.SetFaults([]sandbox.FaultRule{{Service: "cloudcontrolapi", Action: "GetResource", Match: "App-Orders-1", Code: "AccessDeniedException", Status: 403,
		Message: "not authorized to perform cloudformation:GetResource"}}); err != nil {
		t.Fatal(err)
	}
	flags := []string{"App", "--call-timeout", "5s", "--max-attempts", "1"}

	plan, errs, code := e.run("revert", append([]string{"--dry-run"}, flags...)...)
	if code != ExitIncomplete || !strings.Contains(plan, "not read: Orders (AWS::SQS::Queue): ") || !strings.Contains(plan, "AccessDeniedException") {
		t.Errorf("dry run: exit %d, want 3, plan:\n%s\n%s", code, plan, errs)
	}

	out, errs, code := e.run("revert", append([]string{"--yes", "--json"}, flags...)...)
	var rep struct {
		Stacks []struct {
			Outcomes []struct{ ID, Status string } `json:"outcomes"`
			NotRead  []struct {
				LogicalID, Reason string
			} `json:"notRead"`
		} `json:"stacks"`
		Summary struct {
			Reverted, NotRead int
		} `json:"summary"`
	}
	if err := json.Unmarshal([]byte(out), &rep); err != nil || len(rep.Stacks) != 1 {
		t.Fatalf("revert --json: %v\n%s\n%s", err, out, errs)
	}
	if code != ExitIncomplete {
		t.Errorf("revert --yes: exit %d, want 3 (incomplete)\n%s", code, errs)
	}
	nr := rep.Stacks[0].NotRead
	if len(nr) != 1 || nr[0].LogicalID != "Orders" || !strings.Contains(nr[0].Reason, "AccessDeniedException") || rep.Summary.NotRead != 1 {
		t.Errorf("not read: %+v (summary %d), want Orders with the AccessDenied", nr, rep.Summary.NotRead)
	}
	if rep.Summary.Reverted != 1 {
		t.Errorf("reverted %d, want Jobs' one item: %+v", rep.Summary.Reverted, rep.Stacks[0].Outcomes)
	}
	text, _, code := e.run("revert", append([]string{"--yes"}, flags...)...)
	if code != ExitIncomplete || !strings.Contains(text, "1 not read (INCOMPLETE") || !strings.Contains(text, "not read: Orders") {
		t.Errorf("revert --yes text: exit %d\n%s", code, text)
	}
}

// TestFailedChildListingIsNotGone: when a topic's subscription listing is
// denied, check and record never say its recorded subscription is "no
// longer present": they say the listing failed and the recorded children
// were kept.
func TestFailedChildListingIsNotGone(t *testing.T) {
	e := faultWorld(t)
	if _, errs, code := e.run("record", "--all", "--yes"); code != ExitOK {
		t.Fatalf("record: exit %d\n%s", code, errs)
	}
	if err := e.srv.SetFaults([]sandbox.FaultRule{{Service: "sns", Action: "ListSubscriptionsByTopic", Code: "AuthorizationError", Status: 403}}); err != nil {
		t.Fatal(err)
	}
	for _, verb := range [][]string{{"check", "App"}, {"record", "App", "--yes"}} {
		_, errs, _ := e.run(verb[0], append(verb[1:], "--call-timeout", "5s", "--max-attempts", "1")...)
		if strings.Contains(errs, "no longer present") || !strings.Contains(errs, "Alerts was not read (its child listing or read failed): its 1 recorded added resource is kept") {
			t.Errorf("%s under a denied child listing:\n%s", verb[0], errs)
		}
	}
}
