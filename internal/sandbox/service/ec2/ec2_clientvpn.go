package ec2

import (
	"encoding/json"
	"strings"

	"github.com/realdrift/realdrift/internal/sandbox/wire"
	"github.com/realdrift/realdrift/internal/sandbox/world"
)

// EC2 Client VPN (the EC2 query protocol): DescribeClientVpnEndpoints lists
// the world's AWS::EC2::ClientVpnEndpoint models (ClientVpnEndpointId.N,
// filters endpoint-id and transport-protocol, MaxResults 5-1000 and
// NextToken) with what each holds under the API's camelCase names —
// securityGroupIdSet, dnsServer, authenticationOptions whose mutual
// authentication is clientRootCertificateChain and whose federated one is
// samlProviderArn / selfServiceSamlProviderArn, connectionLogOptions with
// its PascalCase members; DescribeClientVpnTargetNetworks lists an
// endpoint's AWS::EC2::ClientVpnTargetNetworkAssociation models
// (targetNetworkId is the SubnetId) and DescribeClientVpnAuthorizationRules
// its AWS::EC2::ClientVpnAuthorizationRule models (destinationCidr, groupId,
// accessAll), both paged the same way. An unknown endpoint is
// InvalidClientVpnEndpointId.NotFound.

// clientVpnEndpoints returns the endpoint models by id.
func clientVpnEndpoints(st *world.State, c *wire.Call) map[string]*world.Resource {
	out := map[string]*world.Resource{}
	for _, r := range st.OfType(c.Account, c.Region, "AWS::EC2::ClientVpnEndpoint") {
		out[r.CCID()] = r
	}
	return out
}

func noClientVpnEndpoint(id string) error {
	return wire.Errf(400, "InvalidClientVpnEndpointId.NotFound", "The Client VPN endpoint ID '%s' does not exist", id)
}

// clientVpnXML renders a template-shaped value as EC2 XML under name: objects
// by their keys renamed, lists as <item>s.
func clientVpnXML(name string, v any, renames map[string]string) *wire.Node {
	switch t := v.(type) {
	case map[string]any:
		n := &wire.Node{Name: name}
		for _, k := range world.SortedKeys(t) {
			kn, ok := renames[k]
			if !ok {
				kn = strings.ToLower(k[:1]) + k[1:]
			}
			if kid := clientVpnXML(kn, t[k], renames); kid != nil {
				n.Kids = append(n.Kids, kid)
			}
		}
		return n
	case []any:
		n := &wire.Node{Name: name}
		for _, e := range t {
			if kid := clientVpnXML("item", e, renames); kid != nil {
				n.Kids = append(n.Kids, kid)
			}
		}
		return n
	case string:
		return wire.Tx(name, t)
	case json.Number:
		return wire.Tx(name, t.String())
	case bool:
		return wire.Bool(name, t)
	}
	return nil
}

// clientVpnRenames are the template names whose API element is not the
// camelCase form.
var clientVpnRenames = map[string]string{
	"SecurityGroupIds": "securityGroupIdSet", "DnsServers": "dnsServer", "ClientRootCertificateChainArn": "clientRootCertificateChain",
	"SAMLProviderArn": "samlProviderArn", "SelfServiceSAMLProviderArn": "selfServiceSamlProviderArn",
}

func ec2DescribeClientVpnEndpoints(st *world.State, c *wire.Call) (any, error) {
	st.RLock()
	defer st.RUnlock()
	var objs []ec2Object
	for id, r := range clientVpnEndpoints(st, c) {
		m, err := world.FieldObject(r)
		if err != nil {
			return nil, err
		}
		delete(m, "TagSpecifications")
		n := wire.El("", wire.Tx("clientVpnEndpointId", id), wire.El("status", wire.Tx("code", "available")), wire.Tx("vpnProtocol", "openvpn"))
		for _, k := range world.SortedKeys(m) {
			kn, ok := clientVpnRenames[k]
			if !ok {
				kn = strings.ToLower(k[:1]) + k[1:]
			}
			if k == "ConnectionLogOptions" {
				// The API's connection log members are PascalCase.
				if o, ok := m[k].(map[string]any); ok {
					n.Kids = append(n.Kids, wire.ValueXML("connectionLogOptions", o))
				}
				continue
			}
			if x := clientVpnXML(kn, m[k], clientVpnRenames); x != nil {
				n.Kids = append(n.Kids, x)
			}
		}
		tp, _ := m["TransportProtocol"].(string)
		objs = append(objs, ec2Object{id: id, values: map[string][]string{"endpoint-id": {id}, "transport-protocol": {tp}}, node: n})
	}
	return ec2Describe(c, "clientVpnEndpoint", "ClientVpnEndpointId", "InvalidClientVpnEndpointId.NotFound", "Client VPN endpoint",
		map[string]bool{"endpoint-id": true, "transport-protocol": true}, objs)
}

// clientVpnChildren returns the models of typ under the endpoint the call
// names, or the endpoint's not-found error.
func clientVpnChildren(st *world.State, c *wire.Call, typ string) (string, []*world.Resource, error) {
	ep := c.Str("ClientVpnEndpointId")
	if clientVpnEndpoints(st, c)[ep] == nil {
		return "", nil, noClientVpnEndpoint(ep)
	}
	var out []*world.Resource
	for _, r := range st.OfType(c.Account, c.Region, typ) {
		if world.FieldString(r, "ClientVpnEndpointId") == ep {
			out = append(out, r)
		}
	}
	return ep, out, nil
}

// ec2Paging is how EC2's lists page: MaxResults 5-1000 (default 1000),
// NextToken.
func ec2Paging(c *wire.Call) (wire.Cursor, error) {
	return wire.Paging{Prefix: "ec2", Default: 1000, Min: 5, Max: 1000,
		BadSize: func(n string) error {
			return wire.Errf(400, "InvalidParameterValue", "Value ( %s ) for parameter maxResults is invalid. Expecting a value between 5 and 1000.", n)
		},
		BadToken: wire.Errf(400, "InvalidPaginationToken", "Invalid pagination token")}.StartText(c, c.Str("MaxResults"), c.Str("NextToken"))
}

// ec2Page pages already filtered EC2 items (ec2Paging).
func ec2Page(c *wire.Call, setName string, kept []*wire.Node) (any, error) {
	cur, err := ec2Paging(c)
	if err != nil {
		return nil, err
	}
	lo, hi, next := cur.Cut(len(kept))
	out := wire.El("", items(setName, kept[lo:hi]))
	if next != "" {
		out.Kids = append(out.Kids, wire.Tx("nextToken", next))
	}
	return out, nil
}

func ec2DescribeClientVpnTargetNetworks(st *world.State, c *wire.Call) (any, error) {
	st.RLock()
	defer st.RUnlock()
	ep, rs, err := clientVpnChildren(st, c, "AWS::EC2::ClientVpnTargetNetworkAssociation")
	if err != nil {
		return nil, err
	}
	ids := ec2List(c, "AssociationIds")
	var kept []*wire.Node
	for _, r := range world.SortedByID(rs) {
		id := r.CCID()
		if len(ids) > 0 && !world.Contains(ids, id) {
			continue
		}
		kept = append(kept, wire.El("", wire.Tx("associationId", id), wire.Tx("clientVpnEndpointId", ep), wire.Tx("targetNetworkId", world.FieldString(r, "SubnetId")),
			wire.El("status", wire.Tx("code", "associated"))))
	}
	return ec2Page(c, "clientVpnTargetNetworks", kept)
}

func ec2DescribeClientVpnAuthorizationRules(st *world.State, c *wire.Call) (any, error) {
	st.RLock()
	defer st.RUnlock()
	ep, rs, err := clientVpnChildren(st, c, "AWS::EC2::ClientVpnAuthorizationRule")
	if err != nil {
		return nil, err
	}
	filters := ec2Filters(c)
	for name := range filters {
		if name != "destination-cidr" && name != "group-id" && name != "description" {
			return nil, wire.Errf(400, "InvalidParameterValue", "The filter '%s' is invalid", name)
		}
	}
	var kept []*wire.Node
	for _, r := range world.SortedByID(rs) {
		cidr, group, desc := world.FieldString(r, "TargetNetworkCidr"), world.FieldString(r, "AccessGroupId"), world.FieldString(r, "Description")
		values := map[string]string{"destination-cidr": cidr, "group-id": group, "description": desc}
		match := true
		for name, want := range filters {
			match = match && world.Contains(want, values[name])
		}
		if !match {
			continue
		}
		all, _ := world.FieldValue(r, "AuthorizeAllGroups").(bool)
		kept = append(kept, wire.El("", wire.Tx("clientVpnEndpointId", ep), wire.Opt("description", desc), wire.Opt("groupId", group), wire.Bool("accessAll", all),
			wire.Tx("destinationCidr", cidr), wire.El("status", wire.Tx("code", "active"))))
	}
	return ec2Page(c, "authorizationRule", kept)
}
