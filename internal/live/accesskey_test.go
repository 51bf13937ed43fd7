package live_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/iam"
	"github.com/google/go-cmp/cmp"

	"github.com/realdrift/realdrift/internal/drift"
	"github.com/realdrift/realdrift/internal/live"
	"github.com/realdrift/realdrift/internal/sandbox"
)

func TestAccessKeyRoundTrip(t *testing.T) {
	rs := []*sandbox.Resource{liveOnly("AWS::IAM::User", "deployer", `{"UserName":"deployer"}`), liveOnly("AWS::IAM::User", "idle", `{"UserName":"idle"}`)}
	// Five keys: three pages at MaxItems 2 (paged below).
	for _, id := range []string{"AKIAKEY0000000000001", "AKIAKEY0000000000002", "AKIAKEY0000000000003", "AKIAKEY0000000000004", "AKIAKEY0000000000005"} {
		rs = append(rs, liveOnly("AWS::IAM::AccessKey", id, `{"UserName":"deployer","Status":"Active","Serial":1}`))
	}
	srv, url := serve(t, worldOf(rs...))
	c := live.NewClients(config(url))
	declared := map[string]any{"UserName": "deployer", "Status": "Active", "Serial": 1.0}
	req := live.Request{Type: "AWS::IAM::AccessKey", LogicalID: "Key", PhysicalID: "AKIAKEY0000000000005", Declared: declared}
	got := live.Read(ctx(t), c, req)
	if got.Status != live.Found || got.Route != live.RouteOverride {
		t.Fatalf("read: %+v", got)
	}
	if diff := cmp.Diff(got.Model, map[string]any{"UserName": "deployer", "Status": "Active"}); diff != "" {
		t.Errorf("model (-got +want):\n%s", diff)
	}
	if fs := classifyEntry(t, req, got.Model); len(fs) != 0 {
		t.Errorf("clean read classified as %+v", fs)
	}
	if err := srv.Apply(sandbox.Change{Op: sandbox.OpSet, Region: region, Type: req.Type, Identifier: "AKIAKEY0000000000005", Path: "Status", Value: json.RawMessage(`"Inactive"`)}); err != nil {
		t.Fatal(err)
	}
	fs := classifyEntry(t, req, live.Read(ctx(t), c, req).Model)
	if len(fs) != 1 || fs[0].Tier != drift.Declared || fs[0].Path != "Status" {
		t.Errorf("key deactivated out of band: %+v, want one declared finding on Status", fs)
	}
	for _, d := range []map[string]any{{"UserName": "idle"}, {"UserName": "nobody"}} {
		if got := live.Read(ctx(t), c, live.Request{Type: req.Type, PhysicalID: "AKIAKEY0000000000005", Declared: d}); got.Status != live.NotFound {
			t.Errorf("%v: %+v, want notFound", d, got)
		}
	}
	if got := live.Read(ctx(t), c, live.Request{Type: req.Type, PhysicalID: "x", Declared: map[string]any{"UserName": drift.Unknown{}}}); got.Status != live.Skipped || !got.Waiting {
		t.Errorf("unresolved user: %+v, want waiting", got)
	}
	if err := srv.SetFaults([]sandbox.FaultRule{{Service: "iam", Action: "ListAccessKeys", Code: "AccessDenied", Status: 403}}); err != nil {
		t.Fatal(err)
	}
	if got := live.Read(ctx(t), c, req); got.Status != live.Skipped || !strings.HasPrefix(got.Reason, "IAM ListAccessKeys: AccessDenied") {
		t.Errorf("denied: %+v", got)
	}
	if err := srv.SetFaults(nil); err != nil {
		t.Fatal(err)
	}
	// The sandbox pages by Marker.
	cl := iam.NewFromConfig(config(url))
	p := iam.NewListAccessKeysPaginator(cl, &iam.ListAccessKeysInput{UserName: aws.String("deployer"), MaxItems: aws.Int32(2)})
	var ids []string
	pages := 0
	for p.HasMorePages() {
		page, err := p.NextPage(ctx(t))
		if err != nil {
			t.Fatal(err)
		}
		pages++
		for _, k := range page.AccessKeyMetadata {
			ids = append(ids, *k.AccessKeyId)
		}
	}
	if pages != 3 || len(ids) != 5 || ids[4] != "AKIAKEY0000000000005" {
		t.Errorf("%d pages, keys %v; want 3 pages of the 5 keys", pages, ids)
	}
}
