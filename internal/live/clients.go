package live

import (
	"context"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/cloudcontrol"
	"github.com/aws/aws-sdk-go-v2/service/cloudformation"
	"github.com/aws/aws-sdk-go-v2/service/iam"
	"github.com/aws/aws-sdk-go-v2/service/lambda"
	"github.com/aws/aws-sdk-go-v2/service/s3"
	"github.com/aws/aws-sdk-go-v2/service/sns"
	"github.com/aws/aws-sdk-go-v2/service/sqs"
)

// The interfaces below are shaped like the SDK client methods, so the real
// clients satisfy them directly; tests use the same real clients against the
// sandbox.

type cloudControlAPI interface {
	GetResource(ctx context.Context, in *cloudcontrol.GetResourceInput, optFns ...func(*cloudcontrol.Options)) (*cloudcontrol.GetResourceOutput, error)
}

type stackResourcesAPI interface {
	DescribeStackResources(ctx context.Context, in *cloudformation.DescribeStackResourcesInput, optFns ...func(*cloudformation.Options)) (*cloudformation.DescribeStackResourcesOutput, error)
}

type s3API interface {
	GetBucketPolicy(ctx context.Context, in *s3.GetBucketPolicyInput, optFns ...func(*s3.Options)) (*s3.GetBucketPolicyOutput, error)
}

type sqsAPI interface {
	GetQueueAttributes(ctx context.Context, in *sqs.GetQueueAttributesInput, optFns ...func(*sqs.Options)) (*sqs.GetQueueAttributesOutput, error)
}

type snsAPI interface {
	GetTopicAttributes(ctx context.Context, in *sns.GetTopicAttributesInput, optFns ...func(*sns.Options)) (*sns.GetTopicAttributesOutput, error)
	ListSubscriptionsByTopic(ctx context.Context, in *sns.ListSubscriptionsByTopicInput, optFns ...func(*sns.Options)) (*sns.ListSubscriptionsByTopicOutput, error)
}

// iamInlineAPI reads inline policies of roles, users and groups.
type iamInlineAPI interface {
	GetRolePolicy(ctx context.Context, in *iam.GetRolePolicyInput, optFns ...func(*iam.Options)) (*iam.GetRolePolicyOutput, error)
	GetUserPolicy(ctx context.Context, in *iam.GetUserPolicyInput, optFns ...func(*iam.Options)) (*iam.GetUserPolicyOutput, error)
	GetGroupPolicy(ctx context.Context, in *iam.GetGroupPolicyInput, optFns ...func(*iam.Options)) (*iam.GetGroupPolicyOutput, error)
}

// iamManagedAPI reads customer managed policies.
type iamManagedAPI interface {
	GetPolicy(ctx context.Context, in *iam.GetPolicyInput, optFns ...func(*iam.Options)) (*iam.GetPolicyOutput, error)
	GetPolicyVersion(ctx context.Context, in *iam.GetPolicyVersionInput, optFns ...func(*iam.Options)) (*iam.GetPolicyVersionOutput, error)
	ListEntitiesForPolicy(ctx context.Context, in *iam.ListEntitiesForPolicyInput, optFns ...func(*iam.Options)) (*iam.ListEntitiesForPolicyOutput, error)
}

type iamAPI interface {
	iamInlineAPI
	iamManagedAPI
}

type lambdaAPI interface {
	GetPolicy(ctx context.Context, in *lambda.GetPolicyInput, optFns ...func(*lambda.Options)) (*lambda.GetPolicyOutput, error)
	ListFunctionUrlConfigs(ctx context.Context, in *lambda.ListFunctionUrlConfigsInput, optFns ...func(*lambda.Options)) (*lambda.ListFunctionUrlConfigsOutput, error)
	ListAliases(ctx context.Context, in *lambda.ListAliasesInput, optFns ...func(*lambda.Options)) (*lambda.ListAliasesOutput, error)
	ListEventSourceMappings(ctx context.Context, in *lambda.ListEventSourceMappingsInput, optFns ...func(*lambda.Options)) (*lambda.ListEventSourceMappingsOutput, error)
	ListVersionsByFunction(ctx context.Context, in *lambda.ListVersionsByFunctionInput, optFns ...func(*lambda.Options)) (*lambda.ListVersionsByFunctionOutput, error)
}

var (
	_ cloudControlAPI   = (*cloudcontrol.Client)(nil)
	_ stackResourcesAPI = (*cloudformation.Client)(nil)
	_ s3API             = (*s3.Client)(nil)
	_ sqsAPI            = (*sqs.Client)(nil)
	_ snsAPI            = (*sns.Client)(nil)
	_ iamAPI            = (*iam.Client)(nil)
	_ lambdaAPI         = (*lambda.Client)(nil)
)

// Clients holds the service clients the readers call, for one account and
// region. Build it with NewClients from one aws.Config, or set the fields
// yourself (any value with the SDK method shapes will do). A nil field makes
// the readers that need it skip with a reason.
type Clients struct {
	CloudControl   cloudControlAPI
	CloudFormation stackResourcesAPI
	S3             s3API
	SQS            sqsAPI
	SNS            snsAPI
	IAM            iamAPI
	Lambda         lambdaAPI
}

// NewClients builds every client from cfg. When cfg carries a custom base
// endpoint (a sandbox or another emulator) S3 is addressed path-style, since
// such an endpoint has no per-bucket host names.
func NewClients(cfg aws.Config) *Clients {
	custom := cfg.BaseEndpoint != nil && *cfg.BaseEndpoint != ""
	return &Clients{
		CloudControl:   cloudcontrol.NewFromConfig(cfg),
		CloudFormation: cloudformation.NewFromConfig(cfg),
		S3: s3.NewFromConfig(cfg, func(o *s3.Options) {
			if custom {
				o.UsePathStyle = true
			}
		}),
		SQS:    sqs.NewFromConfig(cfg),
		SNS:    sns.NewFromConfig(cfg),
		IAM:    iam.NewFromConfig(cfg),
		Lambda: lambda.NewFromConfig(cfg),
	}
}
