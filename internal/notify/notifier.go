package notify

import (
	"context"
	"errors"
)

// Sender delivers one stack's alert on one channel.
type Sender interface {
	Send(ctx context.Context, s Summary) error
}

var (
	_ Sender = (*SNS)(nil)
	_ Sender = (*Slack)(nil)
	_ Sender = (*EventBridge)(nil)
)

// Notifier sends a Summary on every configured channel.
type Notifier struct {
	senders []Sender
}

// New returns a Notifier over the given senders.
func New(senders ...Sender) *Notifier { return &Notifier{senders: senders} }

// Notify sends s on every channel when its event is not EventNone. It
// reports whether anything was attempted; the error joins every channel's
// failure (the other channels are still tried).
func (n *Notifier) Notify(ctx context.Context, s Summary) (sent bool, err error) {
	if s.Event == EventNone {
		return false, nil
	}
	var errs []error
	for _, snd := range n.senders {
		if err := snd.Send(ctx, s); err != nil {
			errs = append(errs, err)
		}
	}
	return true, errors.Join(errs...)
}
