package conformance_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/acm"
	aas "github.com/aws/aws-sdk-go-v2/service/applicationautoscaling"
	aastypes "github.com/aws/aws-sdk-go-v2/service/applicationautoscaling/types"
	"github.com/aws/aws-sdk-go-v2/service/appsync"
	"github.com/aws/aws-sdk-go-v2/service/autoscaling"
	"github.com/aws/aws-sdk-go-v2/service/budgets"
	"github.com/aws/aws-sdk-go-v2/service/cloudcontrol"
	"github.com/aws/aws-sdk-go-v2/service/cloudformation"
	cfntypes "github.com/aws/aws-sdk-go-v2/service/cloudformation/types"
	"github.com/aws/aws-sdk-go-v2/service/cloudtrail"
	"github.com/aws/aws-sdk-go-v2/service/cloudwatch"
	"github.com/aws/aws-sdk-go-v2/service/cloudwatchlogs"
	"github.com/aws/aws-sdk-go-v2/service/codebuild"
	"github.com/aws/aws-sdk-go-v2/service/codedeploy"
	"github.com/aws/aws-sdk-go-v2/service/cognitoidentity"
	cip "github.com/aws/aws-sdk-go-v2/service/cognitoidentityprovider"
	"github.com/aws/aws-sdk-go-v2/service/configservice"
	dms "github.com/aws/aws-sdk-go-v2/service/databasemigrationservice"
	dmstypes "github.com/aws/aws-sdk-go-v2/service/databasemigrationservice/types"
	"github.com/aws/aws-sdk-go-v2/service/dax"
	"github.com/aws/aws-sdk-go-v2/service/dlm"
	"github.com/aws/aws-sdk-go-v2/service/docdb"
	"github.com/aws/aws-sdk-go-v2/service/ec2"
	ec2types "github.com/aws/aws-sdk-go-v2/service/ec2/types"
	"github.com/aws/aws-sdk-go-v2/service/ecs"
	"github.com/aws/aws-sdk-go-v2/service/elasticache"
	eb "github.com/aws/aws-sdk-go-v2/service/elasticbeanstalk"
	elbv2 "github.com/aws/aws-sdk-go-v2/service/elasticloadbalancingv2"
	elbv2types "github.com/aws/aws-sdk-go-v2/service/elasticloadbalancingv2/types"
	"github.com/aws/aws-sdk-go-v2/service/eventbridge"
	"github.com/aws/aws-sdk-go-v2/service/glue"
	"github.com/aws/aws-sdk-go-v2/service/iam"
	"github.com/aws/aws-sdk-go-v2/service/kafka"
	"github.com/aws/aws-sdk-go-v2/service/kms"
	"github.com/aws/aws-sdk-go-v2/service/lakeformation"
	"github.com/aws/aws-sdk-go-v2/service/lambda"
	lex "github.com/aws/aws-sdk-go-v2/service/lexmodelsv2"
	"github.com/aws/aws-sdk-go-v2/service/mediaconvert"
	"github.com/aws/aws-sdk-go-v2/service/memorydb"
	"github.com/aws/aws-sdk-go-v2/service/organizations"
	rss "github.com/aws/aws-sdk-go-v2/service/redshiftserverless"
	"github.com/aws/aws-sdk-go-v2/service/route53"
	r53types "github.com/aws/aws-sdk-go-v2/service/route53/types"
	"github.com/aws/aws-sdk-go-v2/service/s3"
	"github.com/aws/aws-sdk-go-v2/service/sagemaker"
	"github.com/aws/aws-sdk-go-v2/service/scheduler"
	"github.com/aws/aws-sdk-go-v2/service/secretsmanager"
	"github.com/aws/aws-sdk-go-v2/service/securityhub"
	shtypes "github.com/aws/aws-sdk-go-v2/service/securityhub/types"
	"github.com/aws/aws-sdk-go-v2/service/servicediscovery"
	"github.com/aws/aws-sdk-go-v2/service/ses"
	"github.com/aws/aws-sdk-go-v2/service/sns"
	"github.com/aws/aws-sdk-go-v2/service/sqs"
	sqstypes "github.com/aws/aws-sdk-go-v2/service/sqs/types"
	"github.com/aws/aws-sdk-go-v2/service/ssm"
	"github.com/aws/aws-sdk-go-v2/service/sts"
)

// check is one served operation's entry: the resource types whose every
// resource drives it (none: once per account region) and the call.
type check struct {
	types []string
	// write marks an operation that changes the world: it runs on a
	// server of its own per world.
	write bool
	// pending keeps the write server's Cloud Control requests
	// IN_PROGRESS (an hour's OperationDelay), so a request can still be
	// cancelled however slowly the machine gets to the next call.
	pending bool
	// key overrides the access key (default: the world's key of the
	// target's account).
	key  func(w *world, t target) string
	call func(c context.Context, t target) (any, error)
}

func on(types ...string) []string { return types }

// jsonText is v as JSON text ("" for nil).
func jsonText(v any) string {
	if v == nil {
		return ""
	}
	if s, ok := v.(string); ok {
		return s
	}
	b, _ := json.Marshal(v)
	return string(b)
}

const conformancePolicy = `{"Version":"2012-10-17","Statement":[{"Effect":"Allow","Action":"s3:GetObject","Resource":"*"}]}`

// operationTable maps every served operation (signing name:Operation) to
// its entry.
func operationTable() map[string]check {
	return map[string]check{
		// ACM
		"acm:DescribeCertificate": {types: on("AWS::CertificateManager::Certificate"), call: func(c context.Context, t target) (any, error) {
			return acm.NewFromConfig(t.cfg).DescribeCertificate(c, &acm.DescribeCertificateInput{CertificateArn: aws.String(t.phys)})
		}},
		"acm:ListTagsForCertificate": {types: on("AWS::CertificateManager::Certificate"), call: func(c context.Context, t target) (any, error) {
			return acm.NewFromConfig(t.cfg).ListTagsForCertificate(c, &acm.ListTagsForCertificateInput{CertificateArn: aws.String(t.phys)})
		}},
		// Application Auto Scaling
		"application-autoscaling:DescribeScalingPolicies": {types: on("AWS::ApplicationAutoScaling::ScalableTarget", "AWS::ApplicationAutoScaling::ScalingPolicy"), call: func(c context.Context, t target) (any, error) {
			in := &aas.DescribeScalingPoliciesInput{ServiceNamespace: aastypes.ServiceNamespace(t.or("ServiceNamespace", "ecs"))}
			if id := t.or("ResourceId", t.s("ScalingTargetId")); id != "" && !strings.HasPrefix(id, "arn:") {
				in.ResourceId = aws.String(id)
			}
			return aas.NewFromConfig(t.cfg).DescribeScalingPolicies(c, in)
		}},
		// AppSync
		"appsync:ListApiKeys": {types: on("AWS::AppSync::GraphQLApi"), call: func(c context.Context, t target) (any, error) {
			return appsync.NewFromConfig(t.cfg).ListApiKeys(c, &appsync.ListApiKeysInput{ApiId: aws.String(t.or("ApiId", t.phys))})
		}},
		// Auto Scaling
		"autoscaling:DescribeLifecycleHooks": {types: on("AWS::AutoScaling::AutoScalingGroup"), call: func(c context.Context, t target) (any, error) {
			return autoscaling.NewFromConfig(t.cfg).DescribeLifecycleHooks(c, &autoscaling.DescribeLifecycleHooksInput{AutoScalingGroupName: aws.String(t.phys)})
		}},
		"autoscaling:DescribeScheduledActions": {types: on("AWS::AutoScaling::AutoScalingGroup"), call: func(c context.Context, t target) (any, error) {
			return autoscaling.NewFromConfig(t.cfg).DescribeScheduledActions(c, &autoscaling.DescribeScheduledActionsInput{AutoScalingGroupName: aws.String(t.phys)})
		}},
		// Budgets
		"budgets:DescribeBudget": {types: on("AWS::Budgets::Budget"), call: func(c context.Context, t target) (any, error) {
			return budgets.NewFromConfig(t.cfg).DescribeBudget(c, &budgets.DescribeBudgetInput{AccountId: aws.String(t.account), BudgetName: aws.String(t.phys)})
		}},
		// Cloud Control
		"cloudcontrolapi:GetResource": {types: on("*"), call: func(c context.Context, t target) (any, error) {
			return cloudcontrol.NewFromConfig(t.cfg).GetResource(c, &cloudcontrol.GetResourceInput{TypeName: aws.String(t.typ), Identifier: aws.String(t.id)})
		}},
		"cloudcontrolapi:ListResources": {types: on("@type"), call: func(c context.Context, t target) (any, error) {
			return cloudcontrol.NewFromConfig(t.cfg).ListResources(c, &cloudcontrol.ListResourcesInput{TypeName: aws.String(t.id)})
		}},
		"cloudcontrolapi:UpdateResource": {types: on("AWS::SQS::Queue"), write: true, call: func(c context.Context, t target) (any, error) { return ccUpdate(c, t) }},
		"cloudcontrolapi:GetResourceRequestStatus": {types: on("AWS::SQS::Queue"), write: true, call: func(c context.Context, t target) (any, error) {
			up, err := ccUpdate(c, t)
			if err != nil {
				return nil, err
			}
			time.Sleep(5 * time.Millisecond)
			return cloudcontrol.NewFromConfig(t.cfg).GetResourceRequestStatus(c, &cloudcontrol.GetResourceRequestStatusInput{RequestToken: up.ProgressEvent.RequestToken})
		}},
		"cloudcontrolapi:CancelResourceRequest": {types: on("AWS::SQS::Queue"), write: true, pending: true, call: func(c context.Context, t target) (any, error) {
			up, err := ccUpdate(c, t)
			if err != nil {
				return nil, err
			}
			return cloudcontrol.NewFromConfig(t.cfg).CancelResourceRequest(c, &cloudcontrol.CancelResourceRequestInput{RequestToken: up.ProgressEvent.RequestToken})
		}},
		"cloudcontrolapi:DeleteResource": {types: on("AWS::SQS::Queue", "AWS::SNS::Topic"), write: true, call: func(c context.Context, t target) (any, error) {
			return cloudcontrol.NewFromConfig(t.cfg).DeleteResource(c, &cloudcontrol.DeleteResourceInput{TypeName: aws.String(t.typ), Identifier: aws.String(t.id)})
		}},
		// CloudFormation
		"cloudformation:DescribeStacks": {types: on("@stack"), call: func(c context.Context, t target) (any, error) {
			return cloudformation.NewFromConfig(t.cfg).DescribeStacks(c, &cloudformation.DescribeStacksInput{StackName: aws.String(t.id)})
		}},
		"cloudformation:ListStacks": {call: func(c context.Context, t target) (any, error) {
			return cloudformation.NewFromConfig(t.cfg).ListStacks(c, &cloudformation.ListStacksInput{})
		}},
		"cloudformation:GetTemplate": {types: on("@stack"), call: func(c context.Context, t target) (any, error) {
			return cloudformation.NewFromConfig(t.cfg).GetTemplate(c, &cloudformation.GetTemplateInput{StackName: aws.String(t.id)})
		}},
		"cloudformation:ListStackResources": {types: on("@stack"), call: func(c context.Context, t target) (any, error) {
			return cloudformation.NewFromConfig(t.cfg).ListStackResources(c, &cloudformation.ListStackResourcesInput{StackName: aws.String(t.id)})
		}},
		"cloudformation:DescribeStackResources": {types: on("@stack"), call: func(c context.Context, t target) (any, error) {
			return cloudformation.NewFromConfig(t.cfg).DescribeStackResources(c, &cloudformation.DescribeStackResourcesInput{StackName: aws.String(t.id)})
		}},
		"cloudformation:ListExports": {call: func(c context.Context, t target) (any, error) {
			return cloudformation.NewFromConfig(t.cfg).ListExports(c, &cloudformation.ListExportsInput{})
		}},
		"cloudformation:ListImports": {types: on("@export"), call: func(c context.Context, t target) (any, error) {
			return cloudformation.NewFromConfig(t.cfg).ListImports(c, &cloudformation.ListImportsInput{ExportName: aws.String(t.id)})
		}},
		"cloudformation:DescribeType": {types: on("@type"), call: func(c context.Context, t target) (any, error) {
			return cloudformation.NewFromConfig(t.cfg).DescribeType(c, &cloudformation.DescribeTypeInput{Type: cfntypes.RegistryTypeResource, TypeName: aws.String(t.id)})
		}},
		// CodeBuild
		"codebuild:BatchGetProjects": {types: on("AWS::CodeBuild::Project"), call: func(c context.Context, t target) (any, error) {
			return codebuild.NewFromConfig(t.cfg).BatchGetProjects(c, &codebuild.BatchGetProjectsInput{Names: []string{t.phys}})
		}},
		"codebuild:BatchGetReportGroups": {types: on("AWS::CodeBuild::ReportGroup"), call: func(c context.Context, t target) (any, error) {
			return codebuild.NewFromConfig(t.cfg).BatchGetReportGroups(c, &codebuild.BatchGetReportGroupsInput{ReportGroupArns: []string{t.phys}})
		}},
		// CodeDeploy
		"codedeploy:ListDeploymentGroups": {types: on("AWS::CodeDeploy::Application", "AWS::CodeDeploy::DeploymentGroup"), call: func(c context.Context, t target) (any, error) {
			app := t.phys
			if t.typ == "AWS::CodeDeploy::DeploymentGroup" {
				app = t.s("ApplicationName")
			}
			return codedeploy.NewFromConfig(t.cfg).ListDeploymentGroups(c, &codedeploy.ListDeploymentGroupsInput{ApplicationName: aws.String(app)})
		}},
		// Cognito
		"cognito-identity:DescribeIdentityPool": {types: on("AWS::Cognito::IdentityPool"), call: func(c context.Context, t target) (any, error) {
			return cognitoidentity.NewFromConfig(t.cfg).DescribeIdentityPool(c, &cognitoidentity.DescribeIdentityPoolInput{IdentityPoolId: aws.String(t.phys)})
		}},
		"cognito-idp:ListUserPoolClients": {types: on("AWS::Cognito::UserPool"), call: func(c context.Context, t target) (any, error) {
			return cip.NewFromConfig(t.cfg).ListUserPoolClients(c, &cip.ListUserPoolClientsInput{UserPoolId: aws.String(t.phys), MaxResults: aws.Int32(60)})
		}},
		"cognito-idp:ListGroups": {types: on("AWS::Cognito::UserPool"), call: func(c context.Context, t target) (any, error) {
			return cip.NewFromConfig(t.cfg).ListGroups(c, &cip.ListGroupsInput{UserPoolId: aws.String(t.phys), Limit: aws.Int32(60)})
		}},
		// Config
		"config:DescribeConfigurationRecorders": {types: on("AWS::Config::ConfigurationRecorder"), call: func(c context.Context, t target) (any, error) {
			return configservice.NewFromConfig(t.cfg).DescribeConfigurationRecorders(c, &configservice.DescribeConfigurationRecordersInput{ConfigurationRecorderNames: []string{t.phys}})
		}},
		"config:DescribeDeliveryChannels": {types: on("AWS::Config::DeliveryChannel"), call: func(c context.Context, t target) (any, error) {
			return configservice.NewFromConfig(t.cfg).DescribeDeliveryChannels(c, &configservice.DescribeDeliveryChannelsInput{DeliveryChannelNames: []string{t.phys}})
		}},
		// DAX
		"dax:DescribeClusters": {types: on("AWS::DAX::Cluster"), call: func(c context.Context, t target) (any, error) {
			return dax.NewFromConfig(t.cfg).DescribeClusters(c, &dax.DescribeClustersInput{ClusterNames: []string{t.phys}})
		}},
		"dax:DescribeSubnetGroups": {types: on("AWS::DAX::SubnetGroup"), call: func(c context.Context, t target) (any, error) {
			return dax.NewFromConfig(t.cfg).DescribeSubnetGroups(c, &dax.DescribeSubnetGroupsInput{SubnetGroupNames: []string{t.phys}})
		}},
		"dax:DescribeParameterGroups": {types: on("AWS::DAX::ParameterGroup"), call: func(c context.Context, t target) (any, error) {
			return dax.NewFromConfig(t.cfg).DescribeParameterGroups(c, &dax.DescribeParameterGroupsInput{ParameterGroupNames: []string{t.phys}})
		}},
		"dax:DescribeParameters": {types: on("AWS::DAX::ParameterGroup"), call: func(c context.Context, t target) (any, error) {
			return dax.NewFromConfig(t.cfg).DescribeParameters(c, &dax.DescribeParametersInput{ParameterGroupName: aws.String(t.phys)})
		}},
		"dax:ListTags": {types: on("AWS::DAX::Cluster"), call: func(c context.Context, t target) (any, error) {
			return dax.NewFromConfig(t.cfg).ListTags(c, &dax.ListTagsInput{ResourceName: aws.String(t.or("Arn", fmt.Sprintf("arn:aws:dax:%s:%s:cache/%s", t.region, t.account, t.phys)))})
		}},
		// DLM
		"dlm:GetLifecyclePolicy": {types: on("AWS::DLM::LifecyclePolicy"), call: func(c context.Context, t target) (any, error) {
			return dlm.NewFromConfig(t.cfg).GetLifecyclePolicy(c, &dlm.GetLifecyclePolicyInput{PolicyId: aws.String(t.phys)})
		}},
		// DMS
		"dms:DescribeEndpoints": {types: on("AWS::DMS::Endpoint"), call: func(c context.Context, t target) (any, error) {
			return dms.NewFromConfig(t.cfg).DescribeEndpoints(c, &dms.DescribeEndpointsInput{Filters: dmsFilter(t, "endpoint-arn", "endpoint-id", "EndpointIdentifier")})
		}},
		"dms:DescribeReplicationInstances": {types: on("AWS::DMS::ReplicationInstance"), call: func(c context.Context, t target) (any, error) {
			return dms.NewFromConfig(t.cfg).DescribeReplicationInstances(c, &dms.DescribeReplicationInstancesInput{Filters: dmsFilter(t, "replication-instance-arn", "replication-instance-id", "ReplicationInstanceIdentifier")})
		}},
		"dms:DescribeReplicationSubnetGroups": {types: on("AWS::DMS::ReplicationSubnetGroup"), call: func(c context.Context, t target) (any, error) {
			return dms.NewFromConfig(t.cfg).DescribeReplicationSubnetGroups(c, &dms.DescribeReplicationSubnetGroupsInput{Filters: dmsFilter(t, "", "replication-subnet-group-id", "ReplicationSubnetGroupIdentifier")})
		}},
		"dms:DescribeReplicationTasks": {types: on("AWS::DMS::ReplicationTask"), call: func(c context.Context, t target) (any, error) {
			return dms.NewFromConfig(t.cfg).DescribeReplicationTasks(c, &dms.DescribeReplicationTasksInput{Filters: dmsFilter(t, "replication-task-arn", "replication-task-id", "ReplicationTaskIdentifier")})
		}},
		"dms:ListTagsForResource": {types: on("AWS::DMS::Endpoint", "AWS::DMS::ReplicationInstance", "AWS::DMS::ReplicationTask"), call: func(c context.Context, t target) (any, error) {
			return dms.NewFromConfig(t.cfg).ListTagsForResource(c, &dms.ListTagsForResourceInput{ResourceArn: aws.String(t.arn(""))})
		}},
		// EC2
		"ec2:DescribeNetworkAcls": {types: on("AWS::EC2::NetworkAcl"), call: func(c context.Context, t target) (any, error) {
			return ec2.NewFromConfig(t.cfg).DescribeNetworkAcls(c, &ec2.DescribeNetworkAclsInput{NetworkAclIds: []string{t.phys}})
		}},
		"ec2:DescribeSubnets": {types: on("AWS::EC2::Subnet"), call: func(c context.Context, t target) (any, error) {
			return ec2.NewFromConfig(t.cfg).DescribeSubnets(c, &ec2.DescribeSubnetsInput{SubnetIds: []string{t.phys}})
		}},
		"ec2:DescribeSecurityGroups": {types: on("AWS::EC2::SecurityGroup"), call: func(c context.Context, t target) (any, error) {
			return ec2.NewFromConfig(t.cfg).DescribeSecurityGroups(c, &ec2.DescribeSecurityGroupsInput{GroupIds: []string{t.or("GroupId", t.phys)}})
		}},
		"ec2:DescribeRouteTables": {types: on("AWS::EC2::RouteTable"), call: func(c context.Context, t target) (any, error) {
			return ec2.NewFromConfig(t.cfg).DescribeRouteTables(c, &ec2.DescribeRouteTablesInput{RouteTableIds: []string{t.phys}})
		}},
		"ec2:DescribeAddresses": {types: on("AWS::EC2::EIP"), call: func(c context.Context, t target) (any, error) {
			return ec2.NewFromConfig(t.cfg).DescribeAddresses(c, &ec2.DescribeAddressesInput{PublicIps: []string{t.or("PublicIp", t.phys)}})
		}},
		"ec2:DescribeLaunchTemplateVersions": {types: on("AWS::EC2::LaunchTemplate"), call: func(c context.Context, t target) (any, error) {
			return ec2.NewFromConfig(t.cfg).DescribeLaunchTemplateVersions(c, &ec2.DescribeLaunchTemplateVersionsInput{LaunchTemplateId: aws.String(t.or("LaunchTemplateId", t.phys)), Versions: []string{"$Default"}})
		}},
		"ec2:DescribeClientVpnEndpoints": {types: on("AWS::EC2::ClientVpnEndpoint"), call: func(c context.Context, t target) (any, error) {
			return ec2.NewFromConfig(t.cfg).DescribeClientVpnEndpoints(c, &ec2.DescribeClientVpnEndpointsInput{ClientVpnEndpointIds: []string{t.phys}})
		}},
		"ec2:DescribeClientVpnTargetNetworks": {types: on("AWS::EC2::ClientVpnEndpoint"), call: func(c context.Context, t target) (any, error) {
			return ec2.NewFromConfig(t.cfg).DescribeClientVpnTargetNetworks(c, &ec2.DescribeClientVpnTargetNetworksInput{ClientVpnEndpointId: aws.String(t.phys)})
		}},
		"ec2:DescribeClientVpnAuthorizationRules": {types: on("AWS::EC2::ClientVpnEndpoint"), call: func(c context.Context, t target) (any, error) {
			return ec2.NewFromConfig(t.cfg).DescribeClientVpnAuthorizationRules(c, &ec2.DescribeClientVpnAuthorizationRulesInput{ClientVpnEndpointId: aws.String(t.phys)})
		}},
		"ec2:DescribeTransitGatewayRouteTables": {types: on("AWS::EC2::TransitGateway"), call: func(c context.Context, t target) (any, error) {
			return ec2.NewFromConfig(t.cfg).DescribeTransitGatewayRouteTables(c, &ec2.DescribeTransitGatewayRouteTablesInput{Filters: []ec2types.Filter{{Name: aws.String("transit-gateway-id"), Values: []string{t.phys}}}})
		}},
		"ec2:DescribeTransitGatewayVpcAttachments": {types: on("AWS::EC2::TransitGateway"), call: func(c context.Context, t target) (any, error) {
			return ec2.NewFromConfig(t.cfg).DescribeTransitGatewayVpcAttachments(c, &ec2.DescribeTransitGatewayVpcAttachmentsInput{Filters: []ec2types.Filter{{Name: aws.String("transit-gateway-id"), Values: []string{t.phys}}}})
		}},
		"ec2:ReplaceNetworkAclEntry": {types: on("AWS::EC2::NetworkAclEntry"), write: true, call: func(c context.Context, t target) (any, error) {
			n, _ := strconv.Atoi(t.s("RuleNumber"))
			egress := t.model["Egress"] == true
			return ec2.NewFromConfig(t.cfg).ReplaceNetworkAclEntry(c, &ec2.ReplaceNetworkAclEntryInput{NetworkAclId: aws.String(t.s("NetworkAclId")), RuleNumber: aws.Int32(int32(n)),
				Protocol: aws.String(t.or("Protocol", "-1")), RuleAction: ec2types.RuleAction(t.or("RuleAction", "allow")), Egress: aws.Bool(egress), CidrBlock: aws.String(t.or("CidrBlock", "10.0.0.0/8"))})
		}},
		// ECS
		"ecs:ListServices": {types: on("AWS::ECS::Cluster"), call: func(c context.Context, t target) (any, error) {
			return ecs.NewFromConfig(t.cfg).ListServices(c, &ecs.ListServicesInput{Cluster: aws.String(t.phys)})
		}},
		"ecs:DescribeServices": {types: on("AWS::ECS::Service"), call: func(c context.Context, t target) (any, error) {
			return ecs.NewFromConfig(t.cfg).DescribeServices(c, &ecs.DescribeServicesInput{Cluster: aws.String(t.or("Cluster", "default")), Services: []string{t.or("ServiceArn", t.phys)}})
		}},
		// ElastiCache
		"elasticache:DescribeCacheParameterGroups": {types: on("AWS::ElastiCache::ParameterGroup"), call: func(c context.Context, t target) (any, error) {
			return elasticache.NewFromConfig(t.cfg).DescribeCacheParameterGroups(c, &elasticache.DescribeCacheParameterGroupsInput{CacheParameterGroupName: aws.String(t.phys)})
		}},
		"elasticache:DescribeCacheParameters": {types: on("AWS::ElastiCache::ParameterGroup"), call: func(c context.Context, t target) (any, error) {
			return elasticache.NewFromConfig(t.cfg).DescribeCacheParameters(c, &elasticache.DescribeCacheParametersInput{CacheParameterGroupName: aws.String(t.phys)})
		}},
		"elasticache:DescribeReplicationGroups": {types: on("AWS::ElastiCache::ReplicationGroup"), call: func(c context.Context, t target) (any, error) {
			return elasticache.NewFromConfig(t.cfg).DescribeReplicationGroups(c, &elasticache.DescribeReplicationGroupsInput{ReplicationGroupId: aws.String(t.phys)})
		}},
		"elasticache:DescribeCacheClusters": {types: on("AWS::ElastiCache::CacheCluster", "AWS::ElastiCache::ReplicationGroup"), call: func(c context.Context, t target) (any, error) {
			id := t.phys
			if t.typ == "AWS::ElastiCache::ReplicationGroup" {
				id += "-001" // a replication group's first member
			}
			return elasticache.NewFromConfig(t.cfg).DescribeCacheClusters(c, &elasticache.DescribeCacheClustersInput{CacheClusterId: aws.String(id)})
		}},
		"elasticache:DescribeUsers": {types: on("AWS::ElastiCache::User"), call: func(c context.Context, t target) (any, error) {
			return elasticache.NewFromConfig(t.cfg).DescribeUsers(c, &elasticache.DescribeUsersInput{UserId: aws.String(t.or("UserId", t.phys))})
		}},
		"elasticache:ListTagsForResource": {types: on("AWS::ElastiCache::CacheCluster", "AWS::ElastiCache::ReplicationGroup", "AWS::ElastiCache::ParameterGroup", "AWS::ElastiCache::User"), call: func(c context.Context, t target) (any, error) {
			kind := map[string]string{"AWS::ElastiCache::CacheCluster": "cluster", "AWS::ElastiCache::ReplicationGroup": "replicationgroup", "AWS::ElastiCache::ParameterGroup": "parametergroup", "AWS::ElastiCache::User": "user"}[t.typ]
			arn := t.or("ARN", t.or("Arn", fmt.Sprintf("arn:aws:elasticache:%s:%s:%s:%s", t.region, t.account, kind, t.phys)))
			return elasticache.NewFromConfig(t.cfg).ListTagsForResource(c, &elasticache.ListTagsForResourceInput{ResourceName: aws.String(arn)})
		}},
		// Elastic Beanstalk
		"elasticbeanstalk:DescribeConfigurationSettings": {types: on("AWS::ElasticBeanstalk::Environment"), call: func(c context.Context, t target) (any, error) {
			return eb.NewFromConfig(t.cfg).DescribeConfigurationSettings(c, &eb.DescribeConfigurationSettingsInput{ApplicationName: aws.String(t.s("ApplicationName")), EnvironmentName: aws.String(t.or("EnvironmentName", t.phys))})
		}},
		// ELBv2
		"elasticloadbalancing:DescribeListenerCertificates": {types: on("AWS::ElasticLoadBalancingV2::Listener"), call: func(c context.Context, t target) (any, error) {
			return elbv2.NewFromConfig(t.cfg).DescribeListenerCertificates(c, &elbv2.DescribeListenerCertificatesInput{ListenerArn: aws.String(t.phys)})
		}},
		"elasticloadbalancing:GetTrustStoreCaCertificatesBundle": {types: on("AWS::ElasticLoadBalancingV2::TrustStore"), call: func(c context.Context, t target) (any, error) {
			return elbv2.NewFromConfig(t.cfg).GetTrustStoreCaCertificatesBundle(c, &elbv2.GetTrustStoreCaCertificatesBundleInput{TrustStoreArn: aws.String(t.phys)})
		}},
		"elasticloadbalancing:ModifyLoadBalancerAttributes": {types: on("AWS::ElasticLoadBalancingV2::LoadBalancer"), write: true, call: func(c context.Context, t target) (any, error) {
			return elbv2.NewFromConfig(t.cfg).ModifyLoadBalancerAttributes(c, &elbv2.ModifyLoadBalancerAttributesInput{LoadBalancerArn: aws.String(t.phys),
				Attributes: []elbv2types.LoadBalancerAttribute{{Key: aws.String("deletion_protection.enabled"), Value: aws.String("false")}}})
		}},
		"elasticloadbalancing:ModifyTargetGroupAttributes": {types: on("AWS::ElasticLoadBalancingV2::TargetGroup"), write: true, call: func(c context.Context, t target) (any, error) {
			return elbv2.NewFromConfig(t.cfg).ModifyTargetGroupAttributes(c, &elbv2.ModifyTargetGroupAttributesInput{TargetGroupArn: aws.String(t.phys),
				Attributes: []elbv2types.TargetGroupAttribute{{Key: aws.String("deregistration_delay.timeout_seconds"), Value: aws.String("300")}}})
		}},
		"elasticloadbalancing:ModifyListenerAttributes": {types: on("AWS::ElasticLoadBalancingV2::Listener"), write: true, call: func(c context.Context, t target) (any, error) {
			return elbv2.NewFromConfig(t.cfg).ModifyListenerAttributes(c, &elbv2.ModifyListenerAttributesInput{ListenerArn: aws.String(t.phys),
				Attributes: []elbv2types.ListenerAttribute{{Key: aws.String("tcp.idle_timeout.seconds"), Value: aws.String("350")}}})
		}},
		// EventBridge
		"events:ListRules": {call: func(c context.Context, t target) (any, error) {
			return eventbridge.NewFromConfig(t.cfg).ListRules(c, &eventbridge.ListRulesInput{})
		}},
		// Glue
		"glue:GetClassifier": {types: on("AWS::Glue::Classifier"), call: func(c context.Context, t target) (any, error) {
			return glue.NewFromConfig(t.cfg).GetClassifier(c, &glue.GetClassifierInput{Name: aws.String(t.phys)})
		}},
		"glue:GetWorkflow": {types: on("AWS::Glue::Workflow"), call: func(c context.Context, t target) (any, error) {
			return glue.NewFromConfig(t.cfg).GetWorkflow(c, &glue.GetWorkflowInput{Name: aws.String(t.phys)})
		}},
		"glue:GetTags": {types: on("AWS::Glue::Workflow", "AWS::Glue::Job", "AWS::Glue::Crawler"), call: func(c context.Context, t target) (any, error) {
			kind := map[string]string{"AWS::Glue::Workflow": "workflow", "AWS::Glue::Job": "job", "AWS::Glue::Crawler": "crawler"}[t.typ]
			return glue.NewFromConfig(t.cfg).GetTags(c, &glue.GetTagsInput{ResourceArn: aws.String(fmt.Sprintf("arn:aws:glue:%s:%s:%s/%s", t.region, t.account, kind, t.phys))})
		}},
		"glue:GetConnection": {types: on("AWS::Glue::Connection"), call: func(c context.Context, t target) (any, error) {
			return glue.NewFromConfig(t.cfg).GetConnection(c, &glue.GetConnectionInput{Name: aws.String(t.phys)})
		}},
		"glue:GetSecurityConfiguration": {types: on("AWS::Glue::SecurityConfiguration"), call: func(c context.Context, t target) (any, error) {
			return glue.NewFromConfig(t.cfg).GetSecurityConfiguration(c, &glue.GetSecurityConfigurationInput{Name: aws.String(t.phys)})
		}},
		"glue:GetTable": {types: on("AWS::Glue::Table"), call: func(c context.Context, t target) (any, error) {
			return glue.NewFromConfig(t.cfg).GetTable(c, &glue.GetTableInput{DatabaseName: aws.String(t.s("DatabaseName")), Name: aws.String(t.or("TableInput.Name", t.phys))})
		}},
		"glue:GetTables": {types: on("AWS::Glue::Database"), call: func(c context.Context, t target) (any, error) {
			return glue.NewFromConfig(t.cfg).GetTables(c, &glue.GetTablesInput{DatabaseName: aws.String(t.or("DatabaseInput.Name", t.phys))})
		}},
		// IAM
		"iam:ListRolePolicies": {types: on("AWS::IAM::Role"), call: func(c context.Context, t target) (any, error) {
			return iam.NewFromConfig(t.cfg).ListRolePolicies(c, &iam.ListRolePoliciesInput{RoleName: aws.String(t.phys)})
		}},
		"iam:GetRolePolicy": {types: on("AWS::IAM::Role"), call: func(c context.Context, t target) (any, error) {
			cl := iam.NewFromConfig(t.cfg)
			l, err := cl.ListRolePolicies(c, &iam.ListRolePoliciesInput{RoleName: aws.String(t.phys)})
			if err != nil || len(l.PolicyNames) == 0 {
				return nil, firstErr(err, errNothing)
			}
			var out any
			for _, n := range l.PolicyNames {
				if out, err = cl.GetRolePolicy(c, &iam.GetRolePolicyInput{RoleName: aws.String(t.phys), PolicyName: aws.String(n)}); err != nil {
					return nil, err
				}
			}
			return out, nil
		}},
		"iam:GetUserPolicy": {types: on("AWS::IAM::User"), call: func(c context.Context, t target) (any, error) {
			cl := iam.NewFromConfig(t.cfg)
			l, err := cl.ListUserPolicies(c, &iam.ListUserPoliciesInput{UserName: aws.String(t.phys)})
			if err != nil {
				return cl.GetUserPolicy(c, &iam.GetUserPolicyInput{UserName: aws.String(t.phys), PolicyName: aws.String(firstPolicyName(t))})
			}
			if len(l.PolicyNames) == 0 {
				return nil, errNothing
			}
			return cl.GetUserPolicy(c, &iam.GetUserPolicyInput{UserName: aws.String(t.phys), PolicyName: aws.String(l.PolicyNames[0])})
		}},
		"iam:GetGroupPolicy": {types: on("AWS::IAM::Group"), call: func(c context.Context, t target) (any, error) {
			return iam.NewFromConfig(t.cfg).GetGroupPolicy(c, &iam.GetGroupPolicyInput{GroupName: aws.String(t.phys), PolicyName: aws.String(firstPolicyName(t))})
		}},
		"iam:GetPolicy": {types: on("AWS::IAM::ManagedPolicy"), call: func(c context.Context, t target) (any, error) {
			return iam.NewFromConfig(t.cfg).GetPolicy(c, &iam.GetPolicyInput{PolicyArn: aws.String(t.arn("PolicyArn"))})
		}},
		"iam:GetPolicyVersion": {types: on("AWS::IAM::ManagedPolicy"), call: func(c context.Context, t target) (any, error) {
			cl := iam.NewFromConfig(t.cfg)
			p, err := cl.GetPolicy(c, &iam.GetPolicyInput{PolicyArn: aws.String(t.arn("PolicyArn"))})
			if err != nil {
				return nil, err
			}
			return cl.GetPolicyVersion(c, &iam.GetPolicyVersionInput{PolicyArn: aws.String(t.arn("PolicyArn")), VersionId: p.Policy.DefaultVersionId})
		}},
		"iam:ListPolicyVersions": {types: on("AWS::IAM::ManagedPolicy"), call: func(c context.Context, t target) (any, error) {
			return iam.NewFromConfig(t.cfg).ListPolicyVersions(c, &iam.ListPolicyVersionsInput{PolicyArn: aws.String(t.arn("PolicyArn"))})
		}},
		"iam:ListEntitiesForPolicy": {types: on("AWS::IAM::ManagedPolicy"), call: func(c context.Context, t target) (any, error) {
			return iam.NewFromConfig(t.cfg).ListEntitiesForPolicy(c, &iam.ListEntitiesForPolicyInput{PolicyArn: aws.String(t.arn("PolicyArn"))})
		}},
		"iam:CreatePolicyVersion": {types: on("AWS::IAM::ManagedPolicy"), write: true, call: func(c context.Context, t target) (any, error) {
			return iam.NewFromConfig(t.cfg).CreatePolicyVersion(c, &iam.CreatePolicyVersionInput{PolicyArn: aws.String(t.arn("PolicyArn")), PolicyDocument: aws.String(conformancePolicy)})
		}},
		"iam:DeletePolicyVersion": {types: on("AWS::IAM::ManagedPolicy"), write: true, call: func(c context.Context, t target) (any, error) {
			cl := iam.NewFromConfig(t.cfg)
			v, err := cl.CreatePolicyVersion(c, &iam.CreatePolicyVersionInput{PolicyArn: aws.String(t.arn("PolicyArn")), PolicyDocument: aws.String(conformancePolicy)})
			if err != nil {
				return nil, err
			}
			return cl.DeletePolicyVersion(c, &iam.DeletePolicyVersionInput{PolicyArn: aws.String(t.arn("PolicyArn")), VersionId: v.PolicyVersion.VersionId})
		}},
		"iam:ListAccessKeys": {types: on("AWS::IAM::User"), call: func(c context.Context, t target) (any, error) {
			return iam.NewFromConfig(t.cfg).ListAccessKeys(c, &iam.ListAccessKeysInput{UserName: aws.String(t.phys)})
		}},
		"iam:ListAttachedRolePolicies": {types: on("AWS::IAM::Role"), call: func(c context.Context, t target) (any, error) {
			return iam.NewFromConfig(t.cfg).ListAttachedRolePolicies(c, &iam.ListAttachedRolePoliciesInput{RoleName: aws.String(t.phys)})
		}},
		"iam:ListAttachedUserPolicies": {types: on("AWS::IAM::User"), call: func(c context.Context, t target) (any, error) {
			return iam.NewFromConfig(t.cfg).ListAttachedUserPolicies(c, &iam.ListAttachedUserPoliciesInput{UserName: aws.String(t.phys)})
		}},
		"iam:ListAttachedGroupPolicies": {types: on("AWS::IAM::Group"), call: func(c context.Context, t target) (any, error) {
			return iam.NewFromConfig(t.cfg).ListAttachedGroupPolicies(c, &iam.ListAttachedGroupPoliciesInput{GroupName: aws.String(t.phys)})
		}},
		"iam:PutRolePolicy": {types: on("AWS::IAM::Role"), write: true, call: func(c context.Context, t target) (any, error) {
			return iam.NewFromConfig(t.cfg).PutRolePolicy(c, &iam.PutRolePolicyInput{RoleName: aws.String(t.phys), PolicyName: aws.String("conformance"), PolicyDocument: aws.String(conformancePolicy)})
		}},
		"iam:PutUserPolicy": {types: on("AWS::IAM::User"), write: true, call: func(c context.Context, t target) (any, error) {
			return iam.NewFromConfig(t.cfg).PutUserPolicy(c, &iam.PutUserPolicyInput{UserName: aws.String(t.phys), PolicyName: aws.String("conformance"), PolicyDocument: aws.String(conformancePolicy)})
		}},
		"iam:PutGroupPolicy": {types: on("AWS::IAM::Group"), write: true, call: func(c context.Context, t target) (any, error) {
			return iam.NewFromConfig(t.cfg).PutGroupPolicy(c, &iam.PutGroupPolicyInput{GroupName: aws.String(t.phys), PolicyName: aws.String("conformance"), PolicyDocument: aws.String(conformancePolicy)})
		}},
		"iam:DeleteRolePolicy": {types: on("AWS::IAM::Role"), write: true, call: func(c context.Context, t target) (any, error) {
			cl := iam.NewFromConfig(t.cfg)
			if _, err := cl.PutRolePolicy(c, &iam.PutRolePolicyInput{RoleName: aws.String(t.phys), PolicyName: aws.String("conformance"), PolicyDocument: aws.String(conformancePolicy)}); err != nil {
				return nil, err
			}
			return cl.DeleteRolePolicy(c, &iam.DeleteRolePolicyInput{RoleName: aws.String(t.phys), PolicyName: aws.String("conformance")})
		}},
		"iam:DeleteUserPolicy": {types: on("AWS::IAM::User"), write: true, call: func(c context.Context, t target) (any, error) {
			cl := iam.NewFromConfig(t.cfg)
			if _, err := cl.PutUserPolicy(c, &iam.PutUserPolicyInput{UserName: aws.String(t.phys), PolicyName: aws.String("conformance"), PolicyDocument: aws.String(conformancePolicy)}); err != nil {
				return nil, err
			}
			return cl.DeleteUserPolicy(c, &iam.DeleteUserPolicyInput{UserName: aws.String(t.phys), PolicyName: aws.String("conformance")})
		}},
		"iam:DeleteGroupPolicy": {types: on("AWS::IAM::Group"), write: true, call: func(c context.Context, t target) (any, error) {
			cl := iam.NewFromConfig(t.cfg)
			if _, err := cl.PutGroupPolicy(c, &iam.PutGroupPolicyInput{GroupName: aws.String(t.phys), PolicyName: aws.String("conformance"), PolicyDocument: aws.String(conformancePolicy)}); err != nil {
				return nil, err
			}
			return cl.DeleteGroupPolicy(c, &iam.DeleteGroupPolicyInput{GroupName: aws.String(t.phys), PolicyName: aws.String("conformance")})
		}},
		"iam:AttachRolePolicy": {types: on("AWS::IAM::Role"), write: true, call: func(c context.Context, t target) (any, error) {
			return iam.NewFromConfig(t.cfg).AttachRolePolicy(c, &iam.AttachRolePolicyInput{RoleName: aws.String(t.phys), PolicyArn: aws.String(awsManaged)})
		}},
		"iam:AttachUserPolicy": {types: on("AWS::IAM::User"), write: true, call: func(c context.Context, t target) (any, error) {
			return iam.NewFromConfig(t.cfg).AttachUserPolicy(c, &iam.AttachUserPolicyInput{UserName: aws.String(t.phys), PolicyArn: aws.String(awsManaged)})
		}},
		"iam:AttachGroupPolicy": {types: on("AWS::IAM::Group"), write: true, call: func(c context.Context, t target) (any, error) {
			return iam.NewFromConfig(t.cfg).AttachGroupPolicy(c, &iam.AttachGroupPolicyInput{GroupName: aws.String(t.phys), PolicyArn: aws.String(awsManaged)})
		}},
		"iam:DetachRolePolicy": {types: on("AWS::IAM::Role"), write: true, call: func(c context.Context, t target) (any, error) {
			cl := iam.NewFromConfig(t.cfg)
			if _, err := cl.AttachRolePolicy(c, &iam.AttachRolePolicyInput{RoleName: aws.String(t.phys), PolicyArn: aws.String(awsManaged)}); err != nil {
				return nil, err
			}
			return cl.DetachRolePolicy(c, &iam.DetachRolePolicyInput{RoleName: aws.String(t.phys), PolicyArn: aws.String(awsManaged)})
		}},
		"iam:DetachUserPolicy": {types: on("AWS::IAM::User"), write: true, call: func(c context.Context, t target) (any, error) {
			cl := iam.NewFromConfig(t.cfg)
			if _, err := cl.AttachUserPolicy(c, &iam.AttachUserPolicyInput{UserName: aws.String(t.phys), PolicyArn: aws.String(awsManaged)}); err != nil {
				return nil, err
			}
			return cl.DetachUserPolicy(c, &iam.DetachUserPolicyInput{UserName: aws.String(t.phys), PolicyArn: aws.String(awsManaged)})
		}},
		"iam:DetachGroupPolicy": {types: on("AWS::IAM::Group"), write: true, call: func(c context.Context, t target) (any, error) {
			cl := iam.NewFromConfig(t.cfg)
			if _, err := cl.AttachGroupPolicy(c, &iam.AttachGroupPolicyInput{GroupName: aws.String(t.phys), PolicyArn: aws.String(awsManaged)}); err != nil {
				return nil, err
			}
			return cl.DetachGroupPolicy(c, &iam.DetachGroupPolicyInput{GroupName: aws.String(t.phys), PolicyArn: aws.String(awsManaged)})
		}},
		// Kafka (MSK)
		"kafka:DescribeConfiguration": {types: on("AWS::MSK::Configuration"), call: func(c context.Context, t target) (any, error) {
			return kafka.NewFromConfig(t.cfg).DescribeConfiguration(c, &kafka.DescribeConfigurationInput{Arn: aws.String(t.arn("Arn"))})
		}},
		"kafka:DescribeConfigurationRevision": {types: on("AWS::MSK::Configuration"), call: func(c context.Context, t target) (any, error) {
			cl := kafka.NewFromConfig(t.cfg)
			d, err := cl.DescribeConfiguration(c, &kafka.DescribeConfigurationInput{Arn: aws.String(t.arn("Arn"))})
			if err != nil {
				return nil, err
			}
			if d.LatestRevision == nil {
				return nil, errNothing
			}
			return cl.DescribeConfigurationRevision(c, &kafka.DescribeConfigurationRevisionInput{Arn: aws.String(t.arn("Arn")), Revision: d.LatestRevision.Revision})
		}},
		// KMS
		"kms:ListAliases": {call: func(c context.Context, t target) (any, error) {
			return kms.NewFromConfig(t.cfg).ListAliases(c, &kms.ListAliasesInput{})
		}},
		// Lake Formation
		"lakeformation:DescribeResource": {types: on("AWS::LakeFormation::Resource"), call: func(c context.Context, t target) (any, error) {
			return lakeformation.NewFromConfig(t.cfg).DescribeResource(c, &lakeformation.DescribeResourceInput{ResourceArn: aws.String(t.or("ResourceArn", t.phys))})
		}},
		// Lambda
		"lambda:GetPolicy": {types: on("AWS::Lambda::Function"), call: func(c context.Context, t target) (any, error) {
			return lambda.NewFromConfig(t.cfg).GetPolicy(c, &lambda.GetPolicyInput{FunctionName: aws.String(t.phys)})
		}},
		"lambda:GetFunctionConfiguration": {types: on("AWS::Lambda::Function"), call: func(c context.Context, t target) (any, error) {
			return lambda.NewFromConfig(t.cfg).GetFunctionConfiguration(c, &lambda.GetFunctionConfigurationInput{FunctionName: aws.String(t.phys)})
		}},
		"lambda:ListAliases": {types: on("AWS::Lambda::Function"), call: func(c context.Context, t target) (any, error) {
			return lambda.NewFromConfig(t.cfg).ListAliases(c, &lambda.ListAliasesInput{FunctionName: aws.String(t.phys)})
		}},
		"lambda:ListEventSourceMappings": {types: on("AWS::Lambda::Function"), call: func(c context.Context, t target) (any, error) {
			return lambda.NewFromConfig(t.cfg).ListEventSourceMappings(c, &lambda.ListEventSourceMappingsInput{FunctionName: aws.String(t.phys)})
		}},
		"lambda:ListFunctionUrlConfigs": {types: on("AWS::Lambda::Function"), call: func(c context.Context, t target) (any, error) {
			return lambda.NewFromConfig(t.cfg).ListFunctionUrlConfigs(c, &lambda.ListFunctionUrlConfigsInput{FunctionName: aws.String(t.phys)})
		}},
		"lambda:ListVersionsByFunction": {types: on("AWS::Lambda::Function"), call: func(c context.Context, t target) (any, error) {
			return lambda.NewFromConfig(t.cfg).ListVersionsByFunction(c, &lambda.ListVersionsByFunctionInput{FunctionName: aws.String(t.phys)})
		}},
		"lambda:AddPermission": {types: on("AWS::Lambda::Function"), write: true, call: lambdaAdd},
		"lambda:RemovePermission": {types: on("AWS::Lambda::Function"), write: true, call: func(c context.Context, t target) (any, error) {
			if _, err := lambdaAdd(c, t); err != nil {
				return nil, err
			}
			return lambda.NewFromConfig(t.cfg).RemovePermission(c, &lambda.RemovePermissionInput{FunctionName: aws.String(t.phys), StatementId: aws.String("conformance")})
		}},
		// Lex V2
		"lex:ListBotLocales":    lexEntry("ListBotLocales"),
		"lex:DescribeBotLocale": lexEntry("DescribeBotLocale"),
		"lex:ListSlotTypes":     lexEntry("ListSlotTypes"),
		"lex:DescribeSlotType":  lexEntry("DescribeSlotType"),
		"lex:ListIntents":       lexEntry("ListIntents"),
		"lex:DescribeIntent":    lexEntry("DescribeIntent"),
		"lex:ListSlots":         lexEntry("ListSlots"),
		"lex:DescribeSlot":      lexEntry("DescribeSlot"),
		// CloudTrail
		"cloudtrail:LookupEvents": {call: func(c context.Context, t target) (any, error) {
			return cloudtrail.NewFromConfig(t.cfg).LookupEvents(c, &cloudtrail.LookupEventsInput{})
		}},
		// CloudWatch Logs
		"logs:DescribeMetricFilters": {types: on("AWS::Logs::LogGroup"), call: func(c context.Context, t target) (any, error) {
			return cloudwatchlogs.NewFromConfig(t.cfg).DescribeMetricFilters(c, &cloudwatchlogs.DescribeMetricFiltersInput{LogGroupName: aws.String(t.phys)})
		}},
		"logs:DescribeSubscriptionFilters": {types: on("AWS::Logs::LogGroup"), call: func(c context.Context, t target) (any, error) {
			return cloudwatchlogs.NewFromConfig(t.cfg).DescribeSubscriptionFilters(c, &cloudwatchlogs.DescribeSubscriptionFiltersInput{LogGroupName: aws.String(t.phys)})
		}},
		// MediaConvert
		"mediaconvert:GetQueue": {types: on("AWS::MediaConvert::Queue"), call: func(c context.Context, t target) (any, error) {
			return mediaconvert.NewFromConfig(t.cfg).GetQueue(c, &mediaconvert.GetQueueInput{Name: aws.String(t.or("Name", t.phys))})
		}},
		"mediaconvert:GetJobTemplate": {types: on("AWS::MediaConvert::JobTemplate"), call: func(c context.Context, t target) (any, error) {
			return mediaconvert.NewFromConfig(t.cfg).GetJobTemplate(c, &mediaconvert.GetJobTemplateInput{Name: aws.String(t.or("Name", t.phys))})
		}},
		"mediaconvert:ListTagsForResource": {types: on("AWS::MediaConvert::Queue", "AWS::MediaConvert::JobTemplate"), call: func(c context.Context, t target) (any, error) {
			kind := map[string]string{"AWS::MediaConvert::Queue": "queues", "AWS::MediaConvert::JobTemplate": "jobTemplates"}[t.typ]
			return mediaconvert.NewFromConfig(t.cfg).ListTagsForResource(c, &mediaconvert.ListTagsForResourceInput{Arn: aws.String(t.or("Arn", fmt.Sprintf("arn:aws:mediaconvert:%s:%s:%s/%s", t.region, t.account, kind, t.or("Name", t.phys))))})
		}},
		// MemoryDB
		"memorydb:DescribeUsers": {types: on("AWS::MemoryDB::User"), call: func(c context.Context, t target) (any, error) {
			return memorydb.NewFromConfig(t.cfg).DescribeUsers(c, &memorydb.DescribeUsersInput{UserName: aws.String(t.or("UserName", t.phys))})
		}},
		"memorydb:DescribeParameters": {types: on("AWS::MemoryDB::ParameterGroup"), call: func(c context.Context, t target) (any, error) {
			return memorydb.NewFromConfig(t.cfg).DescribeParameters(c, &memorydb.DescribeParametersInput{ParameterGroupName: aws.String(t.or("ParameterGroupName", t.phys))})
		}},
		// CloudWatch (RPCv2 CBOR)
		"monitoring:DescribeAnomalyDetectors": {call: func(c context.Context, t target) (any, error) {
			return cloudwatch.NewFromConfig(t.cfg).DescribeAnomalyDetectors(c, &cloudwatch.DescribeAnomalyDetectorsInput{})
		}},
		// Organizations
		"organizations:DescribeOrganization": {call: func(c context.Context, t target) (any, error) {
			return organizations.NewFromConfig(t.cfg).DescribeOrganization(c, &organizations.DescribeOrganizationInput{})
		}},
		"organizations:ListAccounts": {call: func(c context.Context, t target) (any, error) {
			return organizations.NewFromConfig(t.cfg).ListAccounts(c, &organizations.ListAccountsInput{})
		}},
		// RDS (DocumentDB)
		"rds:DescribeDBClusters": {types: on("AWS::DocDB::DBCluster", "AWS::RDS::DBCluster"), call: func(c context.Context, t target) (any, error) {
			return docdb.NewFromConfig(t.cfg).DescribeDBClusters(c, &docdb.DescribeDBClustersInput{DBClusterIdentifier: aws.String(t.phys)})
		}},
		"rds:DescribeDBInstances": {types: on("AWS::DocDB::DBInstance", "AWS::RDS::DBInstance"), call: func(c context.Context, t target) (any, error) {
			return docdb.NewFromConfig(t.cfg).DescribeDBInstances(c, &docdb.DescribeDBInstancesInput{DBInstanceIdentifier: aws.String(t.phys)})
		}},
		"rds:ListTagsForResource": {types: on("AWS::DocDB::DBCluster", "AWS::DocDB::DBInstance"), call: func(c context.Context, t target) (any, error) {
			kind := map[string]string{"AWS::DocDB::DBCluster": "cluster", "AWS::DocDB::DBInstance": "db"}[t.typ]
			return docdb.NewFromConfig(t.cfg).ListTagsForResource(c, &docdb.ListTagsForResourceInput{ResourceName: aws.String(fmt.Sprintf("arn:aws:rds:%s:%s:%s:%s", t.region, t.account, kind, t.phys))})
		}},
		// Redshift Serverless
		"redshift-serverless:GetWorkgroup": {types: on("AWS::RedshiftServerless::Workgroup"), call: func(c context.Context, t target) (any, error) {
			return rss.NewFromConfig(t.cfg).GetWorkgroup(c, &rss.GetWorkgroupInput{WorkgroupName: aws.String(t.or("WorkgroupName", t.phys))})
		}},
		// Route 53
		"route53:ListResourceRecordSets": {types: on("AWS::Route53::HostedZone"), call: func(c context.Context, t target) (any, error) {
			return route53.NewFromConfig(t.cfg).ListResourceRecordSets(c, &route53.ListResourceRecordSetsInput{HostedZoneId: aws.String(t.phys)})
		}},
		"route53:ListHostedZonesByName": {call: func(c context.Context, t target) (any, error) {
			return route53.NewFromConfig(t.cfg).ListHostedZonesByName(c, &route53.ListHostedZonesByNameInput{})
		}},
		"route53:ChangeResourceRecordSets": {types: on("AWS::Route53::HostedZone"), write: true, call: func(c context.Context, t target) (any, error) { return r53Change(c, t) }},
		"route53:GetChange": {types: on("AWS::Route53::HostedZone"), write: true, call: func(c context.Context, t target) (any, error) {
			ch, err := r53Change(c, t)
			if err != nil {
				return nil, err
			}
			return route53.NewFromConfig(t.cfg).GetChange(c, &route53.GetChangeInput{Id: ch.ChangeInfo.Id})
		}},
		// S3
		"s3:GetBucketPolicy": {types: on("AWS::S3::BucketPolicy"), call: func(c context.Context, t target) (any, error) {
			return s3c(t).GetBucketPolicy(c, &s3.GetBucketPolicyInput{Bucket: aws.String(t.or("Bucket", t.phys))})
		}},
		"s3:PutBucketPolicy": {types: on("AWS::S3::BucketPolicy"), write: true, call: func(c context.Context, t target) (any, error) {
			return s3c(t).PutBucketPolicy(c, &s3.PutBucketPolicyInput{Bucket: aws.String(t.or("Bucket", t.phys)), Policy: aws.String(jsonText(t.model["PolicyDocument"]))})
		}},
		"s3:DeleteBucketPolicy": {types: on("AWS::S3::BucketPolicy"), write: true, call: func(c context.Context, t target) (any, error) {
			return s3c(t).DeleteBucketPolicy(c, &s3.DeleteBucketPolicyInput{Bucket: aws.String(t.or("Bucket", t.phys))})
		}},
		"s3:PutObject": {types: on("AWS::S3::Bucket"), write: true, call: s3Put},
		"s3:GetObject": {types: on("AWS::S3::Bucket"), write: true, call: func(c context.Context, t target) (any, error) {
			if _, err := s3Put(c, t); err != nil {
				return nil, err
			}
			out, err := s3c(t).GetObject(c, &s3.GetObjectInput{Bucket: aws.String(t.phys), Key: aws.String("conformance/object.txt")})
			if err == nil {
				_, err = io.ReadAll(out.Body)
				out.Body.Close()
			}
			return out, err
		}},
		// SageMaker
		"sagemaker:DescribeEndpointConfig": {types: on("AWS::SageMaker::EndpointConfig"), call: func(c context.Context, t target) (any, error) {
			return sagemaker.NewFromConfig(t.cfg).DescribeEndpointConfig(c, &sagemaker.DescribeEndpointConfigInput{EndpointConfigName: aws.String(t.or("EndpointConfigName", lastPart(t.phys)))})
		}},
		"sagemaker:DescribeMonitoringSchedule": {types: on("AWS::SageMaker::MonitoringSchedule"), call: func(c context.Context, t target) (any, error) {
			return sagemaker.NewFromConfig(t.cfg).DescribeMonitoringSchedule(c, &sagemaker.DescribeMonitoringScheduleInput{MonitoringScheduleName: aws.String(t.or("MonitoringScheduleName", lastPart(t.phys)))})
		}},
		"sagemaker:ListTags": {types: on("AWS::SageMaker::EndpointConfig", "AWS::SageMaker::MonitoringSchedule"), call: func(c context.Context, t target) (any, error) {
			return sagemaker.NewFromConfig(t.cfg).ListTags(c, &sagemaker.ListTagsInput{ResourceArn: aws.String(t.arn("EndpointConfigArn"))})
		}},
		// EventBridge Scheduler
		"scheduler:GetSchedule": {types: on("AWS::Scheduler::Schedule"), call: func(c context.Context, t target) (any, error) {
			return scheduler.NewFromConfig(t.cfg).GetSchedule(c, &scheduler.GetScheduleInput{Name: aws.String(t.or("Name", t.phys)), GroupName: aws.String(t.or("GroupName", "default"))})
		}},
		// Secrets Manager
		"secretsmanager:GetResourcePolicy": {types: on("AWS::SecretsManager::Secret"), call: func(c context.Context, t target) (any, error) {
			return secretsmanager.NewFromConfig(t.cfg).GetResourcePolicy(c, &secretsmanager.GetResourcePolicyInput{SecretId: aws.String(t.phys)})
		}},
		// Security Hub
		"securityhub:BatchImportFindings": {write: true, call: hubImport},
		"securityhub:GetFindings": {write: true, call: func(c context.Context, t target) (any, error) {
			if _, err := hubImport(c, t); err != nil {
				return nil, err
			}
			return securityhub.NewFromConfig(t.cfg).GetFindings(c, &securityhub.GetFindingsInput{})
		}},
		"securityhub:BatchUpdateFindings": {write: true, call: func(c context.Context, t target) (any, error) {
			if _, err := hubImport(c, t); err != nil {
				return nil, err
			}
			return securityhub.NewFromConfig(t.cfg).BatchUpdateFindings(c, &securityhub.BatchUpdateFindingsInput{
				FindingIdentifiers: []shtypes.AwsSecurityFindingIdentifier{{Id: aws.String("conformance-1"), ProductArn: aws.String(hubProduct(t))}},
				Workflow:           &shtypes.WorkflowUpdate{Status: shtypes.WorkflowStatusNotified}})
		}},
		// Cloud Map
		"servicediscovery:GetNamespace": {types: on("AWS::ServiceDiscovery::HttpNamespace", "AWS::ServiceDiscovery::PublicDnsNamespace", "AWS::ServiceDiscovery::PrivateDnsNamespace"), call: func(c context.Context, t target) (any, error) {
			return servicediscovery.NewFromConfig(t.cfg).GetNamespace(c, &servicediscovery.GetNamespaceInput{Id: aws.String(t.or("Id", t.phys))})
		}},
		"servicediscovery:GetService": {types: on("AWS::ServiceDiscovery::Service"), call: func(c context.Context, t target) (any, error) {
			return servicediscovery.NewFromConfig(t.cfg).GetService(c, &servicediscovery.GetServiceInput{Id: aws.String(t.or("Id", t.phys))})
		}},
		"servicediscovery:ListTagsForResource": {types: on("AWS::ServiceDiscovery::Service", "AWS::ServiceDiscovery::HttpNamespace", "AWS::ServiceDiscovery::PublicDnsNamespace"), call: func(c context.Context, t target) (any, error) {
			return servicediscovery.NewFromConfig(t.cfg).ListTagsForResource(c, &servicediscovery.ListTagsForResourceInput{ResourceARN: aws.String(t.arn("Arn"))})
		}},
		// SES
		"ses:ListReceiptFilters": {call: func(c context.Context, t target) (any, error) {
			return ses.NewFromConfig(t.cfg).ListReceiptFilters(c, &ses.ListReceiptFiltersInput{})
		}},
		"ses:DescribeReceiptRuleSet": {types: on("AWS::SES::ReceiptRuleSet"), call: func(c context.Context, t target) (any, error) {
			return ses.NewFromConfig(t.cfg).DescribeReceiptRuleSet(c, &ses.DescribeReceiptRuleSetInput{RuleSetName: aws.String(t.or("RuleSetName", t.phys))})
		}},
		"ses:DescribeReceiptRule": {types: on("AWS::SES::ReceiptRule"), call: func(c context.Context, t target) (any, error) {
			return ses.NewFromConfig(t.cfg).DescribeReceiptRule(c, &ses.DescribeReceiptRuleInput{RuleSetName: aws.String(t.s("RuleSetName")), RuleName: aws.String(t.or("Rule.Name", t.phys))})
		}},
		"ses:DescribeConfigurationSet": {types: on("AWS::SES::ConfigurationSet"), call: func(c context.Context, t target) (any, error) {
			return ses.NewFromConfig(t.cfg).DescribeConfigurationSet(c, &ses.DescribeConfigurationSetInput{ConfigurationSetName: aws.String(t.or("Name", t.phys))})
		}},
		// SNS
		"sns:GetTopicAttributes": {types: on("AWS::SNS::Topic"), call: func(c context.Context, t target) (any, error) {
			return sns.NewFromConfig(t.cfg).GetTopicAttributes(c, &sns.GetTopicAttributesInput{TopicArn: aws.String(t.id)})
		}},
		"sns:ListSubscriptionsByTopic": {types: on("AWS::SNS::Topic"), call: func(c context.Context, t target) (any, error) {
			return sns.NewFromConfig(t.cfg).ListSubscriptionsByTopic(c, &sns.ListSubscriptionsByTopicInput{TopicArn: aws.String(t.id)})
		}},
		"sns:SetTopicAttributes": {types: on("AWS::SNS::Topic"), write: true, call: func(c context.Context, t target) (any, error) {
			return sns.NewFromConfig(t.cfg).SetTopicAttributes(c, &sns.SetTopicAttributesInput{TopicArn: aws.String(t.id), AttributeName: aws.String("DisplayName"), AttributeValue: aws.String("conformance")})
		}},
		"sns:Publish": {types: on("AWS::SNS::Topic"), write: true, call: func(c context.Context, t target) (any, error) {
			in := &sns.PublishInput{TopicArn: aws.String(t.id), Message: aws.String("conformance")}
			if t.or("FifoTopic", "false") == "true" {
				in.MessageGroupId = aws.String("conformance")
			}
			return sns.NewFromConfig(t.cfg).Publish(c, in)
		}},
		"sns:Unsubscribe": {types: on("AWS::SNS::Subscription"), write: true, call: func(c context.Context, t target) (any, error) {
			return sns.NewFromConfig(t.cfg).Unsubscribe(c, &sns.UnsubscribeInput{SubscriptionArn: aws.String(t.id)})
		}},
		// SQS
		"sqs:GetQueueAttributes": {types: on("AWS::SQS::Queue"), call: func(c context.Context, t target) (any, error) {
			return sqs.NewFromConfig(t.cfg).GetQueueAttributes(c, &sqs.GetQueueAttributesInput{QueueUrl: aws.String(t.id), AttributeNames: []sqstypes.QueueAttributeName{"All"}})
		}},
		"sqs:SetQueueAttributes": {types: on("AWS::SQS::Queue"), write: true, call: func(c context.Context, t target) (any, error) {
			return sqs.NewFromConfig(t.cfg).SetQueueAttributes(c, &sqs.SetQueueAttributesInput{QueueUrl: aws.String(t.id), Attributes: map[string]string{"VisibilityTimeout": t.or("VisibilityTimeout", "30")}})
		}},
		// SSM
		"ssm:DescribeMaintenanceWindowTargets": {types: on("AWS::SSM::MaintenanceWindow"), call: func(c context.Context, t target) (any, error) {
			return ssm.NewFromConfig(t.cfg).DescribeMaintenanceWindowTargets(c, &ssm.DescribeMaintenanceWindowTargetsInput{WindowId: aws.String(t.phys)})
		}},
		"ssm:DescribeMaintenanceWindowTasks": {types: on("AWS::SSM::MaintenanceWindow"), call: func(c context.Context, t target) (any, error) {
			return ssm.NewFromConfig(t.cfg).DescribeMaintenanceWindowTasks(c, &ssm.DescribeMaintenanceWindowTasksInput{WindowId: aws.String(t.phys)})
		}},
		"ssm:DescribeParameters": {call: func(c context.Context, t target) (any, error) {
			return ssm.NewFromConfig(t.cfg).DescribeParameters(c, &ssm.DescribeParametersInput{})
		}},
		// STS
		"sts:GetCallerIdentity": {call: func(c context.Context, t target) (any, error) {
			return sts.NewFromConfig(t.cfg).GetCallerIdentity(c, &sts.GetCallerIdentityInput{})
		}},
		"sts:AssumeRole": {types: on("AWS::IAM::Role"), call: func(c context.Context, t target) (any, error) {
			return sts.NewFromConfig(t.cfg).AssumeRole(c, &sts.AssumeRoleInput{RoleArn: aws.String(t.or("Arn", fmt.Sprintf("arn:aws:iam::%s:role/%s", t.account, t.phys))), RoleSessionName: aws.String("conformance")})
		}},
	}
}

const awsManaged = "arn:aws:iam::aws:policy/ReadOnlyAccess"

// errNothing is an entry's answer when the resource gives it nothing to
// call (a role with no inline policy): neither a success nor a failure.
var errNothing = errors.New("nothing to call it with")

func firstErr(errs ...error) error {
	for _, e := range errs {
		if e != nil {
			return e
		}
	}
	return nil
}

// firstPolicyName is the name of the first inline policy of an IAM
// model's Policies list.
func firstPolicyName(t target) string {
	if ps, ok := t.model["Policies"].([]any); ok && len(ps) > 0 {
		if p, ok := ps[0].(map[string]any); ok {
			if n, ok := p["PolicyName"].(string); ok {
				return n
			}
		}
	}
	return "none"
}

func lastPart(s string) string {
	if i := strings.LastIndexAny(s, "/:"); i >= 0 {
		return s[i+1:]
	}
	return s
}

func dmsFilter(t target, arnFilter, idFilter, idProp string) []dmstypes.Filter {
	if a := t.arn(""); a != "" && arnFilter != "" {
		return []dmstypes.Filter{{Name: aws.String(arnFilter), Values: []string{a}}}
	}
	return []dmstypes.Filter{{Name: aws.String(idFilter), Values: []string{t.or(idProp, t.phys)}}}
}

func ccUpdate(c context.Context, t target) (*cloudcontrol.UpdateResourceOutput, error) {
	return cloudcontrol.NewFromConfig(t.cfg).UpdateResource(c, &cloudcontrol.UpdateResourceInput{TypeName: aws.String(t.typ), Identifier: aws.String(t.id),
		PatchDocument: aws.String(`[{"op":"add","path":"/VisibilityTimeout","value":45}]`)})
}

func lambdaAdd(c context.Context, t target) (any, error) {
	return lambda.NewFromConfig(t.cfg).AddPermission(c, &lambda.AddPermissionInput{FunctionName: aws.String(t.phys), StatementId: aws.String("conformance"),
		Action: aws.String("lambda:InvokeFunction"), Principal: aws.String("events.amazonaws.com")})
}

func r53Change(c context.Context, t target) (*route53.ChangeResourceRecordSetsOutput, error) {
	name := "conformance." + strings.TrimSuffix(t.or("Name", "example.com"), ".") + "."
	return route53.NewFromConfig(t.cfg).ChangeResourceRecordSets(c, &route53.ChangeResourceRecordSetsInput{HostedZoneId: aws.String(t.phys),
		ChangeBatch: &r53types.ChangeBatch{Changes: []r53types.Change{{Action: r53types.ChangeActionUpsert, ResourceRecordSet: &r53types.ResourceRecordSet{
			Name: aws.String(name), Type: r53types.RRTypeTxt, TTL: aws.Int64(300), ResourceRecords: []r53types.ResourceRecord{{Value: aws.String(`"conformance"`)}}}}}}})
}

func s3c(t target) *s3.Client {
	return s3.NewFromConfig(t.cfg, func(o *s3.Options) { o.UsePathStyle = true })
}

func s3Put(c context.Context, t target) (any, error) {
	return s3c(t).PutObject(c, &s3.PutObjectInput{Bucket: aws.String(t.phys), Key: aws.String("conformance/object.txt"), Body: bytes.NewReader([]byte("conformance\n"))})
}

func hubProduct(t target) string {
	return fmt.Sprintf("arn:aws:securityhub:%s:%s:product/%s/default", t.region, t.account, t.account)
}

func hubImport(c context.Context, t target) (any, error) {
	now := "2026-01-02T03:04:05.000Z"
	return securityhub.NewFromConfig(t.cfg).BatchImportFindings(c, &securityhub.BatchImportFindingsInput{Findings: []shtypes.AwsSecurityFinding{{
		SchemaVersion: aws.String("2018-10-08"), Id: aws.String("conformance-1"), ProductArn: aws.String(hubProduct(t)), GeneratorId: aws.String("conformance"),
		AwsAccountId: aws.String(t.account), Types: []string{"Software and Configuration Checks"}, CreatedAt: aws.String(now), UpdatedAt: aws.String(now),
		Severity: &shtypes.Severity{Label: shtypes.SeverityLabelLow}, Title: aws.String("conformance"), Description: aws.String("conformance"),
		Resources: []shtypes.Resource{{Type: aws.String("Other"), Id: aws.String("conformance")}},
	}}})
}

// lexEntry walks a bot's DRAFT locale tree through every Lex V2 list and
// describe call and answers op's last output.
func lexEntry(op string) check {
	return check{types: on("AWS::Lex::Bot"), call: func(c context.Context, t target) (any, error) {
		cl := lex.NewFromConfig(t.cfg)
		bot, ver := aws.String(t.or("Id", t.id)), aws.String("DRAFT")
		outs := map[string]any{}
		locs, err := cl.ListBotLocales(c, &lex.ListBotLocalesInput{BotId: bot, BotVersion: ver})
		if err != nil {
			return nil, err
		}
		outs["ListBotLocales"] = locs
		for _, l := range locs.BotLocaleSummaries {
			loc := l.LocaleId
			if outs["DescribeBotLocale"], err = cl.DescribeBotLocale(c, &lex.DescribeBotLocaleInput{BotId: bot, BotVersion: ver, LocaleId: loc}); err != nil {
				return nil, err
			}
			sts, err := cl.ListSlotTypes(c, &lex.ListSlotTypesInput{BotId: bot, BotVersion: ver, LocaleId: loc})
			if err != nil {
				return nil, err
			}
			outs["ListSlotTypes"] = sts
			for _, st := range sts.SlotTypeSummaries {
				if outs["DescribeSlotType"], err = cl.DescribeSlotType(c, &lex.DescribeSlotTypeInput{BotId: bot, BotVersion: ver, LocaleId: loc, SlotTypeId: st.SlotTypeId}); err != nil {
					return nil, err
				}
			}
			its, err := cl.ListIntents(c, &lex.ListIntentsInput{BotId: bot, BotVersion: ver, LocaleId: loc})
			if err != nil {
				return nil, err
			}
			outs["ListIntents"] = its
			for _, it := range its.IntentSummaries {
				if outs["DescribeIntent"], err = cl.DescribeIntent(c, &lex.DescribeIntentInput{BotId: bot, BotVersion: ver, LocaleId: loc, IntentId: it.IntentId}); err != nil {
					return nil, err
				}
				sl, err := cl.ListSlots(c, &lex.ListSlotsInput{BotId: bot, BotVersion: ver, LocaleId: loc, IntentId: it.IntentId})
				if err != nil {
					return nil, err
				}
				outs["ListSlots"] = sl
				for _, s := range sl.SlotSummaries {
					if outs["DescribeSlot"], err = cl.DescribeSlot(c, &lex.DescribeSlotInput{BotId: bot, BotVersion: ver, LocaleId: loc, IntentId: it.IntentId, SlotId: s.SlotId}); err != nil {
						return nil, err
					}
				}
			}
		}
		if outs[op] == nil {
			return nil, errNothing
		}
		return outs[op], nil
	}}
}
