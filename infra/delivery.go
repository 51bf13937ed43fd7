package main

import (
	"github.com/aws/aws-cdk-go/awscdk/v2"
	"github.com/aws/aws-cdk-go/awscdk/v2/awsiam"
	"github.com/aws/aws-cdk-go/awscdk/v2/awskms"
	"github.com/aws/aws-cdk-go/awscdk/v2/awslambda"
	"github.com/aws/aws-cdk-go/awscdk/v2/awssqs"
	"github.com/aws/constructs-go/constructs/v10"
	"github.com/aws/jsii-runtime-go"
)

// Every asynchronous delivery (EventBridge rule targets, the Scheduler
// schedule, the trigger's asynchronous invocations) retries a bounded number
// of times within a bounded age, then leaves the event in an encrypted
// dead-letter queue instead of dropping it. The state machines invoke their
// Lambdas synchronously; their Retry and Catch are in the definitions.
const (
	// TargetRetryAttempts and TargetMaxEventAge (seconds) bound EventBridge's
	// delivery of a change event to the trigger. A change older than an hour
	// is left to the next sweep.
	TargetRetryAttempts = 2
	TargetMaxEventAge   = 3600
	// AsyncRetryAttempts and AsyncMaxEventAge (seconds) bound Lambda's
	// retries of a failed asynchronous trigger invocation.
	AsyncRetryAttempts = 2
	AsyncMaxEventAge   = 3600
	// ScheduleRetryAttempts and ScheduleMaxEventAge (seconds) bound the
	// Scheduler's start of a sweep.
	ScheduleRetryAttempts = 3
	ScheduleMaxEventAge   = 3600
)

// DeadLetterRetention is how long an undelivered event waits in a
// dead-letter queue: SQS's maximum, so a failure noticed late can still be
// replayed.
const DeadLetterRetention = 14 // days

// newDeadLetters returns a dead-letter queue encrypted with key (nil: SQS-
// managed encryption, for the member accounts, which have no key of ours).
func newDeadLetters(scope constructs.Construct, id string, key awskms.Key) awssqs.Queue {
	props := &awssqs.QueueProps{
		RetentionPeriod: awscdk.Duration_Days(jsii.Number(DeadLetterRetention)),
		EnforceSSL:      jsii.Bool(true),
		Encryption:      awssqs.QueueEncryption_SQS_MANAGED,
	}
	if key != nil {
		props.Encryption = awssqs.QueueEncryption_KMS
		props.EncryptionMasterKey = key
	}
	return awssqs.NewQueue(scope, jsii.String(id), props)
}

// sendDeadLetters lets role send to queue (the key policy lets it encrypt).
func sendDeadLetters(role awsiam.IRole, queue awssqs.Queue) {
	role.AddToPrincipalPolicy(awsiam.NewPolicyStatement(&awsiam.PolicyStatementProps{
		Sid:       jsii.String("SendDeadLetters"),
		Actions:   jsii.Strings("sqs:SendMessage"),
		Resources: jsii.Strings(*queue.QueueArn()),
	}))
}

// asyncInvoke sets fn's asynchronous invocation: bounded retries and age,
// and failed events to queue through the function's role. (The L1: the L2
// destination grants SQS and KMS actions by wildcard.)
func asyncInvoke(stack awscdk.Stack, fn awslambda.Function, queue awssqs.Queue) {
	sendDeadLetters(fn.Role(), queue)
	cfg := awslambda.NewCfnEventInvokeConfig(stack, jsii.String("AsyncInvoke"+*fn.Node().Id()), &awslambda.CfnEventInvokeConfigProps{
		FunctionName:             fn.FunctionName(),
		Qualifier:                jsii.String("$LATEST"),
		MaximumRetryAttempts:     jsii.Number(AsyncRetryAttempts),
		MaximumEventAgeInSeconds: jsii.Number(AsyncMaxEventAge),
		DestinationConfig: &awslambda.CfnEventInvokeConfig_DestinationConfigProperty{
			OnFailure: &awslambda.CfnEventInvokeConfig_OnFailureProperty{Destination: queue.QueueArn()},
		},
	})
	// Lambda checks the role may send to the destination when the
	// configuration is created.
	cfg.Node().AddDependency(fn.Role())
}
