package servicediscovery

import "github.com/realdrift/realdrift/internal/sandbox/wire"

// Service serves Cloud Map (JSON 1.1): GetNamespace and
// GetService by id and ListTagsForResource by ARN, from the world's
// AWS::ServiceDiscovery::HttpNamespace / PrivateDnsNamespace /
// PublicDnsNamespace and Service models (by identifier, else the model's
// Id). The API's shape is the template's (PascalCase): a namespace answers
// its Name, Description, Id and Arn as the model holds them, its type from
// the resource type, a DNS namespace's HostedZoneId and SOA under
// Properties.DnsProperties, an HTTP namespace's name under
// Properties.HttpProperties; a service answers its model without the
// template-only Tags and ServiceAttributes. A model's Tags are what
// ListTagsForResource lists (an ARN is the model's Arn, else derived from
// the id).
func Service() *wire.Service {
	return wire.JSON("servicediscovery", "1.1", "Route53AutoNaming_v20170314.", wire.Ops{
		"GetNamespace":        cloudMapGetNamespace,
		"GetService":          cloudMapGetService,
		"ListTagsForResource": wire.Read(cloudMapListTags),
	})
}
