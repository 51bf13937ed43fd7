package live

import (
	"strings"

	"github.com/realdrift/realdrift/internal/drift"
)

// adapter builds a type's Cloud Control identifier from its CloudFormation
// physical id and its resolved declared properties; scope names the
// account and region, for the few identifiers that are ARNs.
type adapter func(physicalID string, declared map[string]any, scope scopeFunc) (string, error)

// scopeFunc returns the partition, region and account of the resource.
type scopeFunc func() (Scope, error)

// Scope is the partition, region and account a resource lives in.
type Scope struct{ Partition, Region, Account string }

// compound is a type's Cloud Control identifier as data: its parts in the
// order of the schema's primaryIdentifier, joined with "|". The part named
// by physical is the physical id; every other part is the declared
// property of that name. A physical id that already holds every part
// (joined with "|") is the identifier itself.
type compound struct {
	physical string
	parts    []string
}

func (k compound) adapt(pid string, d map[string]any, _ scopeFunc) (string, error) {
	if len(k.parts) > 1 && strings.Count(pid, "|") == len(k.parts)-1 {
		return pid, nil
	}
	out := make([]string, len(k.parts))
	for i, p := range k.parts {
		if p == k.physical {
			out[i] = pid
			continue
		}
		v, err := declaredString(d, p)
		if err != nil {
			return "", err
		}
		out[i] = v
	}
	return strings.Join(out, "|"), nil
}

// compoundIdentifiers is the data half of the adapter table: types whose
// identifier joins the physical id with declared parent properties, each
// list in the pinned schema's primaryIdentifier order (a test holds them
// to it).
func compoundIdentifiers() map[string]compound {
	k := func(physical string, parts ...string) compound { return compound{physical: physical, parts: parts} }
	return map[string]compound{
		"AWS::ApiGateway::Authorizer":        k("AuthorizerId", "RestApiId", "AuthorizerId"),
		"AWS::ApiGateway::Deployment":        k("DeploymentId", "DeploymentId", "RestApiId"),
		"AWS::ApiGateway::DocumentationPart": k("DocumentationPartId", "DocumentationPartId", "RestApiId"),
		"AWS::ApiGateway::Model":             k("Name", "RestApiId", "Name"),
		"AWS::ApiGateway::RequestValidator":  k("RequestValidatorId", "RestApiId", "RequestValidatorId"),
		"AWS::ApiGateway::Resource":          k("ResourceId", "RestApiId", "ResourceId"),
		"AWS::ApiGateway::Stage":             k("StageName", "RestApiId", "StageName"),

		"AWS::ApiGatewayV2::ApiMapping":          k("ApiMappingId", "ApiMappingId", "DomainName"),
		"AWS::ApiGatewayV2::Authorizer":          k("AuthorizerId", "AuthorizerId", "ApiId"),
		"AWS::ApiGatewayV2::Deployment":          k("DeploymentId", "ApiId", "DeploymentId"),
		"AWS::ApiGatewayV2::Integration":         k("IntegrationId", "ApiId", "IntegrationId"),
		"AWS::ApiGatewayV2::IntegrationResponse": k("IntegrationResponseId", "ApiId", "IntegrationId", "IntegrationResponseId"),
		"AWS::ApiGatewayV2::Model":               k("ModelId", "ApiId", "ModelId"),
		"AWS::ApiGatewayV2::Route":               k("RouteId", "ApiId", "RouteId"),
		"AWS::ApiGatewayV2::RouteResponse":       k("RouteResponseId", "ApiId", "RouteId", "RouteResponseId"),

		"AWS::AppConfig::ConfigurationProfile":       k("ConfigurationProfileId", "ApplicationId", "ConfigurationProfileId"),
		"AWS::AppConfig::Deployment":                 k("DeploymentNumber", "ApplicationId", "EnvironmentId", "DeploymentNumber"),
		"AWS::AppConfig::Environment":                k("EnvironmentId", "ApplicationId", "EnvironmentId"),
		"AWS::AppConfig::HostedConfigurationVersion": k("VersionNumber", "ApplicationId", "ConfigurationProfileId", "VersionNumber"),

		"AWS::AutoScaling::LifecycleHook":   k("LifecycleHookName", "AutoScalingGroupName", "LifecycleHookName"),
		"AWS::AutoScaling::ScheduledAction": k("ScheduledActionName", "ScheduledActionName", "AutoScalingGroupName"),

		"AWS::Cognito::UserPoolClient":           k("ClientId", "UserPoolId", "ClientId"),
		"AWS::Cognito::UserPoolDomain":           k("Domain", "UserPoolId", "Domain"),
		"AWS::Cognito::UserPoolGroup":            k("GroupName", "UserPoolId", "GroupName"),
		"AWS::Cognito::UserPoolIdentityProvider": k("ProviderName", "UserPoolId", "ProviderName"),
		"AWS::Cognito::UserPoolResourceServer":   k("Identifier", "UserPoolId", "Identifier"),
		"AWS::Cognito::UserPoolUser":             k("Username", "UserPoolId", "Username"),

		"AWS::EC2::TransitGatewayRouteTablePropagation": k("", "TransitGatewayRouteTableId", "TransitGatewayAttachmentId"),
		"AWS::EC2::VPCCidrBlock":                        k("Id", "Id", "VpcId"),
		"AWS::ECR::RepositoryCreationTemplate":          k("Prefix", "Prefix"),
		"AWS::ECS::Service":                             k("ServiceArn", "ServiceArn", "Cluster"),

		"AWS::ElasticBeanstalk::ApplicationVersion":    k("Id", "ApplicationName", "Id"),
		"AWS::ElasticBeanstalk::ConfigurationTemplate": k("TemplateName", "ApplicationName", "TemplateName"),

		"AWS::GuardDuty::Filter":                k("Name", "DetectorId", "Name"),
		"AWS::GuardDuty::IPSet":                 k("Id", "Id", "DetectorId"),
		"AWS::GuardDuty::PublishingDestination": k("Id", "DetectorId", "Id"),
		"AWS::GuardDuty::ThreatEntitySet":       k("Id", "Id", "DetectorId"),
		"AWS::GuardDuty::ThreatIntelSet":        k("Id", "Id", "DetectorId"),
		"AWS::GuardDuty::TrustedEntitySet":      k("Id", "Id", "DetectorId"),

		"AWS::Logs::LogStream":          k("LogStreamName", "LogGroupName", "LogStreamName"),
		"AWS::Logs::SubscriptionFilter": k("FilterName", "FilterName", "LogGroupName"),

		"AWS::SSM::MaintenanceWindowTarget": k("WindowTargetId", "WindowId", "WindowTargetId"),
		"AWS::SSM::MaintenanceWindowTask":   k("WindowTaskId", "WindowId", "WindowTaskId"),
	}
}

// identifierAdapters is the one registration table of types whose
// CloudFormation physical id is not their Cloud Control primary identifier:
// the compound identifiers above, and the adapters below for identifiers
// that are not a plain join.
func identifierAdapters() map[string]adapter {
	m := map[string]adapter{
		// The physical id is the API ARN; Cloud Control wants the ApiId.
		"AWS::AppSync::GraphQLApi": arnTail("apis/"),
		// The physical id is the job definition ARN; Cloud Control wants
		// the bare name without the ":<revision>" suffix.
		"AWS::Batch::JobDefinition": batchJobDefinitionName,
		// The pinned schemas name a synthetic Id; Cloud Control addresses
		// these parent first.
		"AWS::ApiGatewayV2::Stage":         parentFirst("ApiId"),
		"AWS::CodeDeploy::DeploymentGroup": parentFirst("ApplicationName"),

		"AWS::ApiGateway::BasePathMapping":           basePathMapping,
		"AWS::ApplicationAutoScaling::ScalingPolicy": scalingPolicy,
		// <PublicIp>|<AllocationId>; the allocation id from EC2 when no
		// template holds it (identifier_eip.go).
		"AWS::EC2::EIP": eipIdentifier,
	}
	for typ, k := range compoundIdentifiers() {
		m[typ] = k.adapt
	}
	for typ, a := range arnIdentifiers() {
		m[typ] = a
	}
	return m
}

// arnIdentifiers are the adapters whose identifier is an ARN built from the
// scope (partition, region, account).
func arnIdentifiers() map[string]adapter {
	return map[string]adapter{
		// The physical id is the rule name, or "<bus>|<rule>" for a rule
		// on a custom bus.
		"AWS::Events::Rule": eventsRuleArn,
	}
}

// HasIdentifierAdapter reports whether t's Cloud Control identifier is
// built by an adapter rather than being its physical id.
func HasIdentifierAdapter(t string) bool {
	_, ok := identifierAdapters()[t]
	return ok
}

// noScope is the scope of a caller that knows no account or region.
func noScope() (Scope, error) {
	return Scope{}, skip("the identifier is an ARN, and the account and region are unknown")
}

// identifier returns the Cloud Control identifier of r.
func identifier(r Request, scope scopeFunc) (string, error) {
	if a, ok := identifierAdapters()[r.Type]; ok {
		return a(r.PhysicalID, r.Declared, scope)
	}
	return r.PhysicalID, nil
}

// Identifier returns the Cloud Control identifier of a resource, for the
// readers and for writers that address the same resource. Identifiers that
// are ARNs (AWS::Events::Rule) need IdentifierIn.
func Identifier(typeName, physicalID string, declared map[string]any) (string, error) {
	return identifier(Request{Type: typeName, PhysicalID: physicalID, Declared: declared}, noScope)
}

// IdentifierIn is Identifier for a resource of a known account and region.
func IdentifierIn(s Scope, typeName, physicalID string, declared map[string]any) (string, error) {
	return identifier(Request{Type: typeName, PhysicalID: physicalID, Declared: declared}, func() (Scope, error) { return s, nil })
}

// eventsRuleArn: arn:<partition>:events:<region>:<account>:rule/[<bus>/]<name>.
func eventsRuleArn(pid string, d map[string]any, scope scopeFunc) (string, error) {
	if strings.HasPrefix(pid, "arn:") {
		return pid, nil
	}
	bus, name, ok := strings.Cut(pid, "|")
	if !ok {
		bus, name = "", pid
		if _, declared := d["EventBusName"]; declared {
			b, err := declaredString(d, "EventBusName")
			if err != nil {
				return "", err
			}
			bus = b
		}
	}
	if i := strings.LastIndex(bus, "event-bus/"); i >= 0 {
		bus = bus[i+len("event-bus/"):]
	}
	s, err := scope()
	if err != nil {
		return "", err
	}
	path := name
	if bus != "" && bus != "default" {
		path = bus + "/" + name
	}
	return "arn:" + s.Partition + ":events:" + s.Region + ":" + s.Account + ":rule/" + path, nil
}

func parentFirst(prop string) adapter {
	return func(pid string, d map[string]any, _ scopeFunc) (string, error) {
		p, err := declaredString(d, prop)
		if err != nil {
			return "", err
		}
		return p + "|" + pid, nil
	}
}

// arnTail keeps what follows marker in an ARN physical id; a physical id
// without the marker is taken as the bare id already.
func arnTail(marker string) adapter {
	return func(pid string, _ map[string]any, _ scopeFunc) (string, error) {
		if i := strings.LastIndex(pid, marker); i >= 0 {
			return pid[i+len(marker):], nil
		}
		return pid, nil
	}
}

func batchJobDefinitionName(pid string, _ map[string]any, _ scopeFunc) (string, error) {
	name := pid
	if i := strings.Index(name, "job-definition/"); i >= 0 {
		name = name[i+len("job-definition/"):]
	}
	if i := strings.LastIndex(name, ":"); i >= 0 {
		name = name[:i]
	}
	return name, nil
}

// basePathMapping: [DomainName, BasePath]; an absent BasePath is the root
// mapping and yields an empty second part.
func basePathMapping(_ string, d map[string]any, _ scopeFunc) (string, error) {
	domain, err := declaredString(d, "DomainName")
	if err != nil {
		return "", err
	}
	base := ""
	if _, ok := d["BasePath"]; ok {
		if base, err = declaredString(d, "BasePath"); err != nil {
			return "", err
		}
	}
	return domain + "|" + base, nil
}

// scalingPolicy: [Arn, ScalableDimension]. The physical id is the policy
// ARN; the dimension is declared, or the middle part of a ScalingTargetId
// ("<resource id>|<scalable dimension>|<service namespace>").
func scalingPolicy(pid string, d map[string]any, _ scopeFunc) (string, error) {
	if _, ok := d["ScalableDimension"]; ok {
		dim, err := declaredString(d, "ScalableDimension")
		if err != nil {
			return "", err
		}
		return pid + "|" + dim, nil
	}
	target, err := declaredString(d, "ScalingTargetId")
	if err != nil {
		return "", err
	}
	parts := strings.Split(target, "|")
	if len(parts) != 3 || parts[1] == "" {
		return "", skip("cannot parse the scalable dimension from ScalingTargetId " + target)
	}
	return pid + "|" + parts[1], nil
}

// declaredString returns a declared top-level string. An unresolved value
// is a waitingError; an absent or non-string one a skip.
func declaredString(d map[string]any, prop string) (string, error) {
	v, ok := d[prop]
	if !ok {
		return "", skip("declared " + prop + " is absent")
	}
	if drift.ContainsUnknown(v) {
		return "", waiting(prop)
	}
	s, ok := v.(string)
	if !ok || s == "" {
		return "", skip("declared " + prop + " is not a non-empty string")
	}
	return s, nil
}

// declaredStrings returns a declared top-level list of strings (a single
// string counts as a one-element list). Absent → nil, no error.
func declaredStrings(d map[string]any, prop string) ([]string, error) {
	v, ok := d[prop]
	if !ok || v == nil {
		return nil, nil
	}
	if drift.ContainsUnknown(v) {
		return nil, waiting(prop)
	}
	switch t := v.(type) {
	case string:
		return []string{t}, nil
	case []any:
		out := make([]string, 0, len(t))
		for _, e := range t {
			s, ok := e.(string)
			if !ok {
				return nil, skip("declared " + prop + " holds a non-string element")
			}
			out = append(out, s)
		}
		return out, nil
	}
	return nil, skip("declared " + prop + " is not a list of strings")
}
