package elasticloadbalancing

import "github.com/realdrift/realdrift/internal/sandbox/wire"
import "github.com/realdrift/realdrift/internal/sandbox/world"

func certificateArns(res *world.Resource) []string {
	var out []string
	if cs, ok := world.FieldValue(res, "Certificates").([]any); ok {
		for _, e := range cs {
			if m, ok := e.(map[string]any); ok {
				if a, _ := m["CertificateArn"].(string); a != "" {
					out = append(out, a)
				}
			}
		}
	}
	return out
}

// elbv2DescribeListenerCertificates lists a listener's certificates, at
// most PageSize (1-400, default 400) a page, with NextMarker.
func elbv2DescribeListenerCertificates(st *world.State, c *wire.Call) (any, error) {
	arn := c.Str("ListenerArn")
	if arn == "" {
		return nil, wire.Validation("1 validation error detected: Value null at 'listenerArn' failed to satisfy constraint: Member must not be null")
	}
	cur, err := wire.Paging{Prefix: "elb", Default: 400, Max: 400,
		BadSize: func(n string) error {
			return wire.Validation("1 validation error detected: Value '%s' at 'pageSize' failed to satisfy constraint: Member must have value between 1 and 400", n)
		},
		BadToken: wire.Validation("Invalid Marker")}.StartText(c, c.Str("PageSize"), c.Str("Marker"))
	if err != nil {
		return nil, err
	}
	st.RLock()
	defer st.RUnlock()
	found := false
	type cert struct {
		arn string
		def bool
	}
	var certs []cert
	seen := map[string]bool{}
	for _, l := range st.OfType(c.Account, c.Region, "AWS::ElasticLoadBalancingV2::Listener") {
		id := world.FieldString(l, "ListenerArn")
		if id == "" {
			id = l.CCID()
		}
		if id != arn {
			continue
		}
		found = true
		for _, a := range certificateArns(l) {
			if !seen[a] {
				seen[a] = true
				certs = append(certs, cert{a, true})
			}
		}
	}
	for _, lc := range st.OfType(c.Account, c.Region, "AWS::ElasticLoadBalancingV2::ListenerCertificate") {
		if world.FieldString(lc, "ListenerArn") != arn {
			continue
		}
		found = true
		for _, a := range certificateArns(lc) {
			if !seen[a] {
				seen[a] = true
				certs = append(certs, cert{a, false})
			}
		}
	}
	if !found {
		return nil, wire.Errf(400, "ListenerNotFound", "One or more listeners not found")
	}
	var nodes []*wire.Node
	for _, ct := range certs {
		nodes = append(nodes, wire.El("", wire.Tx("CertificateArn", ct.arn), wire.Bool("IsDefault", ct.def)))
	}
	lo, hi, next := cur.Cut(len(nodes))
	out := wire.El("", wire.Members("Certificates", nodes[lo:hi]))
	if next != "" {
		out.Kids = append(out.Kids, wire.Tx("NextMarker", next))
	}
	return out, nil
}
