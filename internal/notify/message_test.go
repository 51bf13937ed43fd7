package notify

import (
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/realdrift/realdrift/internal/drift"
)

var update = flag.Bool("update", false, "rewrite testdata/*.golden")

var (
	shop = drift.StackRef{Account: "111111111111", Region: "eu-west-1", Name: "Shop-Api"}
	at   = time.Date(2026, 11, 30, 4, 5, 6, 0, time.UTC)
)

func manyFindings() []drift.Finding {
	fs := baseFindings()
	fs = append(fs,
		drift.Finding{Tier: drift.Deleted, LogicalID: "Table", ResourceType: "AWS::DynamoDB::Table", PhysicalID: "t-1"},
		drift.Finding{Tier: drift.Declared, LogicalID: "Db", ResourceType: "AWS::RDS::DBInstance", PhysicalID: "db", Path: "MasterUserPassword",
			Actual: drift.Redacted, Desired: drift.Secret{Value: "hunter2-plaintext"}},
		drift.Finding{Tier: drift.Undeclared, LogicalID: "Role", ResourceType: "AWS::IAM::Role", PhysicalID: "r", Path: "Description",
			Actual: "<script>&amp; " + strings.Repeat("long ", 40)},
		drift.Finding{Tier: drift.Undeclared, LogicalID: "Fn", ResourceType: "AWS::Lambda::Function", PhysicalID: "fn", Path: "Timeout", Actual: 9.0, Unrecorded: true},
		drift.Finding{Tier: drift.Skipped, LogicalID: "Custom", ResourceType: "Custom::Thing", Reason: "custom resource"},
		drift.Finding{Tier: drift.Unresolved, LogicalID: "Db", ResourceType: "AWS::RDS::DBInstance", Path: "Password", Desired: drift.Unknown{Secret: true, Reason: "{{resolve:secretsmanager:prod/db}}"}},
	)
	return fs
}

// namedFindings are a CDK stack's findings with construct paths: a
// declared change, an undeclared value changed since record, an added
// subscription to an outside address.
func namedFindings() []drift.Finding {
	return []drift.Finding{
		{Tier: drift.Declared, LogicalID: "Handler779B3DB6", ResourceType: "AWS::Lambda::Function", PhysicalID: "fn", ConstructPath: "OrdersService/Handler/Resource",
			Path: "MemorySize", Actual: 1024.0, Desired: 256.0},
		{Tier: drift.Undeclared, LogicalID: "OrdersQueueFD0AB7E6", ResourceType: "AWS::SQS::Queue", PhysicalID: "q", ConstructPath: "OrdersService/OrdersQueue/Resource",
			Path: "MessageRetentionPeriod", Actual: 60.0, Desired: 345600.0, Note: "changed since record"},
		{Tier: drift.Added, LogicalID: "AlertsTopicB9A4C6E5/Subscription", ResourceType: "AWS::SNS::Subscription", PhysicalID: "arn:aws:sns:us-east-1:200000000002:Alerts:1f2e",
			Actual: map[string]any{"Protocol": "email", "Endpoint": "someone@outside.example", "TopicArn": "arn:aws:sns:us-east-1:200000000002:Alerts"}, Note: "appeared since record"},
	}
}

func goldenCases() map[string]Summary {
	return map[string]Summary{
		"detected":      Summarize(shop, "sweep-2026-11-30T04-00", at, manyFindings(), ""),
		"detected-few":  Summarize(drift.StackRef{Account: "222222222222", Region: "cn-north-1", Name: "Billing"}, "check-1", at, baseFindings()[:1], "0ld"),
		"resolved":      Summarize(shop, "sweep-2026-12-01T04-00", at.Add(24*time.Hour), baseFindings()[3:], Fingerprint(baseFindings())),
		"unchanged-run": Summarize(shop, "run-3", at, baseFindings(), Fingerprint(baseFindings())),
		// Findings named as check prints them: construct paths, the
		// recorded value of undeclared drift, what an added child is.
		"detected-named": Summarize(drift.StackRef{Account: "200000000002", Region: "us-east-1", Name: "OrdersService"}, "check-2", at, namedFindings(), "0ld"),
		// A clean stack whose read is now denied: an alert, INCOMPLETE.
		"incomplete-from-clean": Summarize(shop, "sweep-2026-12-03T04-00", at.Add(72*time.Hour), []drift.Finding{
			{Tier: drift.Skipped, LogicalID: "Queue", ResourceType: "AWS::SQS::Queue", PhysicalID: "q", Reason: "CloudControl GetResource: AccessDeniedException: not authorized to perform cloudformation:GetResource"},
		}, "").WithResources(12),
		// The drift set emptied while a read was denied: never "No drift
		// remains", always INCOMPLETE with the count.
		"resolved-incomplete": Summarize(shop, "sweep-2026-12-02T04-00", at.Add(48*time.Hour), []drift.Finding{
			{Tier: drift.Skipped, LogicalID: "Queue", ResourceType: "AWS::SQS::Queue", PhysicalID: "q", Reason: "CloudControl GetResource: AccessDeniedException: not authorized to perform cloudformation:GetResource"},
		}, Fingerprint(baseFindings())).WithResources(12),
	}
}

// render writes every message built from s, in one file.
func render(t *testing.T, s Summary) string {
	t.Helper()
	var b strings.Builder
	fmt.Fprintf(&b, "event: %s\n", s.Event)
	fmt.Fprintf(&b, "--- subject ---\n%s\n", Subject(s))
	fmt.Fprintf(&b, "--- text ---\n%s", Text(s))
	slack, err := SlackPayload(s)
	if err != nil {
		t.Fatal(err)
	}
	fmt.Fprintf(&b, "--- slack ---\n%s\n", slack)
	detail, err := EventDetail(s)
	if err != nil {
		t.Fatal(err)
	}
	var pretty any
	if err := json.Unmarshal(detail, &pretty); err != nil {
		t.Fatalf("event detail is not JSON: %v", err)
	}
	pd, _ := json.MarshalIndent(pretty, "", "  ")
	fmt.Fprintf(&b, "--- event detail ---\n%s\n", pd)
	attrs, err := SNSAttributes(s)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for n := range attrs {
		names = append(names, n)
	}
	sort.Strings(names)
	b.WriteString("--- sns attributes ---\n")
	for _, n := range names {
		fmt.Fprintf(&b, "%s (%s): %s\n", n, attrs[n].DataType, attrs[n].Value)
	}
	return b.String()
}

func TestMessagesGolden(t *testing.T) {
	for name, s := range goldenCases() {
		t.Run(name, func(t *testing.T) {
			got := render(t, s)
			path := filepath.Join("testdata", name+".golden")
			if *update {
				if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			want, err := os.ReadFile(path)
			if err != nil {
				t.Fatalf("%v (run go test -update to create it)", err)
			}
			if d := cmp.Diff(got, string(want)); d != "" {
				t.Errorf("%s (-got +want):\n%s", path, d)
			}
			for _, secret := range []string{"hunter2", "prod/db"} {
				if strings.Contains(got, secret) {
					t.Errorf("messages contain the secret %q", secret)
				}
			}
		})
	}
}

func TestSubjectLimits(t *testing.T) {
	s := Summarize(drift.StackRef{Account: "111111111111", Region: "eu-west-1", Name: strings.Repeat("Very-Long-Stack-Name-", 8) + "é"}, "r", at, baseFindings(), "")
	got := Subject(s)
	if len(got) >= 100 || strings.ContainsAny(got, "\n\r") {
		t.Errorf("subject %q: %d bytes", got, len(got))
	}
	for _, r := range got {
		if r > 0x7e {
			t.Errorf("subject %q has non-ASCII %q", got, r)
		}
	}
}

func TestEventDetailLargeValuesOmitted(t *testing.T) {
	big := strings.Repeat("x", 60_000)
	var fs []drift.Finding
	for i := range 5 {
		fs = append(fs, drift.Finding{Tier: drift.Undeclared, LogicalID: fmt.Sprintf("R%d", i), ResourceType: "AWS::IAM::Policy", Path: "PolicyDocument", Actual: big})
	}
	d, err := EventDetail(Summarize(shop, "r", at, fs, ""))
	if err != nil {
		t.Fatal(err)
	}
	if len(d) > maxDetail {
		t.Errorf("detail is %d bytes", len(d))
	}
	var got struct {
		ValuesOmitted bool            `json:"valuesOmitted"`
		TopFindings   []drift.Finding `json:"topFindings"`
	}
	if err := json.Unmarshal(d, &got); err != nil {
		t.Fatal(err)
	}
	if !got.ValuesOmitted || len(got.TopFindings) != 5 || got.TopFindings[0].Actual != nil {
		t.Errorf("valuesOmitted=%v, %d findings, first actual %v", got.ValuesOmitted, len(got.TopFindings), got.TopFindings[0].Actual)
	}
}

// An alert names a finding as check prints it, shows the recorded value
// undeclared drift changed from, and says what an added child is.
func TestFindingLineNames(t *testing.T) {
	fs := namedFindings()
	got := []string{findingLine("OrdersService", fs[0]), findingLine("OrdersService", fs[1]), findingLine("OrdersService", fs[2])}
	want := []string{
		"[declared] Handler.MemorySize (AWS::Lambda::Function): template 256 → live 1024",
		"[undeclared] OrdersQueue.MessageRetentionPeriod (AWS::SQS::Queue): recorded 345600 → live 60 (changed since record)",
		"[added] AlertsTopicB9A4C6E5/Subscription (AWS::SNS::Subscription) arn:aws:sns:us-east-1:200000000002:Alerts:1f2e: Protocol email, Endpoint someone@outside.example (appeared since record)",
	}
	if diff := cmp.Diff(got, want); diff != "" {
		t.Errorf("finding lines (-got +want):\n%s", diff)
	}
}
