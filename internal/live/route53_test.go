package live_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/route53"
	"github.com/google/go-cmp/cmp"

	"github.com/realdrift/realdrift/internal/drift"
	"github.com/realdrift/realdrift/internal/live"
	"github.com/realdrift/realdrift/internal/sandbox"
)

const (
	zoneID   = "Z0EXAMPLE0000001"
	wwwRS    = `{"HostedZoneId":"` + zoneID + `","Name":"www.example.com.","Type":"A","TTL":"300","ResourceRecords":["192.0.2.10","192.0.2.11"]}`
	blueRS   = `{"HostedZoneId":"` + zoneID + `","Name":"api.example.com","Type":"CNAME","TTL":"60","ResourceRecords":["blue.example.net"],"SetIdentifier":"blue","Weight":70}`
	greenRS  = `{"HostedZoneId":"` + zoneID + `","Name":"api.example.com","Type":"CNAME","TTL":"60","ResourceRecords":["green.example.net"],"SetIdentifier":"green","Weight":30}`
	aliasRS  = `{"HostedZoneId":"` + zoneID + `","Name":"*.Apps.example.com","Type":"A","AliasTarget":{"DNSName":"dualstack.lb-1.us-east-1.elb.amazonaws.com","HostedZoneId":"Z35SXDOTRQ7X7K","EvaluateTargetHealth":true}}`
	groupRSG = `{"HostedZoneName":"example.com.","RecordSets":[{"Name":"MiXeD.example.com","Type":"TXT","TTL":"300","ResourceRecords":["\"b\"","\"a\""]},{"Name":"mx.example.com.","Type":"MX","TTL":"3600","ResourceRecords":["10 mail.example.com"]}]}`
)

// route53World: a hosted zone with a plain record, a weighted pair, a
// wildcard alias and a record set group that names its zone by name.
func route53World() *sandbox.World {
	return worldOf(
		liveOnly("AWS::Route53::HostedZone", zoneID, `{"Id":"`+zoneID+`","Name":"example.com."}`),
		liveOnly("AWS::Route53::RecordSet", "www.example.com", wwwRS),
		liveOnly("AWS::Route53::RecordSet", "api.example.com-blue", blueRS),
		liveOnly("AWS::Route53::RecordSet", "api.example.com-green", greenRS),
		liveOnly("AWS::Route53::RecordSet", "*.apps.example.com", aliasRS),
		liveOnly("AWS::Route53::RecordSetGroup", "Dns-Records-1", groupRSG),
	)
}

func declaredOf(t *testing.T, s string) map[string]any {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal([]byte(s), &m); err != nil {
		t.Fatal(err)
	}
	return m
}

func TestRecordSetRoundTrip(t *testing.T) {
	srv, url := serve(t, route53World())
	c := live.NewClients(config(url))
	for _, tc := range []struct {
		name, id, declared string
		want               map[string]any
	}{
		{"plain", "www.example.com", wwwRS, nil},
		{"weighted", "api.example.com-green", greenRS, nil},
		// Route 53 answers the wildcard as \052 and the name in lower
		// case; the template's form (no final dot) is kept.
		{"alias", "*.apps.example.com", aliasRS, map[string]any{"HostedZoneId": zoneID, "Name": "*.apps.example.com", "Type": "A",
			"AliasTarget": map[string]any{"DNSName": "dualstack.lb-1.us-east-1.elb.amazonaws.com", "HostedZoneId": "Z35SXDOTRQ7X7K", "EvaluateTargetHealth": true}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			req := live.Request{Type: "AWS::Route53::RecordSet", LogicalID: "Rec", PhysicalID: tc.id, Declared: declaredOf(t, tc.declared)}
			got := live.Read(ctx(t), c, req)
			if got.Status != live.Found || got.Route != live.RouteOverride {
				t.Fatalf("read: %+v", got)
			}
			want := tc.want
			if want == nil {
				want = declaredOf(t, tc.declared)
			}
			if diff := cmp.Diff(got.Model, want); diff != "" {
				t.Errorf("model (-got +want):\n%s", diff)
			}
			if fs := classifyEntry(t, req, got.Model); len(fs) != 0 {
				t.Errorf("clean read classified as %+v", fs)
			}
		})
	}

	// Out of band: the TTL of www and the weight of green change.
	req := live.Request{Type: "AWS::Route53::RecordSet", LogicalID: "Www", PhysicalID: "www.example.com", Declared: declaredOf(t, wwwRS)}
	if err := srv.Apply(sandbox.Change{Op: sandbox.OpSet, Region: region, Type: "AWS::Route53::RecordSet", Identifier: "www.example.com", Path: "TTL", Value: json.RawMessage(`"30"`)}); err != nil {
		t.Fatal(err)
	}
	fs := classifyEntry(t, req, live.Read(ctx(t), c, req).Model)
	if len(fs) != 1 || fs[0].Path != "TTL" || fs[0].Tier != drift.Declared {
		t.Errorf("out-of-band TTL change: %+v, want one declared finding on TTL", fs)
	}

	// Deleted out of band, another set identifier, a zone that does not
	// exist: not found.
	if err := srv.Apply(sandbox.Change{Op: sandbox.OpDelete, Region: region, Type: "AWS::Route53::RecordSet", Identifier: "api.example.com-blue"}); err != nil {
		t.Fatal(err)
	}
	for _, d := range []map[string]any{
		declaredOf(t, blueRS),
		{"HostedZoneId": zoneID, "Name": "api.example.com", "Type": "CNAME", "SetIdentifier": "red"},
		{"HostedZoneId": zoneID, "Name": "www.example.com", "Type": "AAAA"},
		{"HostedZoneId": "Z0NOSUCHZONE", "Name": "www.example.com", "Type": "A"},
	} {
		if got := live.Read(ctx(t), c, live.Request{Type: "AWS::Route53::RecordSet", PhysicalID: "x", Declared: d}); got.Status != live.NotFound {
			t.Errorf("%v: %+v, want notFound", d, got)
		}
	}

	// An unresolved zone waits; AccessDenied and throttling are skipped.
	if got := live.Read(ctx(t), c, live.Request{Type: "AWS::Route53::RecordSet", PhysicalID: "x", Declared: map[string]any{"HostedZoneId": drift.Unknown{}, "Name": "a", "Type": "A"}}); got.Status != live.Skipped || !got.Waiting {
		t.Errorf("unresolved zone: %+v, want skipped and waiting", got)
	}
	for _, f := range []sandbox.FaultRule{
		{Service: "route53", Action: "ListResourceRecordSets", Code: "AccessDenied", Status: 403},
		{Service: "route53", Action: "ListResourceRecordSets", Code: "Throttling", Status: 400},
	} {
		if err := srv.SetFaults([]sandbox.FaultRule{f}); err != nil {
			t.Fatal(err)
		}
		got := live.Read(ctx(t), c, req)
		if got.Status != live.Skipped || !strings.HasPrefix(got.Reason, "Route 53 ListResourceRecordSets: "+f.Code) {
			t.Errorf("%s: %+v, want skipped with the code", f.Code, got)
		}
	}
}

func TestRecordSetGroupRoundTrip(t *testing.T) {
	srv, url := serve(t, route53World())
	c := live.NewClients(config(url))
	req := live.Request{Type: "AWS::Route53::RecordSetGroup", LogicalID: "Records", PhysicalID: "Dns-Records-1", Declared: declaredOf(t, groupRSG)}
	got := live.Read(ctx(t), c, req)
	if got.Status != live.Found {
		t.Fatalf("read: %+v", got)
	}
	// The zone found by name; names in Route 53's case, in the declared
	// dot form; the records in the order Route 53 keeps them.
	want := declaredOf(t, `{"HostedZoneName":"example.com.","RecordSets":[{"Name":"mixed.example.com","Type":"TXT","TTL":"300","ResourceRecords":["\"b\"","\"a\""]},{"Name":"mx.example.com.","Type":"MX","TTL":"3600","ResourceRecords":["10 mail.example.com"]}]}`)
	if diff := cmp.Diff(got.Model, want); diff != "" {
		t.Errorf("model (-got +want):\n%s", diff)
	}
	if fs := classifyEntry(t, req, got.Model); len(fs) != 0 {
		t.Errorf("clean read classified as %+v", fs)
	}
	if err := srv.Apply(sandbox.Change{Op: sandbox.OpSet, Region: region, Type: "AWS::Route53::RecordSetGroup", Identifier: "Dns-Records-1", Path: "RecordSets.1.ResourceRecords.0", Value: json.RawMessage(`"20 other.example.org"`)}); err != nil {
		t.Fatal(err)
	}
	fs := classifyEntry(t, req, live.Read(ctx(t), c, req).Model)
	if len(fs) != 1 || fs[0].Tier != drift.Declared || !strings.HasPrefix(fs[0].Path, "RecordSets") {
		t.Errorf("out-of-band MX change: %+v, want one declared finding under RecordSets", fs)
	}
	gone := map[string]any{"HostedZoneName": "example.com.", "RecordSets": []any{map[string]any{"Name": "gone.example.com", "Type": "A"}}}
	if got := live.Read(ctx(t), c, live.Request{Type: "AWS::Route53::RecordSetGroup", PhysicalID: "x", Declared: gone}); got.Status != live.NotFound {
		t.Errorf("group of missing records: %+v, want notFound", got)
	}
	if got := live.Read(ctx(t), c, live.Request{Type: "AWS::Route53::RecordSetGroup", PhysicalID: "x", Declared: map[string]any{"HostedZoneName": "nosuch.example.", "RecordSets": []any{}}}); got.Status != live.NotFound {
		t.Errorf("zone name nothing answers to: %+v, want notFound", got)
	}
}

// TestRoute53Paging pages the sandbox's listing one record at a time
// through the SDK's paginator: every record once, in Route 53's order.
func TestRoute53Paging(t *testing.T) {
	_, url := serve(t, route53World())
	cl := route53.NewFromConfig(config(url))
	p := route53.NewListResourceRecordSetsPaginator(cl, &route53.ListResourceRecordSetsInput{HostedZoneId: aws.String(zoneID), MaxItems: aws.Int32(1)})
	var got []string
	for p.HasMorePages() {
		page, err := p.NextPage(ctx(t))
		if err != nil {
			t.Fatal(err)
		}
		if len(page.ResourceRecordSets) != 1 {
			t.Fatalf("page of %d records, want 1", len(page.ResourceRecordSets))
		}
		r := page.ResourceRecordSets[0]
		got = append(got, aws.ToString(r.Name)+" "+string(r.Type)+" "+aws.ToString(r.SetIdentifier))
	}
	want := []string{"api.example.com. CNAME blue", "api.example.com. CNAME green", `\052.apps.example.com. A `, "mixed.example.com. TXT ", "mx.example.com. MX ", "www.example.com. A "}
	if diff := cmp.Diff(got, want); diff != "" {
		t.Errorf("records (-got +want):\n%s", diff)
	}
	_, err := cl.ListResourceRecordSets(ctx(t), &route53.ListResourceRecordSetsInput{HostedZoneId: aws.String("/hostedzone/Z0NOSUCHZONE")})
	if err == nil || !strings.Contains(err.Error(), "NoSuchHostedZone") {
		t.Errorf("missing zone: %v, want NoSuchHostedZone", err)
	}
}
