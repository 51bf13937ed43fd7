package main

import (
	"encoding/json"
	"fmt"
	"os"

	"github.com/aws/aws-cdk-go/awscdk/v2"
	"github.com/aws/aws-cdk-go/awscdk/v2/awsevents"
	"github.com/aws/aws-cdk-go/awscdk/v2/awseventstargets"
	"github.com/aws/aws-cdk-go/awscdk/v2/awsiam"
	"github.com/aws/constructs-go/constructs/v10"
	"github.com/aws/jsii-runtime-go"
)

// The CloudTrail events that start the trigger are filtered at the rules,
// so an event the trigger would drop costs nothing: a management write
// (readOnly false) that succeeded (no errorCode), not made by
// CloudFormation (sourceIPAddress; deploys are not drift), of a service
// that owns CloudFormation-managed resources (an allow-list: a service
// missing here is still covered by the sweeps), except the write calls
// that change no resource's configuration (data-plane and session calls
// CloudTrail records as management events). The trigger checks the same
// conditions again (defence in depth) and maps what passes through the
// resource index.

// regionalSources are the CloudTrail event sources of regional services
// whose resources CloudFormation stacks commonly own: their events are
// recorded in the resource's region.
var regionalSources = []string{
	"acm.amazonaws.com", "apigateway.amazonaws.com", "appsync.amazonaws.com",
	"autoscaling.amazonaws.com", "backup.amazonaws.com", "batch.amazonaws.com",
	"cloudtrail.amazonaws.com", "codebuild.amazonaws.com", "codepipeline.amazonaws.com",
	"cognito-idp.amazonaws.com", "dynamodb.amazonaws.com", "ec2.amazonaws.com",
	"ecr.amazonaws.com", "ecs.amazonaws.com", "eks.amazonaws.com",
	"elasticache.amazonaws.com", "elasticfilesystem.amazonaws.com", "elasticloadbalancing.amazonaws.com",
	"es.amazonaws.com", "events.amazonaws.com", "firehose.amazonaws.com",
	"glue.amazonaws.com", "kafka.amazonaws.com", "kinesis.amazonaws.com",
	"kms.amazonaws.com", "lambda.amazonaws.com", "logs.amazonaws.com",
	"monitoring.amazonaws.com", "pipes.amazonaws.com", "rds.amazonaws.com",
	"redshift.amazonaws.com", "s3.amazonaws.com", "scheduler.amazonaws.com",
	"secretsmanager.amazonaws.com", "sns.amazonaws.com", "sqs.amazonaws.com",
	"ssm.amazonaws.com", "states.amazonaws.com", "wafv2.amazonaws.com",
}

// globalSources are the event sources of global services: CloudTrail
// records their events in the partition's global region (us-east-1), so
// the member accounts forward them from there (the global StackSet),
// whatever the swept regions. internal/service's globalSources mirrors it.
var globalSources = []string{
	"cloudfront.amazonaws.com", "iam.amazonaws.com", "route53.amazonaws.com",
}

// quietEventNames are write calls of those services that change no
// resource's configuration: keys used, sessions, messages, metrics,
// executions, logs, parameters read by version.
var quietEventNames = []string{
	"Decrypt", "Encrypt", "GenerateDataKey", "GenerateDataKeyWithoutPlaintext", "ReEncrypt", "Sign", "Verify",
	"CreateGrant", "RetireGrant", "StartSession", "ResumeSession", "TerminateSession", "SendCommand",
	"StartExecution", "StopExecution", "SendTaskSuccess", "SendTaskFailure", "SendTaskHeartbeat",
	"PutMetricData", "PutEvents", "CreateLogStream", "StartQuery", "StopQuery",
	"StartBuild", "StartPipelineExecution", "SetDesiredCapacity", "RecordLifecycleActionHeartbeat",
	"CompleteLifecycleAction", "GetAuthorizationToken", "CreateNetworkInterface", "DeleteNetworkInterface",
}

// cloudFormationPrincipal is the source of calls CloudFormation makes.
const cloudFormationPrincipal = "cloudformation.amazonaws.com"

// TriggerReservedConcurrency caps the trigger's concurrent invocations: a
// burst of changes queues (asynchronous invocations wait and retry, then
// land in the dead-letter queue) instead of taking the account's
// concurrency. Each invocation is a few index lookups and one write.
const TriggerReservedConcurrency = 5

// FlushSchedule is how often the trigger's flush starts the checks whose
// debounce windows closed (internal/service debounce.go).
const FlushSchedule = "rate(1 minute)"

// FlushRuleName is the scheduled rule that sends the flush.
const FlushRuleName = "realdrift-trigger-flush"

// flushInput is the flush event (internal/service FlushSource,
// FlushDetailType).
func flushInput() map[string]any {
	return map[string]any{"source": "realdrift.trigger", "detail-type": "Debounce Flush"}
}

// cloudTrailChange matches the CloudTrail events of sources that may
// change a CloudFormation-managed resource (see above).
func cloudTrailChange(sources []string) *awsevents.EventPattern {
	return &awsevents.EventPattern{
		DetailType: jsii.Strings("AWS API Call via CloudTrail"),
		Detail: &map[string]any{
			"eventCategory":   []string{"Management"},
			"readOnly":        []bool{false},
			"eventSource":     sources,
			"eventName":       []any{map[string]any{"anything-but": quietEventNames}},
			"errorCode":       []any{map[string]any{"exists": false}},
			"sourceIPAddress": []any{map[string]any{"anything-but": []string{cloudFormationPrincipal}}},
		},
	}
}

// triggerSources are the sources the central rules pass: a member
// forwards regional events from each swept region and global ones from
// the global region, and the central account's own events arrive on its
// default bus (the central region's regional ones, and global ones when
// the central region is the global region).
func triggerSources() []string {
	return append(append([]string(nil), regionalSources...), globalSources...)
}

// GlobalEventsRegion is where CloudTrail records global services' events,
// per partition.
var GlobalEventsRegion = map[string]string{"aws": "us-east-1", "aws-us-gov": "us-gov-west-1", "aws-cn": "cn-north-1"}

// MemberGlobalStackSetName is the StackSet forwarding member accounts'
// global-service events from the global region.
const MemberGlobalStackSetName = "realdrift-member-global"

// MemberGlobalStackName names the global forwarding template's stack.
const MemberGlobalStackName = "RealdriftMemberGlobal"

// NewMemberGlobal defines the member accounts' global-service forwarding,
// deployed only in the global region: one rule passing the global sources
// to the central bus, as the member template does for the regional ones.
func NewMemberGlobal(scope constructs.Construct, id string) awscdk.Stack {
	stack := awscdk.NewStack(scope, jsii.String(id), &awscdk.StackProps{
		Synthesizer: awscdk.NewBootstraplessSynthesizer(&awscdk.BootstraplessSynthesizerProps{}),
		Description: jsii.String("realdrift member account: forwards global-service (IAM, CloudFront, Route 53) CloudTrail changes from the global region."),
	})
	busArn := awscdk.NewCfnParameter(stack, jsii.String("CentralEventBusArn"), &awscdk.CfnParameterProps{
		Type: jsii.String("String"), Description: jsii.String("The realdrift event bus in the central account."),
	})
	bus := awsevents.EventBus_FromEventBusArn(stack, jsii.String("CentralBus"), busArn.ValueAsString())
	role := awsiam.NewRole(stack, jsii.String("ForwardRole"), &awsiam.RoleProps{
		AssumedBy:   awsiam.NewServicePrincipal(jsii.String("events.amazonaws.com"), nil),
		Description: jsii.String("Forwards global-service CloudTrail change events to the realdrift bus."),
	})
	awsevents.NewRule(stack, jsii.String("ForwardGlobalChanges"), &awsevents.RuleProps{
		Description:  jsii.String("Forward global-service CloudTrail management events that change resources to the realdrift central bus."),
		EventPattern: cloudTrailChange(globalSources),
		Targets: &[]awsevents.IRuleTarget{awseventstargets.NewEventBus(bus, &awseventstargets.EventBusProps{
			Role:            role,
			DeadLetterQueue: newDeadLetters(stack, "ForwardDeadLetters", nil),
		})},
	})
	return stack
}

// memberGlobalTemplate synthesizes NewMemberGlobal's template body.
func memberGlobalTemplate() (string, error) {
	dir, err := os.MkdirTemp("", "realdrift-member-global-")
	if err != nil {
		return "", fmt.Errorf("member global template: %w", err)
	}
	defer os.RemoveAll(dir)
	app := awscdk.NewApp(&awscdk.AppProps{Outdir: jsii.String(dir), AnalyticsReporting: jsii.Bool(false)})
	NewMemberGlobal(app, MemberGlobalStackName)
	tpl := app.Synth(nil).GetStackByName(jsii.String(MemberGlobalStackName)).Template()
	b, err := json.Marshal(tpl)
	if err != nil {
		return "", fmt.Errorf("member global template: %w", err)
	}
	return string(b), nil
}

// globalRegionMapping is GlobalEventsRegion as a template mapping
// (partition → region).
func globalRegionMapping() *map[string]*map[string]any {
	m := map[string]*map[string]any{}
	for partition, region := range GlobalEventsRegion {
		m[partition] = &map[string]any{"region": region}
	}
	return &m
}
