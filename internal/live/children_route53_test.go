package live_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/realdrift/realdrift/internal/drift"
	"github.com/realdrift/realdrift/internal/live"
	"github.com/realdrift/realdrift/internal/sandbox"
)

const enumZone = "Z0ENUMZONE000001"

// zoneRecord is a live-only record set of enumZone.
func zoneRecord(id, props string) *sandbox.Resource {
	return liveOnly("AWS::Route53::RecordSet", id, `{"HostedZoneId":"`+enumZone+`",`+props+`}`)
}

const (
	enumWWW   = `{"HostedZoneId":"` + enumZone + `","Name":"www.example.org.","Type":"A","TTL":"300","ResourceRecords":["192.0.2.10"]}`
	enumWild  = `{"HostedZoneId":"` + enumZone + `","Name":"*.apps.example.org","Type":"A","TTL":"60","ResourceRecords":["192.0.2.20"]}`
	enumGroup = `{"HostedZoneName":"example.org.","RecordSets":[{"Name":"grp.example.org","Type":"TXT","TTL":"300","ResourceRecords":["\"v=1\""]},` +
		`{"Name":"api.example.org.","Type":"CNAME","TTL":"60","SetIdentifier":"blue","Weight":70,"ResourceRecords":["blue.example.net"]}]}`
)

// hostedZoneCase: a zone with its apex NS and SOA, a declared record (and
// a declared wildcard, answered \052), a record set group of the stack,
// a sibling stack's record, an ACM validation CNAME, a record of another
// zone and one record added in the console.
func hostedZoneCase(t *testing.T) familyCase {
	return familyCase{
		world: []*sandbox.Resource{
			liveOnly("AWS::Route53::HostedZone", enumZone, `{"Id":"`+enumZone+`","Name":"example.org."}`),
			liveOnly("AWS::Route53::HostedZone", "Z0OTHERZONE00001", `{"Id":"Z0OTHERZONE00001","Name":"example.net."}`),
			zoneRecord("example.org|NS", `"Name":"example.org.","Type":"NS","TTL":"172800","ResourceRecords":["ns-1.awsdns-01.org.","ns-2.awsdns-02.net."]`),
			zoneRecord("example.org|SOA", `"Name":"example.org.","Type":"SOA","TTL":"900","ResourceRecords":["ns-1.awsdns-01.org. awsdns-hostmaster.amazon.com. 1 7200 900 1209600 86400"]`),
			liveOnly("AWS::Route53::RecordSet", "www.example.org", enumWWW),
			liveOnly("AWS::Route53::RecordSet", "*.apps.example.org", enumWild),
			liveOnly("AWS::Route53::RecordSetGroup", "App-Records-1ABCDEF", enumGroup),
			zoneRecord("_3f1c2a9b8d7e6f5a4b3c2d1e0f9a8b7c.www.example.org", `"Name":"_3f1c2a9b8d7e6f5a4b3c2d1e0f9a8b7c.www.example.org.","Type":"CNAME","TTL":"300",`+
				`"ResourceRecords":["_9a8b7c6d5e4f3a2b1c0d9e8f7a6b5c4d.xlfgrmvvlj.acm-validations.aws."]`),
			zoneRecord("console.example.org", `"Name":"Console.example.org.","Type":"CNAME","TTL":"60","SetIdentifier":"manual","Weight":10,"ResourceRecords":["legacy.example.net"]`),
			liveOnly("AWS::Route53::RecordSet", "elsewhere.example.net", `{"HostedZoneId":"Z0OTHERZONE00001","Name":"elsewhere.example.net.","Type":"A","TTL":"60","ResourceRecords":["192.0.2.99"]}`),
		},
		sibling: []*sandbox.Resource{owned("Shared", "AWS::Route53::RecordSet", "shared.example.org",
			`{"HostedZoneId":"`+enumZone+`","Name":"shared.example.org.","Type":"A","TTL":"60","ResourceRecords":["192.0.2.50"]}`)},
		parent: live.StackResource{LogicalID: "Zone", Type: "AWS::Route53::HostedZone", PhysicalID: enumZone, Declared: map[string]any{"Name": "example.org."}},
		stack: []live.StackResource{
			{LogicalID: "Zone", Type: "AWS::Route53::HostedZone", PhysicalID: enumZone},
			{LogicalID: "Www", Type: "AWS::Route53::RecordSet", PhysicalID: "www.example.org", Declared: declaredOf(t, enumWWW)},
			// A declared record whose Name the resolver left unresolved is
			// known by its physical id.
			{LogicalID: "Wild", Type: "AWS::Route53::RecordSet", PhysicalID: "*.apps.example.org", Declared: map[string]any{"HostedZoneId": enumZone, "Name": drift.Unknown{}, "Type": "A"}},
			{LogicalID: "Records", Type: "AWS::Route53::RecordSetGroup", PhysicalID: "App-Records-1ABCDEF", Declared: declaredOf(t, enumGroup)},
		},
		want: []string{"AWS::Route53::RecordSet " + enumZone + "|console.example.org|CNAME|manual"},
		models: map[string]map[string]any{enumZone + "|console.example.org|CNAME|manual": {"HostedZoneId": enumZone, "Name": "console.example.org", "Type": "CNAME",
			"TTL": "60", "SetIdentifier": "manual", "Weight": 10.0, "ResourceRecords": []any{"legacy.example.net"}}},
		service: "route53", action: "ListResourceRecordSets", denied: "Route 53 ListResourceRecordSets: AccessDenied",
	}
}

// TestEnumerateHostedZoneRecords: only the console-added record of a zone
// is added, with its RecordSet model; the apex NS and SOA, the declared
// records (by Name, Type and SetIdentifier, by physical id, or as a
// group's entries), a sibling stack's record, an ACM validation CNAME and
// another zone's record are not; ListResourceRecordSets denied skips the
// zone.
func TestEnumerateHostedZoneRecords(t *testing.T) {
	runFamily(t, hostedZoneCase(t))
}

// TestHostedZoneRecordModel: the added record's model is what the
// RecordSet reader reads for the record (so it classifies as a declared
// record set would), and it is named by Name, Type and SetIdentifier: a
// declared record of the same name but another set identifier does not
// hide it.
func TestHostedZoneRecordModel(t *testing.T) {
	fc := hostedZoneCase(t)
	_, url := serve(t, familyWorld(fc))
	c := live.NewClients(config(url))
	stack := append(fc.stack, live.StackResource{LogicalID: "Primary", Type: "AWS::Route53::RecordSet", PhysicalID: "x",
		Declared: map[string]any{"HostedZoneId": enumZone, "Name": "console.example.org", "Type": "CNAME", "SetIdentifier": "primary"}})
	got, err := live.Enumerate(ctx(t), c, fc.parent, stack)
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	for _, ch := range got {
		ids = append(ids, ch.Identifier)
	}
	if diff := cmp.Diff(ids, []string{enumZone + "|console.example.org|CNAME|manual"}); diff != "" {
		t.Fatalf("added (-got +want):\n%s", diff)
	}
	read := live.Read(ctx(t), c, live.Request{Type: "AWS::Route53::RecordSet", PhysicalID: "console.example.org",
		Declared: map[string]any{"HostedZoneId": enumZone, "Name": "console.example.org", "Type": "CNAME", "SetIdentifier": "manual"}})
	if read.Status != live.Found {
		t.Fatalf("reader: %+v", read)
	}
	if diff := cmp.Diff(got[0].Model, read.Model); diff != "" {
		t.Errorf("enumerated model vs the reader's (-got +want):\n%s", diff)
	}
	// The same record declared by the stack is no longer added.
	stack = append(stack, live.StackResource{LogicalID: "Manual", Type: "AWS::Route53::RecordSet", PhysicalID: "console.example.org",
		Declared: map[string]any{"HostedZoneName": "example.org", "Name": "CONSOLE.example.org.", "Type": "cname", "SetIdentifier": "manual"}})
	if got, err = live.Enumerate(ctx(t), c, fc.parent, stack); err != nil || len(got) != 0 {
		t.Errorf("declared in another case and dot form: %+v, %v; want nothing added", got, err)
	}
}

// familyWorld is fc's world as runFamily serves it: the resources, and
// the stacks App and Sibling (owning fc.sibling).
func familyWorld(fc familyCase) *sandbox.World {
	w := worldOf(fc.world...)
	w.Accounts[0].Regions[0].Stacks = []*sandbox.Stack{
		{Name: "App", TemplateBody: `{"Resources":{}}`},
		{Name: "Sibling", TemplateBody: `{"Resources":{}}`, Resources: fc.sibling},
	}
	return w
}

// TestHostedZoneRecordsFailClosed: a record set group of the zone whose
// records are unresolved skips the zone with the reason (one in another
// zone does not); a zone that is gone lists nothing; a throttled listing
// skips the zone.
func TestHostedZoneRecordsFailClosed(t *testing.T) {
	fc := hostedZoneCase(t)
	srv, url := serve(t, familyWorld(fc))
	c := live.NewClients(config(url))
	for _, tc := range []struct {
		name   string
		group  map[string]any
		reason string
	}{
		{"unresolved list", map[string]any{"HostedZoneId": enumZone, "RecordSets": drift.Unknown{}}, "the RecordSets of Grp are unresolved"},
		{"unresolved name", map[string]any{"HostedZoneName": "example.org.", "RecordSets": []any{map[string]any{"Name": drift.Unknown{}, "Type": "A"}}},
			"the Name of Grp RecordSets.0 is unresolved"},
		{"unresolved zone", map[string]any{"HostedZoneId": drift.Unknown{}, "RecordSets": drift.Unknown{}}, "the RecordSets of Grp are unresolved"},
		{"another zone", map[string]any{"HostedZoneId": "Z0OTHERZONE00001", "RecordSets": drift.Unknown{}}, ""},
		{"another zone by name", map[string]any{"HostedZoneName": "example.net", "RecordSets": drift.Unknown{}}, ""},
	} {
		stack := append(append([]live.StackResource{}, fc.stack...), live.StackResource{LogicalID: "Grp", Type: "AWS::Route53::RecordSetGroup", PhysicalID: "App-Grp-1", Declared: tc.group})
		got, err := live.Enumerate(ctx(t), c, fc.parent, stack)
		if tc.reason == "" {
			if err != nil || len(got) != 1 {
				t.Errorf("%s: %+v, %v; want the console record alone", tc.name, got, err)
			}
			continue
		}
		var ee *live.EnumerateError
		if !asEnumerateError(err, &ee) || !strings.HasPrefix(ee.Reason, "enumerate children: "+tc.reason) {
			t.Errorf("%s: %+v, %v; want the zone skipped: %s", tc.name, got, err, tc.reason)
		}
	}
	gone := live.StackResource{LogicalID: "Zone", Type: "AWS::Route53::HostedZone", PhysicalID: "Z0NOSUCHZONE0001"}
	if got, err := live.Enumerate(ctx(t), c, gone, nil); err != nil || len(got) != 0 {
		t.Errorf("gone zone: %+v, %v; want nothing", got, err)
	}
	if err := srv.SetFaults([]sandbox.FaultRule{{Service: "route53", Action: "ListResourceRecordSets", Code: "Throttling", Status: 400}}); err != nil {
		t.Fatal(err)
	}
	_, err := live.Enumerate(ctx(t), c, fc.parent, fc.stack)
	var ee *live.EnumerateError
	if !asEnumerateError(err, &ee) || !strings.HasPrefix(ee.Reason, "enumerate children: Route 53 ListResourceRecordSets: Throttling") {
		t.Errorf("throttled: %v, want the zone skipped", err)
	}
}

// TestHostedZoneRecordsPaging: a zone of 310 records is listed in two
// pages (300, then 10); the one record the stack does not declare is on
// the second.
func TestHostedZoneRecordsPaging(t *testing.T) {
	const zone = "Z0BIGZONE0000001"
	world := []*sandbox.Resource{liveOnly("AWS::Route53::HostedZone", zone, `{"Id":"`+zone+`","Name":"big.example."}`)}
	parent := live.StackResource{LogicalID: "Zone", Type: "AWS::Route53::HostedZone", PhysicalID: zone}
	stack := []live.StackResource{parent}
	for i := 0; i < 310; i++ {
		name := fmt.Sprintf("r%03d.big.example", i)
		world = append(world, liveOnly("AWS::Route53::RecordSet", name, `{"HostedZoneId":"`+zone+`","Name":"`+name+`","Type":"A","TTL":"60","ResourceRecords":["192.0.2.1"]}`))
		if i != 305 {
			stack = append(stack, live.StackResource{LogicalID: fmt.Sprintf("R%d", i), Type: "AWS::Route53::RecordSet", PhysicalID: name})
		}
	}
	srv, url := serve(t, worldOf(world...))
	got, err := live.Enumerate(ctx(t), live.NewClients(config(url)), parent, stack)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 1 || got[0].Identifier != zone+"|r305.big.example|A" {
		t.Errorf("added %+v, want r305 alone", got)
	}
	if n := srv.Calls().Requests["route53:ListResourceRecordSets"]; n != 2 {
		t.Errorf("%d ListResourceRecordSets requests, want 2 pages", n)
	}
}
