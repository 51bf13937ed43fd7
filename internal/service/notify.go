package service

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/eventbridge"
	ebtypes "github.com/aws/aws-sdk-go-v2/service/eventbridge/types"

	"github.com/realdrift/realdrift/internal/drift"
	"github.com/realdrift/realdrift/internal/notify"
	"github.com/realdrift/realdrift/statemachine"
)

// SweepDetailType is the EventBridge detail-type of a sweep's summary.
const SweepDetailType = "Drift Sweep Completed"

// notifiedState records what notify sent for a stack in a run.
type notifiedState struct {
	Fingerprint string `json:"fingerprint"`
	Event       string `json:"event"`
}

// Notify is the notify function. For a stack whose drift set changed it
// sends the alert on every configured channel (SNS, Slack, EventBridge),
// once: a retry after a successful send finds the run's record and sends
// nothing. A delivered alert's fingerprint is remembered for the stack
// (persist compares the next check with it), so an alert that failed is
// sent again by the next check. For a sweep it puts the run summary on the event bus, when one
// is configured.
func (s *Service) Notify(ctx context.Context, in statemachine.NotifyTask) (struct{}, error) {
	switch in.Kind {
	case statemachine.KindStack:
		return struct{}{}, stepError(s.notifyStack(ctx, in))
	case statemachine.KindSweep:
		return struct{}{}, stepError(s.notifySweep(ctx, in))
	}
	return struct{}{}, fmt.Errorf("notify: unknown kind %q", in.Kind)
}

func (s *Service) notifyStack(ctx context.Context, in statemachine.NotifyTask) error {
	if in.Stack == nil {
		return fmt.Errorf("notify: no stack")
	}
	stack := *in.Stack
	var ps persistedState
	if err := s.mustJSON(ctx, in.RunID, stateKey(keyPersisted, stack), &ps); err != nil {
		return err
	}
	findings, err := s.loadFindings(ctx, in.RunID, in.FindingsKey)
	if err != nil {
		return err
	}
	sum := notify.Summarize(stack, in.RunID, ps.FinishedAt, findings, ps.Previous)
	if sum.Event == notify.EventNone {
		return nil
	}
	var sent notifiedState
	ok, err := s.getJSON(ctx, in.RunID, stateKey(keyNotified, stack), &sent)
	if err != nil {
		return err
	}
	if ok && sent.Fingerprint == sum.Fingerprint {
		return nil // a retry: already sent
	}
	if _, err := s.notifier.Notify(ctx, sum); err != nil {
		// Keep the last delivered drift set as the stack's, so the next
		// check still finds the drift set changed and alerts again.
		if rerr := s.rememberAlert(ctx, stack, notifiedState{Fingerprint: ps.Previous}); rerr != nil {
			err = errors.Join(err, rerr)
		}
		return fmt.Errorf("notify %s: %w", stack, err)
	}
	sent = notifiedState{Fingerprint: sum.Fingerprint, Event: sum.Event.String()}
	if err := s.putJSON(ctx, in.RunID, stateKey(keyNotified, stack), sent); err != nil {
		return err
	}
	return s.rememberAlert(ctx, stack, sent)
}

// rememberAlert records the drift set the stack's alerts last reported.
func (s *Service) rememberAlert(ctx context.Context, stack drift.StackRef, sent notifiedState) error {
	b, err := json.Marshal(sent)
	if err != nil {
		return fmt.Errorf("remember alert of %s: %w", stack, err)
	}
	return s.store.PutState(ctx, alertsRun, stateKey(keyAlerted, stack), b, s.now().Add(AlertMemory))
}

func (s *Service) notifySweep(ctx context.Context, in statemachine.NotifyTask) error {
	if s.events == nil || in.Summary == nil {
		return nil
	}
	detail, err := json.Marshal(in.Summary)
	if err != nil {
		return fmt.Errorf("notify sweep %s: %w", in.RunID, err)
	}
	out, err := s.events.PutEvents(ctx, &eventbridge.PutEventsInput{Entries: []ebtypes.PutEventsRequestEntry{{
		Source:       aws.String(notify.Source),
		DetailType:   aws.String(SweepDetailType),
		Detail:       aws.String(string(detail)),
		EventBusName: aws.String(s.set.EventBus),
	}}})
	if err != nil {
		return fmt.Errorf("notify sweep %s: %w", in.RunID, err)
	}
	if out.FailedEntryCount > 0 {
		return fmt.Errorf("notify sweep %s: event rejected", in.RunID)
	}
	return nil
}
