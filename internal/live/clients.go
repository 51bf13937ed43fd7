package live

import (
	"context"
	"strings"
	"sync"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/acm"
	"github.com/aws/aws-sdk-go-v2/service/applicationautoscaling"
	"github.com/aws/aws-sdk-go-v2/service/appsync"
	"github.com/aws/aws-sdk-go-v2/service/autoscaling"
	"github.com/aws/aws-sdk-go-v2/service/budgets"
	"github.com/aws/aws-sdk-go-v2/service/cloudcontrol"
	"github.com/aws/aws-sdk-go-v2/service/cloudformation"
	"github.com/aws/aws-sdk-go-v2/service/cloudwatch"
	"github.com/aws/aws-sdk-go-v2/service/cloudwatchlogs"
	"github.com/aws/aws-sdk-go-v2/service/codebuild"
	"github.com/aws/aws-sdk-go-v2/service/codedeploy"
	"github.com/aws/aws-sdk-go-v2/service/cognitoidentity"
	cognito "github.com/aws/aws-sdk-go-v2/service/cognitoidentityprovider"
	"github.com/aws/aws-sdk-go-v2/service/configservice"
	dms "github.com/aws/aws-sdk-go-v2/service/databasemigrationservice"
	"github.com/aws/aws-sdk-go-v2/service/dax"
	"github.com/aws/aws-sdk-go-v2/service/dlm"
	"github.com/aws/aws-sdk-go-v2/service/docdb"
	"github.com/aws/aws-sdk-go-v2/service/ec2"
	"github.com/aws/aws-sdk-go-v2/service/ecs"
	"github.com/aws/aws-sdk-go-v2/service/elasticache"
	"github.com/aws/aws-sdk-go-v2/service/elasticbeanstalk"
	elbv2 "github.com/aws/aws-sdk-go-v2/service/elasticloadbalancingv2"
	"github.com/aws/aws-sdk-go-v2/service/eventbridge"
	"github.com/aws/aws-sdk-go-v2/service/glue"
	"github.com/aws/aws-sdk-go-v2/service/iam"
	"github.com/aws/aws-sdk-go-v2/service/kafka"
	"github.com/aws/aws-sdk-go-v2/service/kms"
	"github.com/aws/aws-sdk-go-v2/service/lakeformation"
	"github.com/aws/aws-sdk-go-v2/service/lambda"
	"github.com/aws/aws-sdk-go-v2/service/lexmodelsv2"
	"github.com/aws/aws-sdk-go-v2/service/mediaconvert"
	"github.com/aws/aws-sdk-go-v2/service/memorydb"
	"github.com/aws/aws-sdk-go-v2/service/rds"
	"github.com/aws/aws-sdk-go-v2/service/redshiftserverless"
	"github.com/aws/aws-sdk-go-v2/service/route53"
	"github.com/aws/aws-sdk-go-v2/service/s3"
	"github.com/aws/aws-sdk-go-v2/service/sagemaker"
	"github.com/aws/aws-sdk-go-v2/service/scheduler"
	"github.com/aws/aws-sdk-go-v2/service/secretsmanager"
	"github.com/aws/aws-sdk-go-v2/service/servicediscovery"
	"github.com/aws/aws-sdk-go-v2/service/ses"
	"github.com/aws/aws-sdk-go-v2/service/sns"
	"github.com/aws/aws-sdk-go-v2/service/sqs"
	"github.com/aws/aws-sdk-go-v2/service/ssm"
	"github.com/aws/aws-sdk-go-v2/service/sts"

	"github.com/realdrift/realdrift/internal/sdkhttp"
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
	GetObject(ctx context.Context, in *s3.GetObjectInput, optFns ...func(*s3.Options)) (*s3.GetObjectOutput, error)
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
	accessKeysAPI
}

type lambdaAPI interface {
	GetPolicy(ctx context.Context, in *lambda.GetPolicyInput, optFns ...func(*lambda.Options)) (*lambda.GetPolicyOutput, error)
	ListFunctionUrlConfigs(ctx context.Context, in *lambda.ListFunctionUrlConfigsInput, optFns ...func(*lambda.Options)) (*lambda.ListFunctionUrlConfigsOutput, error)
	ListAliases(ctx context.Context, in *lambda.ListAliasesInput, optFns ...func(*lambda.Options)) (*lambda.ListAliasesOutput, error)
	ListEventSourceMappings(ctx context.Context, in *lambda.ListEventSourceMappingsInput, optFns ...func(*lambda.Options)) (*lambda.ListEventSourceMappingsOutput, error)
	ListVersionsByFunction(ctx context.Context, in *lambda.ListVersionsByFunctionInput, optFns ...func(*lambda.Options)) (*lambda.ListVersionsByFunctionOutput, error)
	GetFunctionConfiguration(ctx context.Context, in *lambda.GetFunctionConfigurationInput, optFns ...func(*lambda.Options)) (*lambda.GetFunctionConfigurationOutput, error)
}

// identityAPI names the caller's account, for identifiers that are ARNs.
type identityAPI interface {
	GetCallerIdentity(ctx context.Context, in *sts.GetCallerIdentityInput, optFns ...func(*sts.Options)) (*sts.GetCallerIdentityOutput, error)
}

var (
	_ identityAPI       = (*sts.Client)(nil)
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
	CloudControl       cloudControlAPI
	CloudFormation     stackResourcesAPI
	S3                 s3API
	SQS                sqsAPI
	SNS                snsAPI
	IAM                iamAPI
	Lambda             lambdaAPI
	EC2                ec2API
	Logs               logsAPI
	Events             eventsAPI
	KMS                kmsAPI
	Secrets            secretsAPI
	ECS                ecsAPI
	Cognito            cognitoAPI
	SSM                ssmAPI
	AutoScaling        autoScalingAPI
	CodeDeploy         codeDeployAPI
	Route53            route53API
	ACM                acmAPI
	CodeBuild          codeBuildAPI
	Scheduler          schedulerAPI
	Config             configAPI
	ServiceDiscovery   serviceDiscoveryAPI
	ELBv2              elbv2API
	ElastiCache        elastiCacheAPI
	DAX                daxAPI
	SES                sesAPI
	Glue               glueAPI
	AppSync            appSyncAPI
	LakeFormation      lakeFormationAPI
	MediaConvert       mediaConvertAPI
	MemoryDB           memoryDBAPI
	Kafka              kafkaAPI
	DocDB              docDBAPI
	DMS                dmsAPI
	Budgets            budgetsAPI
	DLM                dlmAPI
	SageMaker          sageMakerAPI
	CognitoIdentity    cognitoIdentityAPI
	CloudWatch         cloudWatchAPI
	ElasticBeanstalk   elasticBeanstalkAPI
	RedshiftServerless redshiftServerlessAPI
	LexModels          lexModelsAPI
	RDS                rdsAPI
	AppAutoScaling     appAutoScalingAPI

	// HTTP fetches the presigned URLs some answers hold (a trust store's
	// CA bundle): the aws.Config's HTTP client.
	HTTP httpDoer
	// Endpoint is the custom base endpoint the clients were built with
	// (a sandbox or another emulator); empty on AWS.
	Endpoint string

	// Region and Account are the scope of the clients, for identifiers
	// that are ARNs. An empty Account is asked of Identity once, on first
	// need.
	Region   string
	Account  string
	Identity identityAPI
	account  *accountOnce
}

type accountOnce struct {
	once sync.Once
	id   string
	err  error
}

// scope returns the clients' partition, region and account, asking STS for
// the account at most once per Clients built by NewClients.
func (c *Clients) scope(ctx context.Context) scopeFunc {
	return func() (Scope, error) {
		s := Scope{Partition: partition(c.Region), Region: c.Region, Account: c.Account}
		if s.Region == "" {
			return Scope{}, skip("the identifier is an ARN, and the region is unknown")
		}
		if s.Account != "" {
			return s, nil
		}
		if c.Identity == nil {
			return Scope{}, skip("the identifier is an ARN, and no STS client names the account")
		}
		ask := func() (string, error) {
			out, err := c.Identity.GetCallerIdentity(ctx, &sts.GetCallerIdentityInput{})
			if err != nil {
				return "", err
			}
			return deref(out.Account), nil
		}
		var err error
		if c.account != nil {
			c.account.once.Do(func() { c.account.id, c.account.err = ask() })
			s.Account, err = c.account.id, c.account.err
		} else {
			s.Account, err = ask()
		}
		if err != nil {
			return Scope{}, err
		}
		return s, nil
	}
}

// partition is the ARN partition of a region.
func partition(region string) string {
	switch {
	case strings.HasPrefix(region, "cn-"):
		return "aws-cn"
	case strings.HasPrefix(region, "us-gov-"):
		return "aws-us-gov"
	case strings.HasPrefix(region, "us-iso-"):
		return "aws-iso"
	case strings.HasPrefix(region, "us-isob-"):
		return "aws-iso-b"
	}
	return "aws"
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
		SQS:                sqs.NewFromConfig(cfg),
		SNS:                sns.NewFromConfig(cfg),
		IAM:                iam.NewFromConfig(cfg),
		Lambda:             lambda.NewFromConfig(cfg),
		EC2:                ec2.NewFromConfig(cfg),
		Logs:               cloudwatchlogs.NewFromConfig(cfg),
		Events:             eventbridge.NewFromConfig(cfg),
		KMS:                kms.NewFromConfig(cfg),
		Secrets:            secretsmanager.NewFromConfig(cfg),
		ECS:                ecs.NewFromConfig(cfg),
		Cognito:            cognito.NewFromConfig(cfg),
		SSM:                ssm.NewFromConfig(cfg),
		AutoScaling:        autoscaling.NewFromConfig(cfg),
		CodeDeploy:         codedeploy.NewFromConfig(cfg),
		Route53:            route53.NewFromConfig(cfg),
		ACM:                acm.NewFromConfig(cfg),
		CodeBuild:          codebuild.NewFromConfig(cfg),
		Scheduler:          scheduler.NewFromConfig(cfg),
		Config:             configservice.NewFromConfig(cfg),
		ServiceDiscovery:   servicediscovery.NewFromConfig(cfg),
		ELBv2:              elbv2.NewFromConfig(cfg),
		ElastiCache:        elasticache.NewFromConfig(cfg),
		DAX:                dax.NewFromConfig(cfg),
		SES:                ses.NewFromConfig(cfg),
		Glue:               glue.NewFromConfig(cfg),
		AppSync:            appsync.NewFromConfig(cfg),
		LakeFormation:      lakeformation.NewFromConfig(cfg),
		MediaConvert:       mediaconvert.NewFromConfig(cfg),
		MemoryDB:           memorydb.NewFromConfig(cfg),
		Kafka:              kafka.NewFromConfig(cfg),
		DocDB:              docdb.NewFromConfig(cfg),
		DMS:                dms.NewFromConfig(cfg),
		Budgets:            budgets.NewFromConfig(cfg),
		DLM:                dlm.NewFromConfig(cfg),
		SageMaker:          sagemaker.NewFromConfig(cfg),
		CognitoIdentity:    cognitoidentity.NewFromConfig(cfg),
		CloudWatch:         cloudwatch.NewFromConfig(cfg),
		ElasticBeanstalk:   elasticbeanstalk.NewFromConfig(cfg),
		RedshiftServerless: redshiftserverless.NewFromConfig(cfg),
		RDS:                rds.NewFromConfig(cfg),
		AppAutoScaling:     applicationautoscaling.NewFromConfig(cfg),
		HTTP:               httpClient(cfg),
		Endpoint:           aws.ToString(cfg.BaseEndpoint),
		Region:             cfg.Region,
		Identity:           sts.NewFromConfig(cfg),
		account:            &accountOnce{},
		LexModels:          lexmodelsv2.NewFromConfig(cfg),
	}
}

// httpClient is cfg's HTTP client, else the SDK's default one sending
// bodies from memory (sdkhttp).
func httpClient(cfg aws.Config) httpDoer {
	if cfg.HTTPClient != nil {
		return cfg.HTTPClient
	}
	return sdkhttp.New()
}
