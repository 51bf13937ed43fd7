package notify

import (
	"context"
	"fmt"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/sns"
	"github.com/aws/aws-sdk-go-v2/service/sns/types"
)

// snsPublisher is the part of *sns.Client the SNS sender uses.
type snsPublisher interface {
	Publish(ctx context.Context, in *sns.PublishInput, optFns ...func(*sns.Options)) (*sns.PublishOutput, error)
}

var _ snsPublisher = (*sns.Client)(nil)

// SNS publishes alerts to a topic: Subject, Text as the message, and
// SNSAttributes as message attributes.
type SNS struct {
	client   snsPublisher
	topicARN string
}

// NewSNS returns a sender publishing to topicARN.
func NewSNS(client snsPublisher, topicARN string) *SNS {
	return &SNS{client: client, topicARN: topicARN}
}

// Send implements Sender.
func (p *SNS) Send(ctx context.Context, s Summary) error {
	attrs, err := SNSAttributes(s)
	if err != nil {
		return fmt.Errorf("sns %s: %w", s.Stack, err)
	}
	in := &sns.PublishInput{
		TopicArn:          aws.String(p.topicARN),
		Subject:           aws.String(Subject(s)),
		Message:           aws.String(Text(s)),
		MessageAttributes: map[string]types.MessageAttributeValue{},
	}
	for name, a := range attrs {
		in.MessageAttributes[name] = types.MessageAttributeValue{DataType: aws.String(a.DataType), StringValue: aws.String(a.Value)}
	}
	if _, err := p.client.Publish(ctx, in); err != nil {
		return fmt.Errorf("publish %s alert for %s to %s: %w", s.Event, s.Stack, p.topicARN, err)
	}
	return nil
}
