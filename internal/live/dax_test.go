package live_test

import (
	"strings"
	"testing"

	"github.com/realdrift/realdrift/internal/live"
	"github.com/realdrift/realdrift/internal/sandbox"
)

const (
	daxCluster = `{"ClusterName":"app-dax","NodeType":"dax.t3.small","IAMRoleARN":"arn:aws:iam::111111111111:role/dax","PreferredMaintenanceWindow":"sun:04:00-sun:05:00",` +
		`"SubnetGroupName":"app-dax-subnets","ClusterEndpointEncryptionType":"TLS","SecurityGroupIds":["sg-0aaaaaaaaaaaaaaaa"],"ParameterGroupName":"app-dax-params",` +
		`"SSESpecification":{"SSEEnabled":true},"NotificationTopicARN":"arn:aws:sns:us-east-1:111111111111:dax","Tags":{"team":"data"}}`
	daxSubnets = `{"SubnetGroupName":"app-dax-subnets","Description":"dax subnets","SubnetIds":["subnet-0aaaaaaaaaaaaaaaa","subnet-0bbbbbbbbbbbbbbbb"]}`
	daxParams  = `{"ParameterGroupName":"app-dax-params","Description":"dax params","ParameterNameValues":{"query-ttl-millis":"75000","record-ttl-millis":"88000"}}`
)

func TestDAXRoundTrip(t *testing.T) {
	srv, url := serve(t, worldOf(
		liveOnly("AWS::DAX::Cluster", "app-dax", daxCluster),
		liveOnly("AWS::DAX::SubnetGroup", "app-dax-subnets", daxSubnets),
		liveOnly("AWS::DAX::ParameterGroup", "app-dax-params", daxParams),
	))
	c := live.NewClients(config(url))
	for _, tc := range []struct{ typ, id, model, path, value string }{
		{"AWS::DAX::Cluster", "app-dax", daxCluster, "NodeType", `"dax.r5.large"`},
		{"AWS::DAX::SubnetGroup", "app-dax-subnets", daxSubnets, "Description", `"changed"`},
		{"AWS::DAX::ParameterGroup", "app-dax-params", daxParams, "ParameterNameValues.query-ttl-millis", `"1"`},
	} {
		declared := declaredOf(t, tc.model)
		if tc.typ == "AWS::DAX::Cluster" {
			declared["ReplicationFactor"] = 3.0 // not read: a readGap, never drift
		}
		req := live.Request{Type: tc.typ, LogicalID: "R", PhysicalID: tc.id, Declared: declared}
		overrideRoundTrip(t, c, srv, region, req, tc.model, tc.id, tc.path, tc.value)
		if got := live.Read(ctx(t), c, live.Request{Type: tc.typ, PhysicalID: "gone"}); got.Status != live.NotFound {
			t.Errorf("%s gone: %+v, want notFound", tc.typ, got)
		}
	}
	if err := srv.SetFaults([]sandbox.FaultRule{{Service: "dax", Action: "ListTags", Code: "AccessDeniedException", Status: 400}}); err != nil {
		t.Fatal(err)
	}
	if got := live.Read(ctx(t), c, live.Request{Type: "AWS::DAX::Cluster", PhysicalID: "app-dax"}); got.Status != live.Skipped || !strings.HasPrefix(got.Reason, "DAX ListTags: AccessDeniedException") {
		t.Errorf("tags denied: %+v, want skipped", got)
	}
}
