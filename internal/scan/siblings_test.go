package scan

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/realdrift/realdrift/internal/drift"
	"github.com/realdrift/realdrift/internal/live"
	"github.com/realdrift/realdrift/internal/schema"
)

func TestSiblingFactsReachTheClassifier(t *testing.T) {
	cluster := map[string]any{"DBClusterIdentifier": "app-cluster", "Port": "5432"}
	source := map[string]any{"DBInstanceIdentifier": "app-src", "StorageEncrypted": true}
	d := &Desired{Resources: []Resource{
		{LogicalID: "Cluster", Type: "AWS::RDS::DBCluster", PhysicalID: "app-cluster"},
		{LogicalID: "Writer", Type: "AWS::RDS::DBInstance", PhysicalID: "app-writer", Declared: map[string]any{"DBClusterIdentifier": "App-Cluster"}},
		{LogicalID: "Source", Type: "AWS::RDS::DBInstance", PhysicalID: "app-src"},
		{LogicalID: "Replica", Type: "AWS::RDS::DBInstance", PhysicalID: "app-rep", Declared: map[string]any{"SourceDBInstanceIdentifier": "arn:aws:rds:us-east-1:111111111111:db:app-src"}},
		{LogicalID: "Ip", Type: "AWS::EC2::EIP", PhysicalID: "3.3.3.3"},
		{LogicalID: "Assoc", Type: "AWS::EC2::EIPAssociation", PhysicalID: "x", Declared: map[string]any{"AllocationId": "eipalloc-1"}},
		{LogicalID: "Block", Type: "AWS::EC2::SubnetCidrBlock", PhysicalID: "y", Declared: map[string]any{"SubnetId": "subnet-1"}},
		{LogicalID: "Lost", Type: "AWS::RDS::DBInstance", PhysicalID: "app-lost", Declared: map[string]any{"DBClusterIdentifier": drift.Unknown{}}},
		{LogicalID: "Prod", Type: "AWS::ElasticLoadBalancingV2::ListenerRule", PhysicalID: "arn:rule/prod"},
		{LogicalID: "Other", Type: "AWS::ElasticLoadBalancingV2::ListenerRule", PhysicalID: "arn:rule/other"},
		{LogicalID: "Svc", Type: "AWS::ECS::Service", PhysicalID: "arn:svc", Declared: map[string]any{
			"DeploymentConfiguration": map[string]any{"Strategy": "BLUE_GREEN"},
			"LoadBalancers": []any{map[string]any{"TargetGroupArn": "arn:tg/blue", "AdvancedConfiguration": map[string]any{
				"AlternateTargetGroupArn": "arn:tg/green", "ProductionListenerRule": "arn:rule/prod"}}},
		}},
		{LogicalID: "Sg", Type: "AWS::EC2::SecurityGroup", PhysicalID: "sg-1"},
		{LogicalID: "In", Type: "AWS::EC2::SecurityGroupIngress", PhysicalID: "sgr-1", Declared: map[string]any{
			"GroupId": "sg-1", "IpProtocol": "tcp", "FromPort": 5432.0, "ToPort": 5432.0, "SourceSecurityGroupId": "sg-2"}},
		{LogicalID: "Out", Type: "AWS::EC2::SecurityGroupEgress", PhysicalID: "sgr-2", Declared: map[string]any{
			"GroupId": "sg-1", "IpProtocol": "tcp", "FromPort": 443.0, "ToPort": 443.0, "CidrIp": "0.0.0.0/0"}},
		{LogicalID: "Topic", Type: "AWS::SNS::Topic", PhysicalID: "arn:aws:sns:us-east-1:111111111111:t"},
		{LogicalID: "Sub", Type: "AWS::SNS::Subscription", PhysicalID: "arn:sub", Declared: map[string]any{
			"TopicArn": "arn:aws:sns:us-east-1:111111111111:t", "Protocol": "sqs", "Endpoint": "arn:aws:sqs:us-east-1:111111111111:q"}},
		{LogicalID: "Owned", Type: "AWS::IAM::ManagedPolicy", PhysicalID: "arn:aws:iam::111111111111:policy/owned", Declared: map[string]any{
			"Roles": []any{"app-role", drift.Unknown{}}, "Users": []any{"app-user"}}},
		{LogicalID: "AppRole", Type: "AWS::IAM::Role", PhysicalID: "app-role", Declared: map[string]any{}},
		{LogicalID: "Ops", Type: "AWS::IAM::Group", PhysicalID: "ops", Declared: map[string]any{
			"ManagedPolicyArns": []any{"arn:aws:iam::111111111111:policy/owned", "arn:aws:iam::aws:policy/ReadOnlyAccess"}}},
		{LogicalID: "Rolling", Type: "AWS::ECS::Service", PhysicalID: "arn:svc2", Declared: map[string]any{
			"LoadBalancers": []any{map[string]any{"TargetGroupArn": "arn:tg/x", "AdvancedConfiguration": map[string]any{
				"AlternateTargetGroupArn": "arn:tg/y", "ProductionListenerRule": "arn:rule/other"}}},
		}},
	}}
	lives := map[string]live.Result{
		"Cluster": {Status: live.Found, Model: cluster},
		"Writer":  {Status: live.Found, Model: map[string]any{}},
		"Source":  {Status: live.Found, Model: source},
		"Replica": {Status: live.Found, Model: map[string]any{}},
		"Ip":      {Status: live.Found, Model: map[string]any{"AllocationId": "eipalloc-1"}},
		"Assoc":   {Status: live.Found, Model: map[string]any{}},
		"Block":   {Status: live.Found, Model: map[string]any{}},
		"Lost":    {Status: live.Found, Model: map[string]any{}},
	}
	var got map[string]any
	ClassifyStack(d, lives, nil, nil, func(s Subject, _ map[string]any, _ *schema.Facts, sf StackFacts) []drift.Finding {
		got = sf.Sibling
		return nil
	})
	want := map[string]any{
		"clusterEchoModel":           map[string]any{"app-writer": cluster},
		"siblingRdsSourceModels":     map[string]any{"arn:aws:rds:us-east-1:111111111111:db:app-src": source},
		"siblingEipAssociations":     []any{"3.3.3.3"},
		"siblingSubnetCidrBlocks":    []any{"subnet-1"},
		"ecsBgGovernedListenerRules": map[string]any{"Prod": []any{"arn:tg/blue", "arn:tg/green"}},
		"siblingSgRules": map[string]any{"sg-1": []any{
			map[string]any{"Direction": "ingress", "IpProtocol": "tcp", "FromPort": 5432.0, "ToPort": 5432.0, "SourceSecurityGroupId": "sg-2"},
			map[string]any{"Direction": "egress", "IpProtocol": "tcp", "FromPort": 443.0, "ToPort": 443.0, "CidrIp": "0.0.0.0/0"},
		}},
		"siblingSnsSubscriptions": map[string]any{"arn:aws:sns:us-east-1:111111111111:t": []any{
			map[string]any{"Protocol": "sqs", "Endpoint": "arn:aws:sqs:us-east-1:111111111111:q"}}},
		// The policy attaches itself to the role and the user; the group
		// attaches it (the AWS managed policy is no resource of the stack).
		"siblingRolePolicies": map[string]any{"app-role": []any{"arn:aws:iam::111111111111:policy/owned"}},
		"siblingUserPolicies": map[string]any{"app-user": []any{"arn:aws:iam::111111111111:policy/owned"}},
		"siblingPolicyGroups": map[string]any{"arn:aws:iam::111111111111:policy/owned": []any{"ops"}},
	}
	if diff := cmp.Diff(got, want); diff != "" {
		t.Errorf("sibling facts (-got +want):\n%s", diff)
	}
}
