package notify

import (
	"context"
	"fmt"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/eventbridge"
	"github.com/aws/aws-sdk-go-v2/service/eventbridge/types"
)

// eventPutter is the part of *eventbridge.Client the sender uses.
type eventPutter interface {
	PutEvents(ctx context.Context, in *eventbridge.PutEventsInput, optFns ...func(*eventbridge.Options)) (*eventbridge.PutEventsOutput, error)
}

var _ eventPutter = (*eventbridge.Client)(nil)

// EventBridge puts one event per stack alert on a bus: source Source,
// detail-type "Drift Detected", "Drift Resolved" or "Drift Coverage
// Incomplete", detail EventDetail.
type EventBridge struct {
	client eventPutter
	bus    string
}

// NewEventBridge returns a sender to the named bus ("" is the default bus).
func NewEventBridge(client eventPutter, bus string) *EventBridge {
	return &EventBridge{client: client, bus: bus}
}

// Send implements Sender.
func (e *EventBridge) Send(ctx context.Context, s Summary) error {
	if s.Event == EventNone {
		return fmt.Errorf("eventbridge %s: no event to send for an unchanged drift set", s.Stack)
	}
	detail, err := EventDetail(s)
	if err != nil {
		return fmt.Errorf("eventbridge %s: %w", s.Stack, err)
	}
	entry := types.PutEventsRequestEntry{
		Source:     aws.String(Source),
		DetailType: aws.String(s.Event.DetailType()),
		Detail:     aws.String(string(detail)),
	}
	if e.bus != "" {
		entry.EventBusName = aws.String(e.bus)
	}
	if !s.At.IsZero() {
		entry.Time = aws.Time(s.At)
	}
	out, err := e.client.PutEvents(ctx, &eventbridge.PutEventsInput{Entries: []types.PutEventsRequestEntry{entry}})
	if err != nil {
		return fmt.Errorf("put %s event for %s: %w", s.Event, s.Stack, err)
	}
	if out.FailedEntryCount > 0 {
		code, msg := "", ""
		if len(out.Entries) > 0 {
			code, msg = aws.ToString(out.Entries[0].ErrorCode), aws.ToString(out.Entries[0].ErrorMessage)
		}
		return fmt.Errorf("put %s event for %s: entry rejected: %s: %s", s.Event, s.Stack, code, msg)
	}
	return nil
}
