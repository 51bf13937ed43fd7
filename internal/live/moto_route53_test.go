package live_test

import (
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/route53"
	r53types "github.com/aws/aws-sdk-go-v2/service/route53/types"
	"github.com/google/go-cmp/cmp"

	"github.com/realdrift/realdrift/internal/live"
)

// TestMotoRoute53: records created in moto (CreateHostedZone,
// ChangeResourceRecordSets) read back by the RecordSet and RecordSetGroup
// readers, the zone named by id and by name.
func TestMotoRoute53(t *testing.T) {
	cfg := motoConfig(t)
	cx := ctx(t)
	r53 := route53.NewFromConfig(cfg)
	zone, err := r53.CreateHostedZone(cx, &route53.CreateHostedZoneInput{Name: aws.String("moto-r53.example."), CallerReference: aws.String("realdrift-moto")})
	if err != nil {
		t.Fatal(err)
	}
	zoneID := strings.TrimPrefix(aws.ToString(zone.HostedZone.Id), "/hostedzone/")
	rr := func(vs ...string) []r53types.ResourceRecord {
		out := make([]r53types.ResourceRecord, len(vs))
		for i, v := range vs {
			out[i] = r53types.ResourceRecord{Value: aws.String(v)}
		}
		return out
	}
	sets := []r53types.ResourceRecordSet{
		{Name: aws.String("www.moto-r53.example."), Type: r53types.RRTypeA, TTL: aws.Int64(300), ResourceRecords: rr("192.0.2.1", "192.0.2.2")},
		{Name: aws.String("api.moto-r53.example."), Type: r53types.RRTypeCname, TTL: aws.Int64(60), SetIdentifier: aws.String("blue"), Weight: aws.Int64(70), ResourceRecords: rr("blue.example.net")},
		{Name: aws.String("api.moto-r53.example."), Type: r53types.RRTypeCname, TTL: aws.Int64(60), SetIdentifier: aws.String("green"), Weight: aws.Int64(30), ResourceRecords: rr("green.example.net")},
		{Name: aws.String("txt.moto-r53.example."), Type: r53types.RRTypeTxt, TTL: aws.Int64(600), ResourceRecords: rr(`"v=1"`)},
	}
	var changes []r53types.Change
	for i := range sets {
		changes = append(changes, r53types.Change{Action: r53types.ChangeActionCreate, ResourceRecordSet: &sets[i]})
	}
	if _, err := r53.ChangeResourceRecordSets(cx, &route53.ChangeResourceRecordSetsInput{HostedZoneId: &zoneID, ChangeBatch: &r53types.ChangeBatch{Changes: changes}}); err != nil {
		t.Fatal(err)
	}
	c := live.NewClients(cfg)
	tests := []struct {
		typ      string
		declared map[string]any
		want     map[string]any
	}{
		{"AWS::Route53::RecordSet",
			map[string]any{"HostedZoneId": zoneID, "Name": "www.moto-r53.example", "Type": "A", "TTL": "300", "ResourceRecords": []any{"192.0.2.1", "192.0.2.2"}},
			map[string]any{"HostedZoneId": zoneID, "Name": "www.moto-r53.example", "Type": "A", "TTL": "300", "ResourceRecords": []any{"192.0.2.1", "192.0.2.2"}}},
		{"AWS::Route53::RecordSet",
			map[string]any{"HostedZoneId": zoneID, "Name": "api.moto-r53.example.", "Type": "CNAME", "SetIdentifier": "green"},
			map[string]any{"HostedZoneId": zoneID, "Name": "api.moto-r53.example.", "Type": "CNAME", "TTL": "60", "SetIdentifier": "green", "Weight": 30.0, "ResourceRecords": []any{"green.example.net"}}},
		{"AWS::Route53::RecordSetGroup",
			map[string]any{"HostedZoneName": "moto-r53.example.", "RecordSets": []any{map[string]any{"Name": "txt.moto-r53.example.", "Type": "TXT"}, map[string]any{"Name": "api.moto-r53.example.", "Type": "CNAME", "SetIdentifier": "blue"}}},
			map[string]any{"HostedZoneName": "moto-r53.example.", "RecordSets": []any{
				map[string]any{"Name": "txt.moto-r53.example.", "Type": "TXT", "TTL": "600", "ResourceRecords": []any{`"v=1"`}},
				map[string]any{"Name": "api.moto-r53.example.", "Type": "CNAME", "TTL": "60", "SetIdentifier": "blue", "Weight": 70.0, "ResourceRecords": []any{"blue.example.net"}},
			}}},
	}
	for _, tt := range tests {
		got := live.Read(cx, c, live.Request{Type: tt.typ, PhysicalID: "x", Declared: tt.declared})
		if got.Status != live.Found {
			t.Fatalf("%s %v: %+v", tt.typ, tt.declared, got)
		}
		if diff := cmp.Diff(got.Model, tt.want); diff != "" {
			t.Errorf("%s model (-got +want):\n%s", tt.typ, diff)
		}
	}
	for _, d := range []map[string]any{
		{"HostedZoneId": zoneID, "Name": "gone.moto-r53.example.", "Type": "A"},
		{"HostedZoneId": zoneID, "Name": "api.moto-r53.example.", "Type": "CNAME", "SetIdentifier": "red"},
	} {
		if got := live.Read(cx, c, live.Request{Type: "AWS::Route53::RecordSet", PhysicalID: "x", Declared: d}); got.Status != live.NotFound {
			t.Errorf("%v: %+v, want notFound", d, got)
		}
	}
}
