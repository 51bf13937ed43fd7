package live

import (
	"context"
	"encoding/json"
	"strings"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/cloudcontrol"
)

// ccChild is a kind of child Cloud Control lists under a parent: the child
// type and the ResourceModel property its list handler selects the parent
// by (the parent's Cloud Control identifier: RestApiId, ListenerArn, ...).
// implicit, when set, tells a child AWS creates by itself with the parent
// (a REST API's root resource, its Empty and Error models, a listener's
// default rule) from its full live model: such a child is never an added
// resource.
type ccChild struct {
	typ      string
	key      string
	implicit func(model map[string]any) bool
}

// ccChildren is the data half of the enumerator table: parents whose
// out-of-band children are listed through Cloud Control ListResources with
// a ResourceModel naming the parent. Children AWS may create by itself
// are left out rather than risk a false added finding: an API Gateway
// Deployment's implicit stage (Stage, Deployment); and no children at all
// of an API whose children AWS made from its declaration (definedBy: an
// imported OpenAPI body, a clone, a quick-created HTTP API). Parents whose
// AWS-made children only the service's own API tells apart are listed
// through it instead (children.go): a transit gateway's default route
// table (children_tgw.go), a DB cluster's auto-scaled replicas
// (children_rds.go).
func ccChildren() map[string][]ccChild {
	c := func(typ, key string) ccChild { return ccChild{typ: typ, key: key} }
	return map[string][]ccChild{
		"AWS::ApiGateway::RestApi": {
			{typ: "AWS::ApiGateway::Resource", key: "RestApiId", implicit: func(m map[string]any) bool { return m["ParentId"] == nil }},
			{typ: "AWS::ApiGateway::Model", key: "RestApiId", implicit: func(m map[string]any) bool { return m["Name"] == "Empty" || m["Name"] == "Error" }},
			c("AWS::ApiGateway::Authorizer", "RestApiId"),
			c("AWS::ApiGateway::RequestValidator", "RestApiId"),
		},
		"AWS::ApiGatewayV2::Api": {
			c("AWS::ApiGatewayV2::Route", "ApiId"),
			c("AWS::ApiGatewayV2::Integration", "ApiId"),
			c("AWS::ApiGatewayV2::Authorizer", "ApiId"),
		},
		"AWS::AppConfig::Application": {
			c("AWS::AppConfig::Environment", "ApplicationId"),
			c("AWS::AppConfig::ConfigurationProfile", "ApplicationId"),
		},
		"AWS::AppSync::GraphQLApi": {
			c("AWS::AppSync::DataSource", "ApiId"),
			c("AWS::AppSync::FunctionConfiguration", "ApiId"),
		},
		"AWS::EFS::FileSystem": {
			c("AWS::EFS::MountTarget", "FileSystemId"),
			c("AWS::EFS::AccessPoint", "FileSystemId"),
		},
		"AWS::ElasticBeanstalk::Application": {
			c("AWS::ElasticBeanstalk::ConfigurationTemplate", "ApplicationName"),
			c("AWS::ElasticBeanstalk::Environment", "ApplicationName"),
		},
		"AWS::ElasticLoadBalancingV2::LoadBalancer": {
			c("AWS::ElasticLoadBalancingV2::Listener", "LoadBalancerArn"),
		},
		"AWS::ElasticLoadBalancingV2::Listener": {
			// A listener's default rule is its DefaultActions, not a rule.
			{typ: "AWS::ElasticLoadBalancingV2::ListenerRule", key: "ListenerArn", implicit: func(m map[string]any) bool { return m["IsDefault"] == true }},
		},
		"AWS::GuardDuty::Detector": {
			c("AWS::GuardDuty::Filter", "DetectorId"),
			c("AWS::GuardDuty::IPSet", "DetectorId"),
			c("AWS::GuardDuty::ThreatIntelSet", "DetectorId"),
		},
	}
}

// ccListed turns a ccChildren entry into the parent's enumerators.
func ccListed(kinds []ccChild) []enumerator {
	out := make([]enumerator, len(kinds))
	for i, k := range kinds {
		out[i] = k.enumerate
	}
	return out
}

// definedBy are, per parent type, the declared properties that make AWS
// create the parent's children by itself: an API imported from an OpenAPI
// or Swagger body (Body, BodyS3Location), cloned (CloneFrom) or
// quick-created from a Target. Such a parent's children are not listed:
// each would be a false added finding.
var definedBy = map[string][]string{
	"AWS::ApiGateway::RestApi": {"Body", "BodyS3Location", "CloneFrom"},
	"AWS::ApiGatewayV2::Api":   {"Body", "BodyS3Location", "Target"},
}

// childrenDefinedByParent reports whether the parent declares one of its
// definedBy properties (an unresolved one counts: fail closed).
func childrenDefinedByParent(parent StackResource) bool {
	for _, p := range definedBy[parent.Type] {
		if parent.Declared[p] != nil {
			return true
		}
	}
	return false
}

// enumerate lists the parent's children of one kind through Cloud Control
// and keeps those the stack does not declare and AWS did not create.
func (k ccChild) enumerate(ctx context.Context, c *Clients, parent StackResource, stack []StackResource) ([]candidate, error) {
	if childrenDefinedByParent(parent) {
		return nil, nil
	}
	if c.CloudControl == nil {
		return nil, skip("no Cloud Control client to list " + k.typ)
	}
	lister, ok := c.CloudControl.(ccListAPI)
	if !ok {
		return nil, skip("no Cloud Control client to list " + k.typ)
	}
	parentID, err := Identifier(parent.Type, parent.PhysicalID, parent.Declared)
	if err != nil {
		return nil, err
	}
	sel, _ := json.Marshal(map[string]string{k.key: parentID})
	declared := declaredIDs(stack, k.typ)
	var cands []candidate
	p := cloudcontrol.NewListResourcesPaginator(lister, &cloudcontrol.ListResourcesInput{TypeName: &k.typ, ResourceModel: aws.String(string(sel))})
	for p.HasMorePages() {
		page, err := p.NextPage(ctx)
		if isNotFound(err) {
			return nil, nil // the parent itself is reported deleted
		}
		if err != nil {
			return nil, err
		}
		for _, d := range page.ResourceDescriptions {
			id := deref(d.Identifier)
			physical := physicalOf(k.typ, id)
			if id == "" || declared[physical] {
				continue
			}
			cand := candidate{typ: k.typ, id: id}
			if physical != id {
				cand.physical = physical
			}
			if k.implicit != nil {
				model, err := getResource(ctx, c, k.typ, id)
				if isNotFound(err) {
					continue
				}
				if err != nil {
					return nil, err
				}
				if k.implicit(model) {
					continue
				}
				cand.model = model
			}
			cands = append(cands, cand)
		}
	}
	return cands, nil
}

// physicalOf is the CloudFormation physical id of a resource by its Cloud
// Control identifier: for a compound identifier the part the physical id
// is (compoundIdentifiers), for a parent-first one its last part, else the
// identifier itself.
func physicalOf(typ, id string) string {
	if k, ok := compoundIdentifiers()[typ]; ok {
		parts := strings.Split(id, "|")
		for i, p := range k.parts {
			if p == k.physical && i < len(parts) && len(parts) == len(k.parts) {
				return parts[i]
			}
		}
		return id
	}
	if parentFirstTypes[typ] {
		if i := strings.LastIndexByte(id, '|'); i >= 0 {
			return id[i+1:]
		}
	}
	return id
}

// parentFirstTypes are the identifierAdapters built with parentFirst
// (TestPhysicalOf holds the two lists together).
var parentFirstTypes = map[string]bool{"AWS::ApiGatewayV2::Stage": true, "AWS::CodeDeploy::DeploymentGroup": true}

// ccListAPI is the Cloud Control list call of the child enumerators.
type ccListAPI interface {
	ListResources(ctx context.Context, in *cloudcontrol.ListResourcesInput, optFns ...func(*cloudcontrol.Options)) (*cloudcontrol.ListResourcesOutput, error)
}
