package live_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/realdrift/realdrift/internal/drift"
	"github.com/realdrift/realdrift/internal/live"
	"github.com/realdrift/realdrift/internal/sandbox"
)

const (
	sesFilter = `{"Filter":{"Name":"block-bad","IpFilter":{"Policy":"Block","Cidr":"203.0.113.0/24"}}}`
	sesSet    = `{"RuleSetName":"inbound"}`
	sesRule   = `{"RuleSetName":"inbound","Rule":{"Name":"store","Enabled":true,"ScanEnabled":true,"TlsPolicy":"Require","Recipients":["support@example.com"],` +
		`"Actions":[{"S3Action":{"BucketName":"mail-in","ObjectKeyPrefix":"support/"}},{"StopAction":{"Scope":"RuleSet"}}]}}`
	sesDest = `{"ConfigurationSetName":"app-mail","EventDestination":{"Name":"to-sns","Enabled":true,"MatchingEventTypes":["bounce","complaint"],"SnsDestination":{"TopicARN":"arn:aws:sns:us-east-1:111111111111:mail"}}}`
)

func TestSESRoundTrip(t *testing.T) {
	srv, url := serve(t, worldOf(
		liveOnly("AWS::SES::ReceiptFilter", "block-bad", sesFilter),
		liveOnly("AWS::SES::ReceiptRuleSet", "inbound", sesSet),
		liveOnly("AWS::SES::ReceiptRule", "store", sesRule),
		liveOnly("AWS::SES::ConfigurationSet", "app-mail", `{"Name":"app-mail"}`),
		liveOnly("AWS::SES::ConfigurationSetEventDestination", "dest-1", sesDest),
	))
	c := live.NewClients(config(url))
	for _, tc := range []struct{ typ, id, model, path, value string }{
		{"AWS::SES::ReceiptFilter", "block-bad", sesFilter, "Filter.IpFilter.Policy", `"Allow"`},
		{"AWS::SES::ReceiptRuleSet", "inbound", sesSet, "", ""},
		{"AWS::SES::ReceiptRule", "store", sesRule, "Rule.Recipients.0", `"sales@example.com"`},
		{"AWS::SES::ConfigurationSetEventDestination", "dest-1", sesDest, "EventDestination.Enabled", `false`},
	} {
		req := live.Request{Type: tc.typ, LogicalID: "R", PhysicalID: tc.id, Declared: declaredOf(t, tc.model)}
		got := live.Read(ctx(t), c, req)
		if got.Status != live.Found || got.Route != live.RouteOverride {
			t.Fatalf("%s: %+v", tc.typ, got)
		}
		if diff := cmp.Diff(got.Model, declaredOf(t, tc.model)); diff != "" {
			t.Errorf("%s model (-got +want):\n%s", tc.typ, diff)
		}
		if fs := classifyEntry(t, req, got.Model); len(fs) != 0 {
			t.Errorf("%s: clean read classified as %+v", tc.typ, fs)
		}
		if tc.path == "" {
			continue
		}
		if err := srv.Apply(sandbox.Change{Op: sandbox.OpSet, Region: region, Type: tc.typ, Identifier: tc.id, Path: tc.path, Value: json.RawMessage(tc.value)}); err != nil {
			t.Fatal(err)
		}
		fs := classifyEntry(t, req, live.Read(ctx(t), c, req).Model)
		if len(fs) != 1 || fs[0].Tier != drift.Declared || !strings.HasPrefix(fs[0].Path, strings.Split(tc.path, ".")[0]) {
			t.Errorf("%s changed out of band: %+v, want one declared finding at %s", tc.typ, fs, tc.path)
		}
	}
	for _, r := range []live.Request{
		{Type: "AWS::SES::ReceiptFilter", PhysicalID: "gone"},
		{Type: "AWS::SES::ReceiptRuleSet", PhysicalID: "gone"},
		{Type: "AWS::SES::ReceiptRule", PhysicalID: "gone", Declared: map[string]any{"RuleSetName": "inbound"}},
		{Type: "AWS::SES::ReceiptRule", PhysicalID: "store", Declared: map[string]any{"RuleSetName": "gone"}},
		{Type: "AWS::SES::ConfigurationSetEventDestination", PhysicalID: "x", Declared: map[string]any{"ConfigurationSetName": "app-mail", "EventDestination": map[string]any{"Name": "gone"}}},
		{Type: "AWS::SES::ConfigurationSetEventDestination", PhysicalID: "x", Declared: map[string]any{"ConfigurationSetName": "gone", "EventDestination": map[string]any{"Name": "to-sns"}}},
	} {
		if got := live.Read(ctx(t), c, r); got.Status != live.NotFound {
			t.Errorf("%s %s %v: %+v, want notFound", r.Type, r.PhysicalID, r.Declared, got)
		}
	}
	if got := live.Read(ctx(t), c, live.Request{Type: "AWS::SES::ReceiptRule", PhysicalID: "store", Declared: map[string]any{"RuleSetName": drift.Unknown{}}}); !got.Waiting {
		t.Errorf("unresolved rule set: %+v, want waiting", got)
	}
	if err := srv.SetFaults([]sandbox.FaultRule{{Service: "ses", Action: "ListReceiptFilters", Code: "Throttling", Status: 400}}); err != nil {
		t.Fatal(err)
	}
	if got := live.Read(ctx(t), c, live.Request{Type: "AWS::SES::ReceiptFilter", PhysicalID: "block-bad"}); got.Status != live.Skipped || !strings.HasPrefix(got.Reason, "SES ListReceiptFilters: Throttling") {
		t.Errorf("throttled: %+v", got)
	}
}
