package live_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/realdrift/realdrift/internal/live"
	"github.com/realdrift/realdrift/internal/sandbox"
)

const (
	cvpnID       = "cvpn-endpoint-0aaaaaaaaaaaaaaaa"
	cvpnEndpoint = `{"ClientCidrBlock":"10.100.0.0/22","SplitTunnel":false,"TransportProtocol":"udp","VpnPort":443,` +
		`"ServerCertificateArn":"arn:aws:acm:us-east-1:111111111111:certificate/server","SecurityGroupIds":["sg-0aaaaaaaaaaaaaaaa"],"VpcId":"vpc-0aaaaaaaaaaaaaaaa",` +
		`"SessionTimeoutHours":24,"DisconnectOnSessionTimeout":true,"Description":"staff vpn","DnsServers":["10.0.0.2"],` +
		`"ConnectionLogOptions":{"Enabled":true,"CloudwatchLogGroup":"vpn-logs"},` +
		`"AuthenticationOptions":[{"Type":"certificate-authentication","MutualAuthentication":{"ClientRootCertificateChainArn":"arn:aws:acm:us-east-1:111111111111:certificate/root"}},` +
		`{"Type":"federated-authentication","FederatedAuthentication":{"SAMLProviderArn":"arn:aws:iam::111111111111:saml-provider/idp"}}],` +
		`"ClientLoginBannerOptions":{"Enabled":true,"BannerText":"authorised use only"}}`
	cvpnAssoc = `{"ClientVpnEndpointId":"` + cvpnID + `","SubnetId":"subnet-0aaaaaaaaaaaaaaaa"}`
	cvpnRule  = `{"ClientVpnEndpointId":"` + cvpnID + `","TargetNetworkCidr":"10.0.0.0/16","AccessGroupId":"engineers","Description":"engineers to the VPC"}`
)

// moto 5.2.1 has no Client VPN (CreateClientVpnEndpoint answers a 500
// that is not an EC2 error): the readers are checked against the sandbox
// and the AWS CLI check only.
func TestClientVpnRoundTrip(t *testing.T) {
	rs := []*sandbox.Resource{
		liveOnly("AWS::EC2::ClientVpnEndpoint", cvpnID, cvpnEndpoint),
		liveOnly("AWS::EC2::ClientVpnTargetNetworkAssociation", "cvpn-assoc-0aaaaaaaaaaaaaaaa", cvpnAssoc),
		liveOnly("AWS::EC2::ClientVpnAuthorizationRule", "Stack-Rule-1", cvpnRule),
	}
	// Rules of other groups on the same CIDR, and enough of them that the
	// declared one is on a later page of 1000.
	for i := 0; i < 1005; i++ {
		rs = append(rs, liveOnly("AWS::EC2::ClientVpnAuthorizationRule", fmt.Sprintf("Stack-Other-%04d", i),
			fmt.Sprintf(`{"ClientVpnEndpointId":"%s","TargetNetworkCidr":"10.0.0.0/16","AccessGroupId":"g%04d"}`, cvpnID, i)))
	}
	srv, url := serve(t, worldOf(rs...))
	c := live.NewClients(config(url))
	for _, tc := range []struct{ typ, id, model, path, value string }{
		{"AWS::EC2::ClientVpnEndpoint", cvpnID, cvpnEndpoint, "SplitTunnel", `true`},
		{"AWS::EC2::ClientVpnTargetNetworkAssociation", "cvpn-assoc-0aaaaaaaaaaaaaaaa", cvpnAssoc, "SubnetId", `"subnet-0bbbbbbbbbbbbbbbb"`},
		{"AWS::EC2::ClientVpnAuthorizationRule", "Stack-Rule-1", cvpnRule, "Description", `"changed"`},
	} {
		req := live.Request{Type: tc.typ, LogicalID: "R", PhysicalID: tc.id, Declared: declaredOf(t, tc.model)}
		overrideRoundTrip(t, c, srv, region, req, tc.model, tc.id, tc.path, tc.value)
	}
	for _, r := range []live.Request{
		{Type: "AWS::EC2::ClientVpnEndpoint", PhysicalID: "cvpn-endpoint-0ffffffffffffffff"},
		{Type: "AWS::EC2::ClientVpnTargetNetworkAssociation", PhysicalID: "cvpn-assoc-0ffffffffffffffff", Declared: declaredOf(t, cvpnAssoc)},
		{Type: "AWS::EC2::ClientVpnTargetNetworkAssociation", PhysicalID: "cvpn-assoc-0aaaaaaaaaaaaaaaa", Declared: map[string]any{"ClientVpnEndpointId": "cvpn-endpoint-0ffffffffffffffff"}},
		{Type: "AWS::EC2::ClientVpnAuthorizationRule", PhysicalID: "Stack-Rule-9", Declared: map[string]any{"ClientVpnEndpointId": cvpnID, "TargetNetworkCidr": "10.0.0.0/16", "AccessGroupId": "nobody"}},
	} {
		if got := live.Read(ctx(t), c, r); got.Status != live.NotFound {
			t.Errorf("%s %s gone: %+v, want notFound", r.Type, r.PhysicalID, got)
		}
	}
	if err := srv.SetFaults([]sandbox.FaultRule{{Service: "ec2", Action: "DescribeClientVpnEndpoints", Code: "UnauthorizedOperation", Status: 403}}); err != nil {
		t.Fatal(err)
	}
	if got := live.Read(ctx(t), c, live.Request{Type: "AWS::EC2::ClientVpnEndpoint", PhysicalID: cvpnID}); got.Status != live.Skipped || !strings.HasPrefix(got.Reason, "EC2 DescribeClientVpnEndpoints: UnauthorizedOperation") {
		t.Errorf("denied: %+v, want skipped", got)
	}
}
