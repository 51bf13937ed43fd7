package live

import (
	"context"
	"fmt"

	"github.com/aws/aws-sdk-go-v2/service/sqs"
	sqstypes "github.com/aws/aws-sdk-go-v2/service/sqs/types"
)

// readQueuePolicy reads AWS::SQS::QueuePolicy: {Queues, PolicyDocument}.
// Its physical id is a generated id no API accepts, so the queues are the
// declared Queues (URLs). Live Queues lists the declared queues that carry
// a policy; PolicyDocument is the first of them. No queue with a policy
// means the policy was deleted.
func readQueuePolicy(ctx context.Context, c *Clients, r Request) (map[string]any, error) {
	urls, err := declaredStrings(r.Declared, "Queues")
	if err != nil {
		return nil, err
	}
	if len(urls) == 0 {
		return nil, skip("declared Queues is empty")
	}
	var have []string
	var doc map[string]any
	for _, u := range urls {
		d, err := queuePolicy(ctx, c, u)
		if isNotFound(err) {
			continue
		}
		if err != nil {
			return nil, err
		}
		if doc == nil {
			doc = d
		}
		have = append(have, u)
	}
	if doc == nil {
		return nil, fmt.Errorf("policy of queues %v: %w", urls, ErrNotFound)
	}
	return map[string]any{"Queues": strList(have), "PolicyDocument": doc}, nil
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
