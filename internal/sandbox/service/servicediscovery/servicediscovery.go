package servicediscovery

import "github.com/realdrift/realdrift/internal/sandbox/world"
import "github.com/realdrift/realdrift/internal/sandbox/wire"
import "strings"

// cloudMapNamespaceTypes maps the namespace resource types to the API's
// namespace types.
var cloudMapNamespaceTypes = map[string]string{
	"AWS::ServiceDiscovery::HttpNamespace":       "HTTP",
	"AWS::ServiceDiscovery::PrivateDnsNamespace": "DNS_PRIVATE",
	"AWS::ServiceDiscovery::PublicDnsNamespace":  "DNS_PUBLIC",
}

// cloudMapFind finds a model of one of types by id.
func cloudMapFind(st *world.State, c *wire.Call, id string, types ...string) *world.Resource {
	for _, t := range types {
		if r := st.Resource(c.Account, c.Region, t, id); r != nil {
			return r
		}
		for _, r := range st.OfType(c.Account, c.Region, t) {
			if world.FieldString(r, "Id") == id {
				return r
			}
		}
	}
	return nil
}

func cloudMapID(st *world.State, c *wire.Call) (string, error) {
	var in struct{ Id string }
	if err := c.Decode(&in); err != nil {
		return "", err
	}
	if in.Id == "" {
		return "", wire.Errf(400, "InvalidInput", "Id is required")
	}
	return in.Id, nil
}

func cloudMapGetNamespace(st *world.State, c *wire.Call) (any, error) {
	id, err := cloudMapID(st, c)
	if err != nil {
		return nil, err
	}
	st.RLock()
	defer st.RUnlock()
	var ns *world.Resource
	for t := range cloudMapNamespaceTypes {
		if ns == nil {
			ns = cloudMapFind(st, c, id, t)
		}
	}
	if ns == nil {
		return nil, wire.Errf(400, "NamespaceNotFound", "Namespace not found: %s", id)
	}
	m, err := world.FieldObject(ns)
	if err != nil {
		return nil, err
	}
	out := map[string]any{"Type": cloudMapNamespaceTypes[ns.Type], "CreateDate": wire.Epoch(world.DefaultTime)}
	for _, k := range []string{"Name", "Description", "Id", "Arn"} {
		if v, ok := m[k]; ok {
			out[k] = v
		}
	}
	props := map[string]any{}
	dns := map[string]any{}
	if z, ok := m["HostedZoneId"]; ok {
		dns["HostedZoneId"] = z
	}
	if p, ok := m["Properties"].(map[string]any); ok {
		if d, ok := p["DnsProperties"].(map[string]any); ok {
			if soa, ok := d["SOA"]; ok {
				dns["SOA"] = soa
			}
		}
	}
	if len(dns) > 0 {
		props["DnsProperties"] = dns
	}
	if ns.Type == "AWS::ServiceDiscovery::HttpNamespace" {
		if _, ok := m["Properties"]; ok {
			props["HttpProperties"] = map[string]any{"HttpName": m["Name"]}
		}
	}
	if len(props) > 0 {
		out["Properties"] = props
	}
	return map[string]any{"Namespace": out}, nil
}

func cloudMapGetService(st *world.State, c *wire.Call) (any, error) {
	id, err := cloudMapID(st, c)
	if err != nil {
		return nil, err
	}
	st.RLock()
	defer st.RUnlock()
	svc := cloudMapFind(st, c, id, "AWS::ServiceDiscovery::Service")
	if svc == nil {
		return nil, wire.Errf(400, "ServiceNotFound", "Service not found: %s", id)
	}
	m, err := world.FieldObject(svc)
	if err != nil {
		return nil, err
	}
	delete(m, "Tags")
	delete(m, "ServiceAttributes")
	if dc, ok := m["DnsConfig"].(map[string]any); ok && len(dc) == 0 {
		// Cloud Control reads an HTTP namespace's service with DnsConfig
		// {}; Cloud Map answers such a service with none (its model
		// requires DnsRecords of a DnsConfig).
		delete(m, "DnsConfig")
	}
	m["CreateDate"] = wire.Epoch(world.DefaultTime)
	return map[string]any{"Service": m}, nil
}

func cloudMapListTags(st *world.State, c *wire.Call, in struct{ ResourceARN string }) (any, error) {
	kind, id, ok := strings.Cut(world.ARNTail(in.ResourceARN, ":servicediscovery:"), "/")
	if !ok {
		return nil, wire.Errf(400, "InvalidInput", "Invalid ARN: %s", in.ResourceARN)
	}
	kind = world.ARNTail(kind, ":")
	var res *world.Resource
	switch kind {
	case "namespace":
		for t := range cloudMapNamespaceTypes {
			if res == nil {
				res = cloudMapFind(st, c, id, t)
			}
		}
	case "service":
		res = cloudMapFind(st, c, id, "AWS::ServiceDiscovery::Service")
	}
	if res == nil {
		return nil, wire.Errf(400, "ResourceNotFoundException", "Resource not found: %s", in.ResourceARN)
	}
	tags := []any{}
	if ts, ok := world.FieldValue(res, "Tags").([]any); ok {
		tags = ts
	}
	return map[string]any{"Tags": tags}, nil
}
