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

// No moto test: moto 5.2.1 answers an API key's expires as a JSON number
// with a fraction ("1796788800.0"), which aws-sdk-go-v2 refuses for the
// model's long (CreateApiKey and ListApiKeys fail to deserialize), so the
// reader is checked against the sandbox and the AWS CLI check only.
func TestAppSyncApiKeyRoundTrip(t *testing.T) {
	const api = "abcdefghijklmnopqrstuvwxyz"
	arn := func(id string) string { return "arn:aws:appsync:us-east-1:111111111111:apis/" + api + "/apikeys/" + id }
	rs := []*sandbox.Resource{liveOnly("AWS::AppSync::GraphQLApi", "arn:aws:appsync:us-east-1:111111111111:apis/"+api, `{"ApiId":"`+api+`","Name":"app"}`)}
	// 30 keys: two pages of ListApiKeys.
	for i := range 30 {
		id := "da2-key" + string(rune('a'+i%26)) + string(rune('a'+i/26))
		rs = append(rs, liveOnly("AWS::AppSync::ApiKey", arn(id), `{"ApiId":"`+api+`","Expires":1784631600,"Description":"key `+id+`"}`))
	}
	srv, url := serve(t, worldOf(rs...))
	c := live.NewClients(config(url))
	last := arn("da2-keydb")
	declared := map[string]any{"ApiId": api, "Expires": 1784631600.0, "Description": "key da2-keydb"}
	req := live.Request{Type: "AWS::AppSync::ApiKey", LogicalID: "Key", PhysicalID: last, Declared: declared}
	got := live.Read(ctx(t), c, req)
	if got.Status != live.Found || got.Route != live.RouteOverride {
		t.Fatalf("read: %+v", got)
	}
	if diff := cmp.Diff(got.Model, declared); diff != "" {
		t.Errorf("model (-got +want):\n%s", diff)
	}
	for _, v := range got.Model {
		if s, _ := v.(string); strings.HasPrefix(s, "da2-") {
			t.Errorf("the key itself is in the model: %v", got.Model)
		}
	}
	if fs := classifyEntry(t, req, got.Model); len(fs) != 0 {
		t.Errorf("clean read classified as %+v", fs)
	}
	if err := srv.Apply(sandbox.Change{Op: sandbox.OpSet, Region: region, Type: req.Type, Identifier: last, Path: "Description", Value: json.RawMessage(`"rotated"`)}); err != nil {
		t.Fatal(err)
	}
	fs := classifyEntry(t, req, live.Read(ctx(t), c, req).Model)
	if len(fs) != 1 || fs[0].Tier != drift.Declared || fs[0].Path != "Description" {
		t.Errorf("description changed out of band: %+v, want one declared finding", fs)
	}
	for _, r := range []live.Request{
		{Type: req.Type, PhysicalID: arn("da2-gone"), Declared: map[string]any{"ApiId": api}},
		{Type: req.Type, PhysicalID: last, Declared: map[string]any{"ApiId": "nosuchapi"}},
	} {
		if got := live.Read(ctx(t), c, r); got.Status != live.NotFound {
			t.Errorf("%s in %v: %+v, want notFound", r.PhysicalID, r.Declared, got)
		}
	}
	if err := srv.SetFaults([]sandbox.FaultRule{{Service: "appsync", Action: "ListApiKeys", Code: "AccessDeniedException", Status: 403}}); err != nil {
		t.Fatal(err)
	}
	if got := live.Read(ctx(t), c, req); got.Status != live.Skipped || !strings.HasPrefix(got.Reason, "AppSync ListApiKeys: AccessDeniedException") {
		t.Errorf("denied: %+v", got)
	}
}
