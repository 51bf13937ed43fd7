package live

import (
	"context"
	"fmt"

	"github.com/aws/aws-sdk-go-v2/service/sns"
)

// readTopicPolicy reads AWS::SNS::TopicPolicy: {Topics, PolicyDocument}.
// Its physical id is a generated id, so the topics are the declared Topics
// (ARNs). Live Topics lists the declared topics that still exist;
// PolicyDocument is the first one's policy.
func readTopicPolicy(ctx context.Context, c *Clients, r Request) (map[string]any, error) {
	arns, err := declaredStrings(r.Declared, "Topics")
	if err != nil {
		return nil, err
	}
	if len(arns) == 0 {
		return nil, skip("declared Topics is empty")
	}
	var have []string
	var doc map[string]any
	for _, a := range arns {
		d, err := topicPolicy(ctx, c, a)
		if isNotFound(err) {
			continue
		}
		if err != nil {
			return nil, err
		}
		if doc == nil {
			doc = d
		}
		have = append(have, a)
	}
	if doc == nil {
		return nil, fmt.Errorf("policy of topics %v: %w", arns, ErrNotFound)
	}
	return map[string]any{"Topics": strList(have), "PolicyDocument": doc}, nil
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
