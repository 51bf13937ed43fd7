package main

import (
	"github.com/aws/aws-cdk-go/awscdk/v2"
	"github.com/aws/aws-cdk-go/awscdk/v2/awskms"
	"github.com/aws/aws-cdk-go/awscdk/v2/awslogs"
	"github.com/aws/aws-cdk-go/awscdk/v2/awsstepfunctions"
	"github.com/aws/jsii-runtime-go"
)

// Both state machines log every event (level ALL) with its execution data
// (state input and output). That is safe because payloads carry references
// only — run id, StackRef, store keys, batch numbers, counts, a run summary
// — never templates, live models or findings, which stay in the table
// (statemachine/doc.go; TestStateMachinePayloadsAreReferences holds every
// field the definitions pass to that list). The one free-text field is a
// failed step's Error/Cause, the handler's error message, which the
// function's own log and the run record already hold. As defence in depth
// the log groups mask credentials (a data protection policy) and, like
// every log group here, are encrypted with the logs key.

// stateMachineLogs returns the logging of a state machine into a new log
// group id.
func stateMachineLogs(stack awscdk.Stack, id string, key awskms.Key) *awsstepfunctions.LogOptions {
	group := awslogs.NewLogGroup(stack, jsii.String(id), &awslogs.LogGroupProps{
		Retention:     awslogs.RetentionDays_ONE_MONTH,
		RemovalPolicy: awscdk.RemovalPolicy_DESTROY,
		EncryptionKey: key,
		DataProtectionPolicy: awslogs.NewDataProtectionPolicy(&awslogs.DataProtectionPolicyProps{
			Name:        jsii.String("realdrift-" + id + "-credentials"),
			Description: jsii.String("Mask credentials that could appear in a failed step's error message."),
			Identifiers: &[]awslogs.DataIdentifier{
				awslogs.DataIdentifier_AWSSECRETKEY(), awslogs.DataIdentifier_OPENSSHPRIVATEKEY(),
				awslogs.DataIdentifier_PGPPRIVATEKEY(), awslogs.DataIdentifier_PKCSPRIVATEKEY(),
				awslogs.DataIdentifier_PUTTYPRIVATEKEY(),
			},
		}),
	})
	return &awsstepfunctions.LogOptions{
		Destination:          group,
		Level:                awsstepfunctions.LogLevel_ALL,
		IncludeExecutionData: jsii.Bool(true),
	}
}
