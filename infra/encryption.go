package main

import (
	"github.com/aws/aws-cdk-go/awscdk/v2"
	"github.com/aws/aws-cdk-go/awscdk/v2/awsiam"
	"github.com/aws/aws-cdk-go/awscdk/v2/awskms"
	"github.com/aws/constructs-go/constructs/v10"
	"github.com/aws/jsii-runtime-go"
)

// The stack's customer-managed keys. Both keep CDK's default key policy
// (the account administers the key through IAM) and add, as key-policy
// statements, exactly the services and roles that encrypt with them.
//
//   - LogsKey encrypts every log group (functions, state machines); CloudWatch
//     Logs uses it for log groups of this account and region only.
//   - MessagesKey encrypts the alert topic and the dead-letter queues; the
//     notify role uses it through SNS, the roles writing dead letters
//     through SQS, and EventBridge for its rules' dead letters.
//
// Identity policies never grant KMS: who may use a key is in its policy.

// useKey are the calls a producer of encrypted messages makes (SNS and SQS
// generate a data key and decrypt it again to check it).
func useKey() []string { return []string{"kms:Decrypt", "kms:GenerateDataKey"} }

// newKey returns a customer-managed key with yearly rotation.
func newKey(scope constructs.Construct, id, description string) awskms.Key {
	return awskms.NewKey(scope, jsii.String(id), &awskms.KeyProps{
		Description:       jsii.String(description),
		EnableKeyRotation: jsii.Bool(true),
		RemovalPolicy:     awscdk.RemovalPolicy_RETAIN,
	})
}

// newLogsKey returns the key of the stack's log groups, usable by CloudWatch
// Logs for this account's log groups in this region.
func newLogsKey(stack awscdk.Stack) awskms.Key {
	key := newKey(stack, "LogsKey", "realdrift log groups (functions and state machines)")
	logs := awsiam.NewServicePrincipal(jsii.String("logs."+*stack.Region()+".amazonaws.com"), nil)
	logGroups := stack.FormatArn(&awscdk.ArnComponents{
		Service: jsii.String("logs"), Resource: jsii.String("log-group"), ResourceName: jsii.String("*"),
		ArnFormat: awscdk.ArnFormat_COLON_RESOURCE_NAME,
	})
	key.AddToResourcePolicy(awsiam.NewPolicyStatement(&awsiam.PolicyStatementProps{
		Sid:        jsii.String("CloudWatchLogsEncrypt"),
		Principals: &[]awsiam.IPrincipal{logs},
		Actions: jsii.Strings("kms:Encrypt", "kms:Decrypt", "kms:ReEncryptFrom", "kms:ReEncryptTo",
			"kms:GenerateDataKey", "kms:GenerateDataKeyWithoutPlaintext"),
		Resources:  jsii.Strings("*"),
		Conditions: &map[string]any{"ArnLike": map[string]any{"kms:EncryptionContext:aws:logs:arn": *logGroups}},
	}), nil)
	key.AddToResourcePolicy(awsiam.NewPolicyStatement(&awsiam.PolicyStatementProps{
		Sid:        jsii.String("CloudWatchLogsDescribe"),
		Principals: &[]awsiam.IPrincipal{logs},
		Actions:    jsii.Strings("kms:DescribeKey"),
		Resources:  jsii.Strings("*"),
	}), nil)
	return key
}

// allowVia lets roles use key only through service (sns, sqs) in this region.
func allowVia(stack awscdk.Stack, key awskms.Key, sid, service string, roles ...awsiam.IRole) {
	var principals []awsiam.IPrincipal
	for _, r := range roles {
		principals = append(principals, awsiam.NewArnPrincipal(r.RoleArn()))
	}
	key.AddToResourcePolicy(awsiam.NewPolicyStatement(&awsiam.PolicyStatementProps{
		Sid:        jsii.String(sid),
		Principals: &principals,
		Actions:    jsii.Strings(useKey()...),
		Resources:  jsii.Strings("*"),
		Conditions: &map[string]any{"StringEquals": map[string]any{"kms:ViaService": service + "." + *stack.Region() + ".amazonaws.com"}},
	}), nil)
}

// allowEventBridge lets EventBridge use key for the dead letters of the
// named rules (ARNs: referencing the rules would be circular, since their
// targets name the queues the key encrypts).
func allowEventBridge(stack awscdk.Stack, key awskms.Key, ruleArns ...*string) {
	key.AddToResourcePolicy(awsiam.NewPolicyStatement(&awsiam.PolicyStatementProps{
		Sid:        jsii.String("EventBridgeDeadLetters"),
		Principals: &[]awsiam.IPrincipal{awsiam.NewServicePrincipal(jsii.String("events.amazonaws.com"), nil)},
		Actions:    jsii.Strings(useKey()...),
		Resources:  jsii.Strings("*"),
		Conditions: &map[string]any{"ArnEquals": map[string]any{"aws:SourceArn": jsii.Strings(derefAll(ruleArns)...)}},
	}), nil)
}

func derefAll(ps []*string) []string {
	out := make([]string, len(ps))
	for i, p := range ps {
		out[i] = *p
	}
	return out
}
