package live_test

import (
	"strings"
	"testing"

	"github.com/realdrift/realdrift/internal/live"
	"github.com/realdrift/realdrift/internal/sandbox"
)

const (
	dmsEndpointArn = "arn:aws:dms:us-east-1:111111111111:endpoint:SRCENDPOINT"
	dmsTargetArn   = "arn:aws:dms:us-east-1:111111111111:endpoint:TGTENDPOINT"
	dmsInstanceArn = "arn:aws:dms:us-east-1:111111111111:rep:REPINSTANCE"
	dmsTaskArn     = "arn:aws:dms:us-east-1:111111111111:task:REPTASK"

	dmsEndpoint = `{"EndpointIdentifier":"orders-src","EndpointType":"SOURCE","EngineName":"mysql","Username":"orders","ServerName":"db.example.invalid",` +
		`"Port":3306,"SslMode":"none","Tags":[{"Key":"team","Value":"data"}]}`
	dmsInstance = `{"ReplicationInstanceIdentifier":"orders-rep","ReplicationInstanceClass":"dms.t3.medium","AllocatedStorage":50,"AutoMinorVersionUpgrade":true,` +
		`"MultiAZ":false,"PubliclyAccessible":false,"EngineVersion":"3.5.3","ReplicationSubnetGroupIdentifier":"orders-subnets","VpcSecurityGroupIds":["sg-0aaaaaaaaaaaaaaaa"]}`
	dmsSubnets = `{"ReplicationSubnetGroupIdentifier":"orders-subnets","ReplicationSubnetGroupDescription":"dms subnets",` +
		`"SubnetIds":["subnet-0aaaaaaaaaaaaaaaa","subnet-0bbbbbbbbbbbbbbbb"],"Tags":[{"Key":"team","Value":"data"}]}`
	dmsTask = `{"ReplicationTaskIdentifier":"orders-copy","SourceEndpointArn":"` + dmsEndpointArn + `","TargetEndpointArn":"` + dmsTargetArn + `",` +
		`"ReplicationInstanceArn":"` + dmsInstanceArn + `","MigrationType":"full-load",` +
		`"TableMappings":"{\"rules\":[{\"rule-type\":\"selection\",\"rule-id\":\"1\",\"rule-name\":\"1\",\"object-locator\":{\"schema-name\":\"orders\",\"table-name\":\"%\"},\"rule-action\":\"include\"}]}"}`
)

// moto 5.2.1 serves DMS endpoints and subnet groups, not instances and
// tasks the SDK can parse: see TestMotoDMS.
func TestDMSRoundTrip(t *testing.T) {
	endpoint := strings.Replace(dmsEndpoint, `"Port"`, `"Password":"hunter2-never-read","Port"`, 1)
	srv, url := serve(t, worldOf(
		liveOnly("AWS::DMS::Endpoint", dmsEndpointArn, endpoint),
		liveOnly("AWS::DMS::ReplicationInstance", dmsInstanceArn, dmsInstance),
		liveOnly("AWS::DMS::ReplicationSubnetGroup", "orders-subnets", dmsSubnets),
		liveOnly("AWS::DMS::ReplicationTask", dmsTaskArn, dmsTask),
	))
	c := live.NewClients(config(url))
	for _, tc := range []struct{ typ, id, model, path, value string }{
		{"AWS::DMS::Endpoint", dmsEndpointArn, dmsEndpoint, "Port", `3307`},
		{"AWS::DMS::ReplicationInstance", dmsInstanceArn, dmsInstance, "ReplicationInstanceClass", `"dms.r5.large"`},
		{"AWS::DMS::ReplicationSubnetGroup", "orders-subnets", dmsSubnets, "ReplicationSubnetGroupDescription", `"changed"`},
		{"AWS::DMS::ReplicationTask", dmsTaskArn, dmsTask, "MigrationType", `"full-load-and-cdc"`},
	} {
		declared := declaredOf(t, tc.model)
		if tc.typ == "AWS::DMS::Endpoint" {
			declared["Password"] = "hunter2-never-read" // never read: a readGap, never drift
		}
		req := live.Request{Type: tc.typ, LogicalID: "R", PhysicalID: tc.id, Declared: declared}
		overrideRoundTrip(t, c, srv, region, req, tc.model, tc.id, tc.path, tc.value)
		if got := live.Read(ctx(t), c, live.Request{Type: tc.typ, PhysicalID: tc.id + "GONE"}); got.Status != live.NotFound {
			t.Errorf("%s gone: %+v, want notFound", tc.typ, got)
		}
	}
	// The task's table mappings as declared in another layout are the
	// same JSON: the declared text stands.
	declared := declaredOf(t, dmsTask)
	text := strings.ReplaceAll(declared["TableMappings"].(string), `,"`, `, "`)
	declared["TableMappings"] = text
	req := live.Request{Type: "AWS::DMS::ReplicationTask", PhysicalID: dmsTaskArn, Declared: declared}
	if got := live.Read(ctx(t), c, req); got.Model["TableMappings"] != text {
		t.Errorf("table mappings %q, want the declared text %q", got.Model["TableMappings"], text)
	}
	if err := srv.SetFaults([]sandbox.FaultRule{{Service: "dms", Action: "ListTagsForResource", Code: "AccessDeniedFault", Status: 400}}); err != nil {
		t.Fatal(err)
	}
	if got := live.Read(ctx(t), c, live.Request{Type: "AWS::DMS::Endpoint", PhysicalID: dmsEndpointArn}); got.Status != live.Skipped || !strings.HasPrefix(got.Reason, "Database Migration Service ListTagsForResource: AccessDeniedFault") {
		t.Errorf("tags denied: %+v, want skipped", got)
	}
}
