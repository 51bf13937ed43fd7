package live

import (
	"context"
	"errors"
	"sort"

	"github.com/aws/aws-sdk-go-v2/service/cloudformation"
	"github.com/aws/smithy-go"
)

// StackResource is one resource of the stack's template as the enumerators
// see it: what the stack declares, to tell declared children from added ones.
type StackResource struct {
	LogicalID  string         `json:"logicalId"`
	Type       string         `json:"resourceType"`
	PhysicalID string         `json:"physicalId"`
	Declared   map[string]any `json:"-"`
}

// Child is a live child resource of a declared parent that the stack does
// not declare and no other CloudFormation stack owns: an added resource.
type Child struct {
	Type string `json:"resourceType"`
	// Identifier is the child's identity: its physical id and Cloud Control
	// identifier, or for an out-of-band policy the id of what it is on.
	Identifier string `json:"identifier"`
	// Model is the child's full live model; nil when the full read failed.
	Model map[string]any `json:"model,omitempty"`
	// Reason says why the full read failed, when it did.
	Reason string `json:"reason,omitempty"`
}

// candidate is a live child an enumerator found that the stack does not
// declare. A nil model is read in full through Cloud Control.
type candidate struct {
	typ   string
	id    string
	model map[string]any
	// physical is the child's CloudFormation physical id where it is not
	// its Cloud Control identifier id (compound-identifier children): what
	// the ownership check asks for.
	physical string
}

// enumerator lists one kind of live child of parent, leaving out the ones
// the stack declares.
type enumerator func(ctx context.Context, c *Clients, parent StackResource, stack []StackResource) ([]candidate, error)

// enumerators is the one registration table of child enumerators, per
// declared parent type.
func enumerators() map[string][]enumerator {
	m := map[string][]enumerator{
		"AWS::SNS::Topic":       {topicSubscriptions, outOfBandTopicPolicy},
		"AWS::Lambda::Function": {functionURLs, functionAliases, eventSourceMappings, functionVersions, functionPermissions},
		"AWS::S3::Bucket":       {outOfBandBucketPolicy},
		"AWS::SQS::Queue":       {outOfBandQueuePolicy},
		"AWS::EC2::NetworkAcl":  {networkAclEntries},
		"AWS::EC2::VPC":         {vpcChildren},
		"AWS::Logs::LogGroup":   {subscriptionFilters, metricFilters},
		"AWS::Events::EventBus": {busRules},
		"AWS::KMS::Key":         {keyAliases},
		"AWS::EC2::RouteTable":  {tableRoutes},

		"AWS::SecretsManager::Secret": {outOfBandSecretPolicy},
		"AWS::ECS::Cluster":           {clusterServices},
		"AWS::Cognito::UserPool":      {poolClients, poolGroups},
		"AWS::SSM::MaintenanceWindow": {windowTargets, windowTasks},

		"AWS::AutoScaling::AutoScalingGroup": {groupHooks, groupScheduledActions},
		"AWS::CodeDeploy::Application":       {appDeploymentGroups},
		"AWS::Glue::Database":                {databaseTables},
		"AWS::RDS::DBCluster":                {clusterInstances},
		"AWS::EC2::TransitGateway":           {gatewayAttachments, gatewayRouteTables},
		"AWS::Route53::HostedZone":           {hostedZoneRecords},

		"AWS::ApplicationAutoScaling::ScalableTarget": {targetPolicies},
	}
	// And the parents whose children Cloud Control lists (cc_children.go).
	for parent, kinds := range ccChildren() {
		m[parent] = append(m[parent], ccListed(kinds)...)
	}
	return m
}

// HasEnumerator reports whether live children of parentType are enumerated.
func HasEnumerator(parentType string) bool {
	_, ok := enumerators()[parentType]
	return ok
}

// Enumerate lists the added children of one declared parent: live children
// the stack does not declare, minus those another CloudFormation stack owns,
// each read in full. An error means the enumeration could not be completed;
// the caller reports the parent as skipped, never fails the run.
func Enumerate(ctx context.Context, c *Clients, parent StackResource, stack []StackResource) ([]Child, error) {
	if parent.PhysicalID == "" {
		return nil, nil
	}
	var out []Child
	for _, enum := range enumerators()[parent.Type] {
		cands, err := enum(ctx, c, parent, stack)
		if err != nil {
			return nil, &EnumerateError{Parent: parent.LogicalID, Reason: "enumerate children: " + describe(err), Err: err}
		}
		for _, cand := range cands {
			owner := cand.id
			if cand.physical != "" {
				owner = cand.physical
			}
			owned, err := ownedByStack(ctx, c, cand.typ, owner)
			if err != nil {
				return nil, &EnumerateError{Parent: parent.LogicalID, Reason: "check the owner of " + cand.typ + " " + cand.id + ": " + describe(err), Err: err}
			}
			if owned {
				continue
			}
			ch := Child{Type: cand.typ, Identifier: cand.id, Model: cand.model}
			if ch.Model == nil {
				model, err := getResource(ctx, c, cand.typ, cand.id)
				switch {
				case isNotFound(err):
					continue // gone between the listing and the read
				case err != nil:
					ch.Reason = describe(err)
				default:
					ch.Model = model
				}
			}
			out = append(out, ch)
		}
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].Type != out[j].Type {
			return out[i].Type < out[j].Type
		}
		return out[i].Identifier < out[j].Identifier
	})
	return out, nil
}

// EnumerateError says why the children of a parent could not be listed.
type EnumerateError struct {
	Parent string
	// Reason is a short, report-ready explanation.
	Reason string
	Err    error
}

func (e *EnumerateError) Error() string { return e.Parent + ": " + e.Reason }

// Unwrap returns the underlying error.
func (e *EnumerateError) Unwrap() error { return e.Err }

// ownedByStack reports whether a CloudFormation stack (another stack of the
// app, typically) manages the child: DescribeStackResources by physical id
// finds a resource of the child's type with that physical id.
func ownedByStack(ctx context.Context, c *Clients, typ, id string) (bool, error) {
	if c.CloudFormation == nil {
		return false, skip("no CloudFormation client to check child ownership")
	}
	out, err := c.CloudFormation.DescribeStackResources(ctx, &cloudformation.DescribeStackResourcesInput{PhysicalResourceId: &id})
	if err != nil {
		var ae smithy.APIError
		if errors.As(err, &ae) && ae.ErrorCode() == "ValidationError" {
			return false, nil // no stack owns it
		}
		return false, err
	}
	for _, r := range out.StackResources {
		if deref(r.PhysicalResourceId) == id && deref(r.ResourceType) == typ {
			return true, nil
		}
	}
	return false, nil
}

// declaredIDs returns the physical ids of the stack's resources of type typ.
func declaredIDs(stack []StackResource, typ string) map[string]bool {
	ids := map[string]bool{}
	for _, r := range stack {
		if r.Type == typ && r.PhysicalID != "" {
			ids[r.PhysicalID] = true
		}
	}
	return ids
}

// declaresPolicyOn reports whether the stack declares a policy resource
// of one of types whose target property names id. A target that is not
// resolved counts as naming it (fail closed: no added finding on a guess).
func declaresPolicyOn(stack []StackResource, id string, targets map[string]string) bool {
	for _, r := range stack {
		prop, ok := targets[r.Type]
		if !ok {
			continue
		}
		list, err := declaredStrings(r.Declared, prop)
		if err != nil {
			return true
		}
		for _, v := range list {
			if v == id {
				return true
			}
		}
	}
	return false
}

// pagedChildren pages a parent's child listing (more and next: a
// paginator's HasMorePages and NextPage) and turns every child id the stack
// does not declare as typ into a candidate Cloud Control reads by
// "<parent>|<id>" (physical id: the child id). A parent that is gone lists
// nothing: it is reported deleted itself.
func pagedChildren[P any](ctx context.Context, typ, parent string, stack []StackResource,
	more func() bool, next func(context.Context) (P, error), ids func(P) []string) ([]candidate, error) {
	declared := declaredIDs(stack, typ)
	var out []candidate
	for more() {
		page, err := next(ctx)
		if isNotFound(err) {
			return nil, nil
		}
		if err != nil {
			return nil, err
		}
		for _, id := range ids(page) {
			if !declared[id] {
				out = append(out, candidate{typ: typ, id: parent + "|" + id, physical: id})
			}
		}
	}
	return out, nil
}
