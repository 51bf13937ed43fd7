package live_test

import (
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	dms "github.com/aws/aws-sdk-go-v2/service/databasemigrationservice"
	dmstypes "github.com/aws/aws-sdk-go-v2/service/databasemigrationservice/types"
	"github.com/google/go-cmp/cmp"

	"github.com/realdrift/realdrift/internal/live"
)

// TestMotoDMS: an endpoint (with a password, never read) and a replication
// subnet group created in moto through the SDK, read back by the readers.
// moto 5.2.1 answers CreateReplicationInstance and CreateReplicationTask
// (and their Describe calls) with timestamps the SDK cannot parse ("unexpected
// string value for float"), and a subnet group's subnets as a fixed
// subnet-12345 without its tags: the instance and task readers, the subnet
// ids and subnet group tags are checked against the sandbox only.
func TestMotoDMS(t *testing.T) {
	cfg := motoConfig(t)
	cx := ctx(t)
	d := dms.NewFromConfig(cfg)
	src, err := d.CreateEndpoint(cx, &dms.CreateEndpointInput{EndpointIdentifier: aws.String("moto-src"), EndpointType: dmstypes.ReplicationEndpointTypeValueSource,
		EngineName: aws.String("mysql"), Username: aws.String("orders"), Password: aws.String("hunter2-never-read"), ServerName: aws.String("db.example.invalid"),
		Port: aws.Int32(3306), Tags: []dmstypes.Tag{{Key: aws.String("team"), Value: aws.String("data")}}})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := d.CreateReplicationSubnetGroup(cx, &dms.CreateReplicationSubnetGroupInput{ReplicationSubnetGroupIdentifier: aws.String("moto-subnets"),
		ReplicationSubnetGroupDescription: aws.String("dms subnets"), SubnetIds: []string{"subnet-0aaaaaaaaaaaaaaaa"}}); err != nil {
		t.Fatal(err)
	}
	c := live.NewClients(cfg)
	got := live.Read(cx, c, live.Request{Type: "AWS::DMS::Endpoint", PhysicalID: aws.ToString(src.Endpoint.EndpointArn)})
	want := map[string]any{"EndpointIdentifier": "moto-src", "EndpointType": "source", "EngineName": "mysql", "Port": 3306.0, "ServerName": "db.example.invalid",
		"Username": "orders", "Tags": []any{map[string]any{"Key": "team", "Value": "data"}}}
	if got.Status != live.Found {
		t.Fatalf("endpoint: %+v", got)
	}
	if diff := cmp.Diff(got.Model, want); diff != "" {
		t.Errorf("endpoint (-got +want):\n%s", diff)
	}
	got = live.Read(cx, c, live.Request{Type: "AWS::DMS::ReplicationSubnetGroup", PhysicalID: "moto-subnets"})
	if got.Status != live.Found || got.Model["ReplicationSubnetGroupIdentifier"] != "moto-subnets" || got.Model["ReplicationSubnetGroupDescription"] != "dms subnets" {
		t.Errorf("subnet group: %+v", got)
	}
	for _, r := range []live.Request{{Type: "AWS::DMS::Endpoint", PhysicalID: "arn:aws:dms:us-east-1:123456789012:endpoint:NOPE"}, {Type: "AWS::DMS::ReplicationSubnetGroup", PhysicalID: "nope"}} {
		if got := live.Read(cx, c, r); got.Status != live.NotFound {
			t.Errorf("%s missing: %+v, want notFound", r.Type, got)
		}
	}
}
