package live

import (
	"strings"

	"github.com/realdrift/realdrift/internal/drift"
)

// adapter builds a type's Cloud Control identifier from its CloudFormation
// physical id and its resolved declared properties.
type adapter func(physicalID string, declared map[string]any) (string, error)

// identifierAdapters is the one registration table of types whose
// CloudFormation physical id is not their Cloud Control primary identifier.
// Composite identifiers join their parts with "|", in the order of the
// type's primaryIdentifier.
func identifierAdapters() map[string]adapter {
	return map[string]adapter{
		// The physical id is the API ARN; Cloud Control wants the ApiId.
		"AWS::AppSync::GraphQLApi": arnTail("apis/"),
		// The physical id is the job definition ARN; Cloud Control wants
		// the bare name without the ":<revision>" suffix.
		"AWS::Batch::JobDefinition": batchJobDefinitionName,

		// Parent first: <parent>|<physical id>.
		"AWS::Cognito::UserPoolClient":         parentFirst("UserPoolId"),
		"AWS::Cognito::UserPoolDomain":         parentFirst("UserPoolId"),
		"AWS::Cognito::UserPoolResourceServer": parentFirst("UserPoolId"),
		"AWS::Cognito::UserPoolUser":           parentFirst("UserPoolId"),
		"AWS::ApiGatewayV2::Stage":             parentFirst("ApiId"),
		"AWS::ApiGatewayV2::Route":             parentFirst("ApiId"),
		"AWS::ApiGatewayV2::Integration":       parentFirst("ApiId"),
		"AWS::AppConfig::Environment":          parentFirst("ApplicationId"),
		"AWS::AppConfig::ConfigurationProfile": parentFirst("ApplicationId"),
		"AWS::ApiGateway::Model":               parentFirst("RestApiId"),
		"AWS::ApiGateway::RequestValidator":    parentFirst("RestApiId"),
		"AWS::ApiGateway::Resource":            parentFirst("RestApiId"),
		"AWS::ApiGateway::Stage":               parentFirst("RestApiId"),

		// Child first: <physical id>|<parent>.
		"AWS::ApiGateway::Deployment":        childFirst("RestApiId"),
		"AWS::ApiGateway::DocumentationPart": childFirst("RestApiId"),
		"AWS::ApiGatewayV2::ApiMapping":      childFirst("DomainName"),
		"AWS::ECS::Service":                  childFirst("Cluster"),

		// Built from declared properties only.
		"AWS::ApiGateway::BasePathMapping":              basePathMapping,
		"AWS::EC2::TransitGatewayRouteTablePropagation": fromDeclared("TransitGatewayRouteTableId", "TransitGatewayAttachmentId"),
		"AWS::ApplicationAutoScaling::ScalingPolicy":    scalingPolicy,
	}
}

// identifier returns the Cloud Control identifier of r.
func identifier(r Request) (string, error) {
	if a, ok := identifierAdapters()[r.Type]; ok {
		return a(r.PhysicalID, r.Declared)
	}
	return r.PhysicalID, nil
}

// Identifier returns the Cloud Control identifier of a resource, for the
// readers and for writers that address the same resource.
func Identifier(typeName, physicalID string, declared map[string]any) (string, error) {
	return identifier(Request{Type: typeName, PhysicalID: physicalID, Declared: declared})
}

func parentFirst(prop string) adapter {
	return func(pid string, d map[string]any) (string, error) {
		p, err := declaredString(d, prop)
		if err != nil {
			return "", err
		}
		return p + "|" + pid, nil
	}
}

func childFirst(prop string) adapter {
	return func(pid string, d map[string]any) (string, error) {
		p, err := declaredString(d, prop)
		if err != nil {
			return "", err
		}
		return pid + "|" + p, nil
	}
}

func fromDeclared(props ...string) adapter {
	return func(_ string, d map[string]any) (string, error) {
		parts := make([]string, len(props))
		for i, p := range props {
			v, err := declaredString(d, p)
			if err != nil {
				return "", err
			}
			parts[i] = v
		}
		return strings.Join(parts, "|"), nil
	}
}

// arnTail keeps what follows marker in an ARN physical id; a physical id
// without the marker is taken as the bare id already.
func arnTail(marker string) adapter {
	return func(pid string, _ map[string]any) (string, error) {
		if i := strings.LastIndex(pid, marker); i >= 0 {
			return pid[i+len(marker):], nil
		}
		return pid, nil
	}
}

func batchJobDefinitionName(pid string, _ map[string]any) (string, error) {
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
func basePathMapping(_ string, d map[string]any) (string, error) {
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
func scalingPolicy(pid string, d map[string]any) (string, error) {
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
