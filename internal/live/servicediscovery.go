package live

import (
	"context"

	"github.com/aws/aws-sdk-go-v2/service/servicediscovery"
	sdtypes "github.com/aws/aws-sdk-go-v2/service/servicediscovery/types"
)

// The Cloud Map family: AWS::ServiceDiscovery::HttpNamespace,
// PrivateDnsNamespace and PublicDnsNamespace through GetNamespace, and
// AWS::ServiceDiscovery::Service through GetService, each by its id (the
// physical id), with the tags of ListTagsForResource. The SDK's field
// names are the template's; a DNS namespace's hosted zone is its
// HostedZoneId attribute and its SOA TTL Properties.DnsProperties.SOA;
// what only the API keeps (counts, creator request ids, owners, the
// namespace type) is dropped. A private namespace's Vpc cannot be read
// back: a readGap. A service with no DNS configuration (an HTTP
// namespace's) reads DnsConfig {}, as Cloud Control shows it.

type serviceDiscoveryAPI interface {
	GetNamespace(ctx context.Context, in *servicediscovery.GetNamespaceInput, optFns ...func(*servicediscovery.Options)) (*servicediscovery.GetNamespaceOutput, error)
	GetService(ctx context.Context, in *servicediscovery.GetServiceInput, optFns ...func(*servicediscovery.Options)) (*servicediscovery.GetServiceOutput, error)
	ListTagsForResource(ctx context.Context, in *servicediscovery.ListTagsForResourceInput, optFns ...func(*servicediscovery.Options)) (*servicediscovery.ListTagsForResourceOutput, error)
}

var _ serviceDiscoveryAPI = (*servicediscovery.Client)(nil)

// readNamespace reads the three Cloud Map namespace types.
func readNamespace(ctx context.Context, c *Clients, r Request) (map[string]any, error) {
	if c.ServiceDiscovery == nil {
		return nil, skip("no Cloud Map client")
	}
	out, err := c.ServiceDiscovery.GetNamespace(ctx, &servicediscovery.GetNamespaceInput{Id: &r.PhysicalID})
	if err != nil {
		return nil, err
	}
	if out.Namespace == nil {
		return nil, skip("Cloud Map GetNamespace returned no namespace")
	}
	m := sdkModel(*out.Namespace)
	dropKeys(m, "CreatorRequestId", "ResourceOwner", "ServiceCount", "Type")
	if p := objectAt(m, "Properties"); p != nil {
		delete(p, "HttpProperties") // its HttpName is the namespace's name
		if d := objectAt(p, "DnsProperties"); d != nil {
			if z, ok := d["HostedZoneId"]; ok {
				delete(d, "HostedZoneId")
				m["HostedZoneId"] = z
			}
			if len(d) == 0 {
				delete(p, "DnsProperties")
			}
		}
		if len(p) == 0 {
			delete(m, "Properties")
		}
	}
	return withCloudMapTags(ctx, c, m, out.Namespace.Arn, "namespace/"+r.PhysicalID)
}

// readCloudMapService reads AWS::ServiceDiscovery::Service.
func readCloudMapService(ctx context.Context, c *Clients, r Request) (map[string]any, error) {
	if c.ServiceDiscovery == nil {
		return nil, skip("no Cloud Map client")
	}
	out, err := c.ServiceDiscovery.GetService(ctx, &servicediscovery.GetServiceInput{Id: &r.PhysicalID})
	if err != nil {
		return nil, err
	}
	if out.Service == nil {
		return nil, skip("Cloud Map GetService returned no service")
	}
	m := sdkModel(*out.Service)
	dropKeys(m, "CreatorRequestId", "ResourceOwner", "CreatedByAccount", "InstanceCount")
	if _, ok := m["DnsConfig"]; !ok {
		// Cloud Map answers an HTTP namespace's service with no DnsConfig
		// (its model requires DnsRecords in one); Cloud Control reads the
		// same service as DnsConfig {}. The empty object is that shape,
		// not a value: both paths read the service alike.
		m["DnsConfig"] = map[string]any{}
	}
	return withCloudMapTags(ctx, c, m, out.Service.Arn, "service/"+r.PhysicalID)
}

// withCloudMapTags adds the resource's tags (none: no Tags); the ARN is the
// answered one, else built from the clients' scope.
func withCloudMapTags(ctx context.Context, c *Clients, m map[string]any, arn *string, resource string) (map[string]any, error) {
	a := deref(arn)
	if a == "" {
		s, err := c.scope(ctx)()
		if err != nil {
			return nil, err
		}
		a = "arn:" + s.Partition + ":servicediscovery:" + s.Region + ":" + s.Account + ":" + resource
	}
	tags, err := c.ServiceDiscovery.ListTagsForResource(ctx, &servicediscovery.ListTagsForResourceInput{ResourceARN: &a})
	if err != nil {
		return nil, err
	}
	if len(tags.Tags) > 0 {
		m["Tags"] = cloudMapTags(tags.Tags)
	}
	return m, nil
}

func cloudMapTags(ts []sdtypes.Tag) []any {
	out := make([]any, len(ts))
	for i, t := range ts {
		out[i] = map[string]any{"Key": deref(t.Key), "Value": deref(t.Value)}
	}
	return out
}
