package main

import (
	"fmt"
	"regexp"
	"slices"
	"strings"

	"github.com/aws/aws-cdk-go/awscdk/v2"
	"github.com/aws/aws-cdk-go/awscdk/v2/awsiam"
	"github.com/aws/jsii-runtime-go"

	"github.com/realdrift/realdrift/internal/schema"
)

// Cloud Control runs a type's handlers with the caller's own credentials
// (forward access sessions): an UpdateResource of an SQS queue calls
// sqs:SetQueueAttributes as the revert role, with aws:ViaAWSService true.
// cloudformation:UpdateResource alone therefore reverts nothing; the role
// also needs, per type it may write, the permissions the registry schema
// lists for the type's read, update and delete handlers. They are granted
// here from the embedded schema snapshot, for a configured list of types,
// and only through an AWS service (aws:ViaAWSService), so the role cannot
// call them itself: its direct writes stay the writers' actions
// (revertActions).

// defaultRevertTypes are the types whose Cloud Control writes the revert
// role is granted unless REALDRIFT_REVERT_TYPES says otherwise: the types
// of the CDK-synthesized apps realdrift is tested on and of the demo
// organisation, and every type a child enumerator finds (an out-of-band
// child is deleted through Cloud Control). Left out: nested stacks
// (reverted through their own resources, never by redeploying the stack)
// the Auto Scaling group, whose handlers list wildcard permissions
// (ec2:Get*, ssm:Get*) the role will not hold, and the enumerated child
// types Cloud Control can neither update nor delete (API Gateway V2
// stages, CodeDeploy deployment groups, Glue tables, Route 53 record set
// groups, SSM maintenance windows: a Cloud Control write of them is
// ungranted, not attempted).
func defaultRevertTypes() []string {
	return []string{
		"AWS::ApiGateway::Account", "AWS::ApiGateway::ApiKey", "AWS::ApiGateway::Authorizer",
		"AWS::ApiGateway::Deployment", "AWS::ApiGateway::Method", "AWS::ApiGateway::Model",
		"AWS::ApiGateway::RequestValidator", "AWS::ApiGateway::Resource", "AWS::ApiGateway::RestApi",
		"AWS::ApiGateway::Stage", "AWS::ApiGateway::UsagePlan", "AWS::ApiGateway::UsagePlanKey",
		"AWS::ApiGatewayV2::Api", "AWS::ApiGatewayV2::Authorizer", "AWS::ApiGatewayV2::Integration",
		"AWS::ApiGatewayV2::Route", "AWS::AppConfig::Application", "AWS::AppConfig::ConfigurationProfile",
		"AWS::AppConfig::Environment", "AWS::AppSync::DataSource", "AWS::AppSync::FunctionConfiguration",
		"AWS::AppSync::GraphQLApi", "AWS::ApplicationAutoScaling::ScalableTarget",
		"AWS::ApplicationAutoScaling::ScalingPolicy", "AWS::AutoScaling::LifecycleHook",
		"AWS::AutoScaling::ScheduledAction", "AWS::CloudWatch::Alarm", "AWS::CloudWatch::Dashboard",
		"AWS::CodeDeploy::Application", "AWS::Cognito::UserPool", "AWS::Cognito::UserPoolClient",
		"AWS::Cognito::UserPoolGroup", "AWS::DynamoDB::Table", "AWS::EC2::EIP",
		"AWS::EC2::EgressOnlyInternetGateway", "AWS::EC2::FlowLog", "AWS::EC2::Instance",
		"AWS::EC2::InternetGateway", "AWS::EC2::LaunchTemplate", "AWS::EC2::NatGateway",
		"AWS::EC2::NetworkAcl", "AWS::EC2::NetworkAclEntry", "AWS::EC2::Route", "AWS::EC2::RouteTable",
		"AWS::EC2::SecurityGroup", "AWS::EC2::SecurityGroupEgress", "AWS::EC2::SecurityGroupIngress",
		"AWS::EC2::Subnet", "AWS::EC2::SubnetRouteTableAssociation", "AWS::EC2::TransitGateway",
		"AWS::EC2::TransitGatewayAttachment", "AWS::EC2::TransitGatewayRouteTable",
		"AWS::EC2::TransitGatewayVpcAttachment", "AWS::EC2::VPC", "AWS::EC2::VPCCidrBlock",
		"AWS::EC2::VPCEndpoint", "AWS::EC2::VPCGatewayAttachment", "AWS::ECS::Cluster",
		"AWS::ECS::Service", "AWS::ECS::TaskDefinition", "AWS::EFS::AccessPoint", "AWS::EFS::FileSystem",
		"AWS::EFS::MountTarget", "AWS::ElasticBeanstalk::Application",
		"AWS::ElasticBeanstalk::ConfigurationTemplate", "AWS::ElasticBeanstalk::Environment",
		"AWS::ElasticLoadBalancingV2::Listener", "AWS::ElasticLoadBalancingV2::ListenerRule",
		"AWS::ElasticLoadBalancingV2::LoadBalancer", "AWS::ElasticLoadBalancingV2::TargetGroup",
		"AWS::Events::ApiDestination", "AWS::Events::Connection", "AWS::Events::EventBus",
		"AWS::Events::Rule", "AWS::Glue::Database", "AWS::GuardDuty::Detector",
		"AWS::GuardDuty::Filter", "AWS::GuardDuty::IPSet", "AWS::GuardDuty::ThreatIntelSet",
		"AWS::IAM::InstanceProfile", "AWS::IAM::Policy", "AWS::IAM::Role", "AWS::KMS::Alias",
		"AWS::KMS::Key", "AWS::Lambda::Alias", "AWS::Lambda::EventSourceMapping", "AWS::Lambda::Function",
		"AWS::Lambda::Permission", "AWS::Lambda::Url", "AWS::Lambda::Version", "AWS::Logs::LogGroup",
		"AWS::Logs::MetricFilter", "AWS::Logs::SubscriptionFilter", "AWS::RDS::DBCluster",
		"AWS::RDS::DBInstance", "AWS::Route53::HostedZone",
		"AWS::S3::Bucket", "AWS::S3::BucketPolicy", "AWS::SNS::Subscription", "AWS::SNS::Topic",
		"AWS::SNS::TopicInlinePolicy", "AWS::SNS::TopicPolicy", "AWS::SQS::Queue",
		"AWS::SQS::QueueInlinePolicy", "AWS::SQS::QueuePolicy", "AWS::SSM::MaintenanceWindowTarget",
		"AWS::SSM::MaintenanceWindowTask", "AWS::SSM::Parameter", "AWS::SecretsManager::ResourcePolicy",
		"AWS::SecretsManager::Secret", "AWS::StepFunctions::StateMachine",
	}
}

// revertHandlers are the handlers a revert runs: update for a patch,
// delete for an out-of-band child, read for the status polls and the
// convergence read.
func revertHandlers() []string { return []string{"read", "update", "delete"} }

// checkRevertTypes refuses a type the snapshot does not hold, one Cloud
// Control cannot update or delete, and one whose handlers list a wildcard
// permission (the role holds no wildcard action).
func checkRevertTypes(types []string) error {
	snap, err := schema.Embedded()
	if err != nil {
		return err
	}
	for _, typ := range types {
		f, ok := snap.Lookup(typ)
		if !ok {
			return fmt.Errorf("revert type %s: not in the registry schema snapshot %s", typ, snap.Source().Version)
		}
		if !f.Updatable() && !slices.Contains(f.Handlers, "delete") {
			return fmt.Errorf("revert type %s: Cloud Control can neither update nor delete it", typ)
		}
		for _, h := range revertHandlers() {
			for _, p := range f.HandlerPermissions[h] {
				if strings.ContainsAny(p, "*?") {
					return fmt.Errorf("revert type %s: its %s handler needs the wildcard permission %s, which the revert role will not hold", typ, h, p)
				}
			}
		}
	}
	return nil
}

// handlerActions returns the sorted, distinct IAM actions the revert
// handlers of types list, leaving out the names IAM does not know
// (schema.IAMAction).
func handlerActions(types []string) ([]string, error) {
	if err := checkRevertTypes(types); err != nil {
		return nil, err
	}
	return schemaHandlerActions(types, revertHandlers(), schema.IAMAction)
}

// schemaHandlerActions returns the sorted, distinct permissions the given
// handlers of types list that keep accepts (types the snapshot lacks are
// skipped).
func schemaHandlerActions(types, handlers []string, keep func(string) bool) ([]string, error) {
	snap, err := schema.Embedded()
	if err != nil {
		return nil, err
	}
	seen := map[string]bool{}
	var out []string
	for _, typ := range types {
		f, ok := snap.Lookup(typ)
		if !ok {
			continue
		}
		for _, h := range handlers {
			for _, p := range f.HandlerPermissions[h] {
				if keep(p) && !seen[strings.ToLower(p)] {
					seen[strings.ToLower(p)] = true
					out = append(out, p)
				}
			}
		}
	}
	slices.Sort(out)
	return out, nil
}

// readHandlerVerb matches the read verbs the read role may be granted for
// Cloud Control's read and list handlers.
var readHandlerVerb = regexp.MustCompile(`^[a-z0-9-]+:(Get|List|Describe|BatchGet|Lookup|View)[A-Za-z0-9]*$`)

// readHandlerActions are the read role's Cloud Control handler grants: the
// read and list handlers' permissions of types, read verbs only and never
// the data reads the role denies itself (dataReadDenials). A type outside
// types reads on what SecurityAudit grants; a refused read is reported
// skipped with the AccessDenied, never guessed.
func readHandlerActions(types []string) ([]string, error) {
	return schemaHandlerActions(types, []string{"read", "list"}, func(p string) bool {
		return schema.IAMAction(p) && readHandlerVerb.MatchString(p) && !slices.Contains(dataReadDenials(), p)
	})
}

// readHandlerTypes are the types the read role holds Cloud Control handler
// grants for: the default revert types (common CDK types and every
// enumerated child type) and any configured revert type.
func readHandlerTypes(revertTypes []string) []string {
	out := append(defaultRevertTypes(), revertTypes...)
	slices.Sort(out)
	return slices.Compact(out)
}

// managedPolicyBudget is the room for actions in one managed policy: IAM
// allows 6,144 characters (whitespace excluded) per policy; the rest of
// the document (version, sid, effect, resource, condition) takes under 200.
const managedPolicyBudget = 5800

// chunkActions splits actions into groups whose JSON ("a","b",...) fits
// one managed policy each, in order.
func chunkActions(actions []string) [][]string {
	var out [][]string
	var cur []string
	size := 0
	for _, a := range actions {
		n := len(a) + 3
		if size+n > managedPolicyBudget && len(cur) > 0 {
			out = append(out, cur)
			cur, size = nil, 0
		}
		cur = append(cur, a)
		size += n
	}
	if len(cur) > 0 {
		out = append(out, cur)
	}
	return out
}

// maxRoleManagedPolicies is IAM's default quota of managed policies per role.
const maxRoleManagedPolicies = 10

// attachHandlerPolicies grants role the revert handlers' actions of types
// in customer managed policies RevertHandlers01.. (each under cond), every
// statement allowed only through an AWS service, and only through the one
// via names when it is set.
func attachHandlerPolicies(stack awscdk.Stack, role awsiam.Role, types []string, cond awscdk.CfnCondition, via calledVia) error {
	actions, err := handlerActions(types)
	if err != nil {
		return err
	}
	return attachServicePolicies(stack, role, "RevertHandlers", "realdrift revert", actions, len(types), maxRoleManagedPolicies, cond, &via)
}

// attachServicePolicies attaches actions to role in customer managed
// policies PREFIX01.. (under cond), each statement allowed only through an
// AWS service (aws:ViaAWSService), at most limit policies. With via, each
// statement also requires aws:CalledVia to hold via's value when its
// condition holds (Fn::If, the key left out otherwise).
func attachServicePolicies(stack awscdk.Stack, role awsiam.Role, prefix, what string, actions []string, types, limit int, cond awscdk.CfnCondition, via *calledVia) error {
	chunks := chunkActions(actions)
	if len(chunks) > limit {
		return fmt.Errorf("%s: the handlers of %d types need %d actions, %d managed policies; the role has room for %d", what, types, len(actions), len(chunks), limit)
	}
	conditions := func() *map[string]any {
		c := map[string]any{"Bool": map[string]any{"aws:ViaAWSService": "true"}}
		if via != nil {
			c["ForAnyValue:StringEquals"] = awscdk.Fn_ConditionIf(via.cond.LogicalId(),
				map[string]any{"aws:CalledVia": via.value}, awscdk.Aws_NO_VALUE())
		}
		return &c
	}
	for i, chunk := range chunks {
		p := awsiam.NewManagedPolicy(stack, jsii.String(fmt.Sprintf("%s%02d", prefix, i+1)), &awsiam.ManagedPolicyProps{
			Description: jsii.String(fmt.Sprintf("%s: Cloud Control handler permissions of %d types, part %d of %d (through Cloud Control only).", what, types, i+1, len(chunks))),
			Roles:       &[]awsiam.IRole{role},
			Statements: &[]awsiam.PolicyStatement{awsiam.NewPolicyStatement(&awsiam.PolicyStatementProps{
				Sid:        jsii.String(fmt.Sprintf("%s%02d", prefix, i+1)),
				Actions:    jsii.Strings(chunk...),
				Resources:  jsii.Strings("*"),
				Conditions: conditions(),
			})},
		})
		p.Node().DefaultChild().(awscdk.CfnResource).CfnOptions().SetCondition(cond)
	}
	return nil
}
