package live

import (
	"context"
	"fmt"

	"github.com/aws/aws-sdk-go-v2/service/sns"
)

// readTopicPolicy reads AWS::SNS::TopicPolicy: {Topics, PolicyDocument},
// the topics being the declared Topics (ARNs); a topic that no longer
// exists is left out of live Topics. See readAttachedPolicy.
func readTopicPolicy(ctx context.Context, c *Clients, r Request) (map[string]any, error) {
	return readAttachedPolicy(ctx, c, r, "Topics", topicPolicy)
}

// topicPolicy returns a topic's access policy. Every SNS topic has one (the
// AWS default when none was set).
func topicPolicy(ctx context.Context, c *Clients, topicARN string) (map[string]any, error) {
	if c.SNS == nil {
		return nil, skip("no SNS client")
	}
	out, err := c.SNS.GetTopicAttributes(ctx, &sns.GetTopicAttributesInput{TopicArn: &topicARN})
	if err != nil {
		return nil, err
	}
	p := out.Attributes["Policy"]
	if p == "" {
		return nil, fmt.Errorf("policy of topic %s: %w", topicARN, ErrNotFound)
	}
	return parsePolicy(p)
}
