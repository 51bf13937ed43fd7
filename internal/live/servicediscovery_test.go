package live_test

import (
	"strings"
	"testing"

	"github.com/realdrift/realdrift/internal/live"
	"github.com/realdrift/realdrift/internal/sandbox"
)

const (
	httpNS = `{"Name":"app","Description":"app services","Id":"ns-http00000000001","Arn":"arn:aws:servicediscovery:us-east-1:111111111111:namespace/ns-http00000000001","Tags":[{"Key":"team","Value":"web"}]}`
	dnsNS  = `{"Name":"app.internal","Id":"ns-dns000000000001","Arn":"arn:aws:servicediscovery:us-east-1:111111111111:namespace/ns-dns000000000001","HostedZoneId":"Z0PRIVATE00000001","Properties":{"DnsProperties":{"SOA":{"TTL":60}}}}`
	mapSvc = `{"Name":"api","Description":"the api","NamespaceId":"ns-dns000000000001","Id":"srv-000000000000001","Arn":"arn:aws:servicediscovery:us-east-1:111111111111:service/srv-000000000000001",` +
		`"Type":"DNS_HTTP","DnsConfig":{"RoutingPolicy":"MULTIVALUE","DnsRecords":[{"Type":"A","TTL":60}]},"HealthCheckCustomConfig":{"FailureThreshold":1},"Tags":[{"Key":"team","Value":"web"}]}`
)

func TestCloudMapRoundTrip(t *testing.T) {
	srv, url := serve(t, worldOf(
		liveOnly("AWS::ServiceDiscovery::HttpNamespace", "ns-http00000000001", httpNS),
		liveOnly("AWS::ServiceDiscovery::PrivateDnsNamespace", "ns-dns000000000001", dnsNS),
		liveOnly("AWS::ServiceDiscovery::Service", "srv-000000000000001", mapSvc),
	))
	c := live.NewClients(config(url))
	for _, tc := range []struct{ typ, id, model, path, value string }{
		{"AWS::ServiceDiscovery::HttpNamespace", "ns-http00000000001", httpNS, "Description", `"changed"`},
		{"AWS::ServiceDiscovery::PrivateDnsNamespace", "ns-dns000000000001", dnsNS, "Properties.DnsProperties.SOA.TTL", `300`},
		{"AWS::ServiceDiscovery::Service", "srv-000000000000001", mapSvc, "DnsConfig.DnsRecords.0.TTL", `10`},
	} {
		declared := declaredOf(t, tc.model)
		if tc.typ == "AWS::ServiceDiscovery::PrivateDnsNamespace" {
			declared["Vpc"] = "vpc-0123456789abcdef0" // not readable: a readGap
		}
		req := live.Request{Type: tc.typ, LogicalID: "R", PhysicalID: tc.id, Declared: declared}
		overrideRoundTrip(t, c, srv, region, req, tc.model, tc.id, tc.path, tc.value)
		if got := live.Read(ctx(t), c, live.Request{Type: tc.typ, PhysicalID: tc.id + "9"}); got.Status != live.NotFound {
			t.Errorf("%s gone: %+v, want notFound", tc.typ, got)
		}
	}
	if err := srv.SetFaults([]sandbox.FaultRule{{Service: "servicediscovery", Action: "ListTagsForResource", Code: "AccessDeniedException", Status: 400}}); err != nil {
		t.Fatal(err)
	}
	if got := live.Read(ctx(t), c, live.Request{Type: "AWS::ServiceDiscovery::Service", PhysicalID: "srv-000000000000001"}); got.Status != live.Skipped || !strings.HasPrefix(got.Reason, "ServiceDiscovery ListTagsForResource: AccessDeniedException") {
		t.Errorf("tags denied: %+v, want skipped (unread tags are never removed tags)", got)
	}
}
