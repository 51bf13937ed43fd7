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

// notifiedState records what notify delivered for a stack: in a run (for
// retries) and across runs (the stack's alert memory). Channels maps each
// channel to the fingerprint it last delivered (or skipped as unset).
type notifiedState struct {
	Fingerprint string            `json:"fingerprint"`
	Event       string            `json:"event"`
	Channels    map[string]string `json:"channels,omitempty"`
}

// Notify is the notify function. For a stack whose drift set changed it
// sends the alert on every configured channel (SNS, Slack, EventBridge)
// that has not delivered this drift set yet: a retry, or the next check
// after a partial failure, re-sends only to the channels that failed. A
// channel that is not configured (an unset Slack secret) is skipped with
// one warning. A delivery failure is logged and never fails the check:
// the stack's alert memory keeps the last fully delivered drift set, so
// the next check finds it changed and sends again to the channels that
// missed it. For a sweep it puts the run summary on the event bus, when
// one is configured. For a revert it sends the audit's outcome.
func (s *Service) Notify(ctx context.Context, in statemachine.NotifyTask) (struct{}, error) {
	switch in.Kind {
	case statemachine.KindStack:
		return struct{}{}, stepError(s.notifyStack(ctx, in))
	case statemachine.KindSweep:
		return struct{}{}, stepError(s.notifySweep(ctx, in))
	case statemachine.KindRevert:
		return struct{}{}, stepError(s.notifyRevert(ctx, in))
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
	// The alert's verdict counts what was not read against the stack's
	// resources: INCOMPLETE (n of m not read), never "no drift remains".
	declared := 0
	var ds desiredState
	if ok, err := s.getJSON(ctx, in.RunID, stateKey(keyDesired, stack), &ds); err != nil {
		return err
	} else if ok && ds.Desired != nil {
		declared = len(ds.Desired.Resources)
	}
	sum = sum.WithResources(drift.Resources(declared, findings))
	if sum.Event == notify.EventDetected && s.set.RevertStateMachineARN != "" {
		sum.RevertURL = notify.RevertConsoleURL(s.set.RevertStateMachineARN)
	}
	if sum.Event == notify.EventDetected && s.set.AcceptStateMachineARN != "" && liveOnlyDrift(findings) {
		sum.AcceptURL = notify.RevertConsoleURL(s.set.AcceptStateMachineARN)
	}
	// What each channel already delivered: this run's record (a retry),
	// then the stack's memory (the check after a partial failure).
	delivered := map[string]string{}
	var memory, sent notifiedState
	if _, err := s.getJSON(ctx, alertsRun, stateKey(keyAlerted, stack), &memory); err != nil {
		return err
	}
	if _, err := s.getJSON(ctx, in.RunID, stateKey(keyNotified, stack), &sent); err != nil {
		return err
	}
	for _, st := range []notifiedState{memory, sent} {
		for ch, fp := range st.Channels {
			delivered[ch] = fp
		}
	}
	var failed []string
	for _, ch := range s.channels {
		if fp, ok := delivered[ch.name]; ok && fp == sum.Fingerprint {
			continue
		}
		err := ch.send.Send(ctx, sum)
		switch {
		case errors.Is(err, errUnset):
			s.warnOnce(ctx, ch.name, err)
			delivered[ch.name] = sum.Fingerprint
		case err != nil:
			failed = append(failed, ch.name)
			s.logger().WarnContext(ctx, "realdrift alert not delivered; the next check sends it again",
				"channel", ch.name, "stack", stack.String(), "error", err.Error())
		default:
			delivered[ch.name] = sum.Fingerprint
		}
	}
	sent = notifiedState{Fingerprint: sum.Fingerprint, Event: sum.Event.String(), Channels: delivered}
	remembered := sent
	if len(failed) > 0 {
		// Keep the last fully delivered drift set as the stack's, so the
		// next check still finds it changed and sends to the rest.
		sent.Fingerprint, remembered.Fingerprint = "", ps.Previous
	}
	if err := s.putJSON(ctx, in.RunID, stateKey(keyNotified, stack), sent); err != nil {
		return err
	}
	return s.rememberAlert(ctx, stack, remembered)
}

// warnOnce logs an unset channel once per process.
func (s *Service) warnOnce(ctx context.Context, name string, err error) {
	if _, seen := s.warned.LoadOrStore(name, true); !seen {
		s.logger().WarnContext(ctx, "realdrift alert channel skipped", "channel", name, "reason", err.Error())
	}
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
