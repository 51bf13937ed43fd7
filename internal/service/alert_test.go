package service

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/realdrift/realdrift/internal/drift"
	"github.com/realdrift/realdrift/internal/notify"
	"github.com/realdrift/realdrift/internal/scan"
	"github.com/realdrift/realdrift/internal/store"
	"github.com/realdrift/realdrift/statemachine"
)

// flaky is an alert channel whose first fail sends fail.
type flaky struct {
	fail int
	sent []notify.Summary
}

func (f *flaky) Send(_ context.Context, s notify.Summary) error {
	if f.fail > 0 {
		f.fail--
		return errors.New("webhook answered HTTP 503")
	}
	f.sent = append(f.sent, s)
	return nil
}

// TestAlertSurvivesDeliveryFailure runs persist and notify for three checks
// of a drifted stack: the first alert cannot be delivered, the second check
// alerts again, the third (same drift) is quiet; then the drift resolves.
func TestAlertSurvivesDeliveryFailure(t *testing.T) {
	stack := drift.StackRef{Account: "222222222222", Region: "us-east-1", Name: "api"}
	ch := &flaky{fail: 1}
	now := time.Date(2026, 11, 30, 5, 0, 0, 0, time.UTC)
	clock := func() time.Time { return now }
	s := &Service{
		set:      Settings{Table: "t"}.withDefaults(),
		store:    store.NewFile(t.TempDir(), store.WithClock(clock)),
		notifier: notify.New(ch),
		now:      clock,
	}
	drifted := []drift.Finding{{Tier: drift.Declared, LogicalID: "Queue", ResourceType: "AWS::SQS::Queue", PhysicalID: "q", Path: "VisibilityTimeout", Actual: 300.0, Desired: 180.0}}
	check := func(runID string, findings []drift.Finding) (changed bool, notifyErr error) {
		t.Helper()
		ctx := t.Context()
		if err := s.putJSON(ctx, runID, stateKey(keyDesired, stack), desiredState{Desired: &scan.Desired{Stack: stack}}); err != nil {
			t.Fatal(err)
		}
		fkey := stateKey(keyFindings, stack)
		if err := s.putJSON(ctx, runID, fkey, findings); err != nil {
			t.Fatal(err)
		}
		out, err := s.Persist(ctx, statemachine.PersistTask{Action: statemachine.ActionRecordStack, RunID: runID, Stack: &stack, FindingsKey: fkey})
		if err != nil {
			t.Fatalf("%s: persist: %v", runID, err)
		}
		now = now.Add(time.Hour)
		if !out.(statemachine.Persisted).Changed {
			return false, nil
		}
		_, err = s.Notify(ctx, statemachine.NotifyTask{Kind: statemachine.KindStack, RunID: runID, Stack: &stack, FindingsKey: fkey})
		return true, err
	}

	steps := []struct {
		run         string
		findings    []drift.Finding
		wantChanged bool
		wantErr     bool
		wantSent    int
	}{
		{"r1", drifted, true, true, 0},  // detected, delivery fails
		{"r2", drifted, true, false, 1}, // still changed: alerted again
		{"r3", drifted, false, false, 1},
		{"r4", nil, true, false, 2}, // resolved
		{"r5", nil, false, false, 2},
	}
	for _, st := range steps {
		changed, err := check(st.run, st.findings)
		if changed != st.wantChanged || (err != nil) != st.wantErr || len(ch.sent) != st.wantSent {
			t.Errorf("%s: changed %v, notify error %v, %d sent; want %v, error %v, %d sent", st.run, changed, err, len(ch.sent), st.wantChanged, st.wantErr, st.wantSent)
		}
	}
	if len(ch.sent) == 2 && (ch.sent[0].Event != notify.EventDetected || ch.sent[1].Event != notify.EventResolved) {
		t.Errorf("events %v, %v; want detected, resolved", ch.sent[0].Event, ch.sent[1].Event)
	}
}
