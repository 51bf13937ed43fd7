package live

import (
	"context"
	"fmt"

	"github.com/aws/aws-sdk-go-v2/service/sqs"
	sqstypes "github.com/aws/aws-sdk-go-v2/service/sqs/types"
)

// readQueuePolicy reads AWS::SQS::QueuePolicy: {Queues, PolicyDocument},
// the queues being the declared Queues (URLs); see readAttachedPolicy.
func readQueuePolicy(ctx context.Context, c *Clients, r Request) (map[string]any, error) {
	return readAttachedPolicy(ctx, c, r, "Queues", queuePolicy)
}

// queuePolicy returns a queue's access policy; ErrNotFound when it has none.
func queuePolicy(ctx context.Context, c *Clients, queueURL string) (map[string]any, error) {
	if c.SQS == nil {
		return nil, skip("no SQS client")
	}
	out, err := c.SQS.GetQueueAttributes(ctx, &sqs.GetQueueAttributesInput{
		QueueUrl:       &queueURL,
		AttributeNames: []sqstypes.QueueAttributeName{sqstypes.QueueAttributeNamePolicy},
	})
	if err != nil {
		return nil, err
	}
	p := out.Attributes[string(sqstypes.QueueAttributeNamePolicy)]
	if p == "" {
		return nil, fmt.Errorf("policy of queue %s: %w", queueURL, ErrNotFound)
	}
	return parsePolicy(p)
}
