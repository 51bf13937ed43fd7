package sqs

import "github.com/realdrift/realdrift/internal/sandbox/wire"

// Service is the service's registration: its wire facts and operations.
func Service() *wire.Service {
	svc := wire.JSON("sqs", "1.0", "AmazonSQS.", wire.Ops{
		"GetQueueAttributes": sqsGetQueueAttributes,
		"SetQueueAttributes": sqsSetQueueAttributes,
	})
	svc.Throttle = wire.Error{Status: 400, Code: "ThrottlingException", QueryCode: "RequestThrottled"}
	svc.Deny = wire.Error{Status: 400, Code: "AccessDeniedException", QueryCode: "AccessDenied"}
	svc.QueryXMLNS = "http://queue.amazonaws.com/doc/2012-11-05/"
	// A request breaking the model's input constraints: JSON's
	// ValidationException, and in the query protocol (and JSON's
	// x-amzn-query-error) InvalidParameterValue, the query API's error
	// for an invalid or out-of-range parameter.
	svc.Invalid = wire.Error{Status: 400, Code: "ValidationException", QueryCode: "InvalidParameterValue"}
	svc.IAM.Resource = queueARN
	// An out-of-band change of a queue is checked as SetQueueAttributes
	// carrying its properties as attributes would be (an attribute name
	// outside the model's QueueAttributeName); the queue's name, URL,
	// ARN and tags are not attributes it writes.
	svc.Models = map[string][]wire.ModelInput{
		"AWS::SQS::Queue": {{Op: "SetQueueAttributes", Shape: "QueueAttributeMap", At: "Attributes",
			Entries: map[string]string{"QueueName": "", "QueueUrl": "", "Arn": "", "Tags": ""}}},
	}
	// SQS documents that a queue's new attributes can take up to 60
	// seconds to propagate (SetQueueAttributes).
	svc.Eventually("SetQueueAttributes")
	return svc
}
