package live

import (
	"context"
	"fmt"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/ec2"
	ec2types "github.com/aws/aws-sdk-go-v2/service/ec2/types"

	"github.com/realdrift/realdrift/internal/drift"
)

// The EC2 Client VPN family (Cloud Control cannot read it in full):
// AWS::EC2::ClientVpnEndpoint through DescribeClientVpnEndpoints by its id
// (the physical id); AWS::EC2::ClientVpnTargetNetworkAssociation through
// DescribeClientVpnTargetNetworks of the declared endpoint by its
// association id; AWS::EC2::ClientVpnAuthorizationRule through
// DescribeClientVpnAuthorizationRules of the declared endpoint, paged, the
// rule whose destination CIDR and group (or all groups) are the declared
// ones. In the template's shape: a mutual authentication's
// clientRootCertificateChain is ClientRootCertificateChainArn, a federated
// one's SamlProviderArn / SelfServiceSamlProviderArn are SAMLProviderArn /
// SelfServiceSAMLProviderArn, a target network is the SubnetId. The client
// connect, login banner and route enforcement options are read when they
// are declared or enabled (AWS answers them disabled otherwise). Not read:
// TagSpecifications (the API's tags are not in that shape) and
// SelfServicePortal (AWS answers only its URL) — readGaps.

type clientVpnAPI interface {
	ec2.DescribeClientVpnEndpointsAPIClient
	ec2.DescribeClientVpnTargetNetworksAPIClient
	ec2.DescribeClientVpnAuthorizationRulesAPIClient
}

// clientVpnEndpointProps are the endpoint fields read, under their own
// (the template's) names.
var clientVpnEndpointProps = fieldsAs("ClientCidrBlock", "SplitTunnel", "TransportProtocol", "VpnPort", "ServerCertificateArn", "SecurityGroupIds",
	"VpcId", "SessionTimeoutHours", "DisconnectOnSessionTimeout", "ConnectionLogOptions", "AuthenticationOptions", "Description", "DnsServers",
	"ClientConnectOptions", "ClientLoginBannerOptions", "ClientRouteEnforcementOptions")

// clientVpnOptional are the option objects read only when declared or
// switched on, by the flag that switches them.
var clientVpnOptional = map[string]string{"ClientConnectOptions": "Enabled", "ClientLoginBannerOptions": "Enabled", "ClientRouteEnforcementOptions": "Enforced"}

// readClientVpnEndpoint reads AWS::EC2::ClientVpnEndpoint.
func readClientVpnEndpoint(ctx context.Context, c *Clients, r Request) (map[string]any, error) {
	if c.EC2 == nil {
		return nil, skip("no EC2 client")
	}
	out, err := c.EC2.DescribeClientVpnEndpoints(ctx, &ec2.DescribeClientVpnEndpointsInput{ClientVpnEndpointIds: []string{r.PhysicalID}})
	if err != nil {
		return nil, err
	}
	for _, e := range out.ClientVpnEndpoints {
		if aws.ToString(e.ClientVpnEndpointId) != r.PhysicalID {
			continue
		}
		if e.Status != nil && (e.Status.Code == ec2types.ClientVpnEndpointStatusCodeDeleted || e.Status.Code == ec2types.ClientVpnEndpointStatusCodeDeleting) {
			break
		}
		m := pickKeys(sdkModel(e), clientVpnEndpointProps)
		for _, a := range objectsAt(m, "AuthenticationOptions") {
			renameKey(objectAt(a, "MutualAuthentication"), "ClientRootCertificateChain", "ClientRootCertificateChainArn")
			renameKey(objectAt(a, "FederatedAuthentication"), "SamlProviderArn", "SAMLProviderArn")
			renameKey(objectAt(a, "FederatedAuthentication"), "SelfServiceSamlProviderArn", "SelfServiceSAMLProviderArn")
		}
		dropKeys(objectAt(m, "ClientConnectOptions"), "Status")
		for prop, flag := range clientVpnOptional {
			if _, declared := r.Declared[prop]; !declared && objectAt(m, prop)[flag] != true {
				delete(m, prop)
			}
		}
		if l, ok := m["DnsServers"].([]any); ok && len(l) == 0 {
			delete(m, "DnsServers")
		}
		return m, nil
	}
	return nil, fmt.Errorf("Client VPN endpoint %s: %w", r.PhysicalID, ErrNotFound)
}

// readClientVpnTargetNetworkAssociation reads
// AWS::EC2::ClientVpnTargetNetworkAssociation: {ClientVpnEndpointId,
// SubnetId}.
func readClientVpnTargetNetworkAssociation(ctx context.Context, c *Clients, r Request) (map[string]any, error) {
	if c.EC2 == nil {
		return nil, skip("no EC2 client")
	}
	ep, err := declaredString(r.Declared, "ClientVpnEndpointId")
	if err != nil {
		return nil, err
	}
	p := ec2.NewDescribeClientVpnTargetNetworksPaginator(c.EC2, &ec2.DescribeClientVpnTargetNetworksInput{ClientVpnEndpointId: &ep, AssociationIds: []string{r.PhysicalID}})
	for p.HasMorePages() {
		out, err := p.NextPage(ctx)
		if err != nil {
			return nil, err
		}
		for _, n := range out.ClientVpnTargetNetworks {
			if aws.ToString(n.AssociationId) != r.PhysicalID {
				continue
			}
			if n.Status != nil && (n.Status.Code == ec2types.AssociationStatusCodeDisassociated || n.Status.Code == ec2types.AssociationStatusCodeDisassociating) {
				continue
			}
			return map[string]any{"ClientVpnEndpointId": ep, "SubnetId": aws.ToString(n.TargetNetworkId)}, nil
		}
	}
	return nil, fmt.Errorf("Client VPN target network association %s: %w", r.PhysicalID, ErrNotFound)
}

// readClientVpnAuthorizationRule reads AWS::EC2::ClientVpnAuthorizationRule:
// {ClientVpnEndpointId, TargetNetworkCidr, AccessGroupId or
// AuthorizeAllGroups, Description}. A rule is known by its endpoint, CIDR
// and group: the declared ones name it.
func readClientVpnAuthorizationRule(ctx context.Context, c *Clients, r Request) (map[string]any, error) {
	if c.EC2 == nil {
		return nil, skip("no EC2 client")
	}
	ep, err := declaredString(r.Declared, "ClientVpnEndpointId")
	if err != nil {
		return nil, err
	}
	cidr, err := declaredString(r.Declared, "TargetNetworkCidr")
	if err != nil {
		return nil, err
	}
	group := ""
	if _, ok := r.Declared["AccessGroupId"]; ok {
		if group, err = declaredString(r.Declared, "AccessGroupId"); err != nil {
			return nil, err
		}
	}
	if drift.ContainsUnknown(r.Declared["AuthorizeAllGroups"]) {
		return nil, waiting("AuthorizeAllGroups")
	}
	p := ec2.NewDescribeClientVpnAuthorizationRulesPaginator(c.EC2, &ec2.DescribeClientVpnAuthorizationRulesInput{ClientVpnEndpointId: &ep,
		Filters: []ec2types.Filter{{Name: aws.String("destination-cidr"), Values: []string{cidr}}}})
	for p.HasMorePages() {
		out, err := p.NextPage(ctx)
		if err != nil {
			return nil, err
		}
		for _, a := range out.AuthorizationRules {
			if aws.ToString(a.DestinationCidr) != cidr || aws.ToString(a.GroupId) != group {
				continue
			}
			if a.Status != nil && (a.Status.Code == ec2types.ClientVpnAuthorizationRuleStatusCodeRevoking) {
				continue
			}
			m := map[string]any{"ClientVpnEndpointId": ep, "TargetNetworkCidr": cidr}
			if group != "" {
				m["AccessGroupId"] = group
			}
			if aws.ToBool(a.AccessAll) || r.Declared["AuthorizeAllGroups"] != nil {
				m["AuthorizeAllGroups"] = aws.ToBool(a.AccessAll)
			}
			if d := aws.ToString(a.Description); d != "" {
				m["Description"] = d
			}
			return m, nil
		}
	}
	return nil, fmt.Errorf("Client VPN authorization rule %s on %s: %w", cidr, ep, ErrNotFound)
}
