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
	svc.IAM.Resource = queueARN
	// SQS documents that a queue's new attributes can take up to 60
	// seconds to propagate (SetQueueAttributes).
	svc.Eventually("SetQueueAttributes")
	return svc
}
