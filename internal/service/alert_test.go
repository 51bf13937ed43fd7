package service

import (
	"context"
	"errors"
	"log/slog"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/secretsmanager"

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

// randomSecret is Secrets Manager holding the random value CloudFormation
// generates for a secret nobody has set.
type randomSecret struct{ calls int }

func (r *randomSecret) GetSecretValue(context.Context, *secretsmanager.GetSecretValueInput, ...func(*secretsmanager.Options)) (*secretsmanager.GetSecretValueOutput, error) {
	r.calls++
	return &secretsmanager.GetSecretValueOutput{SecretString: aws.String(`x8#Qv!r2$Lm0pZ^t`)}, nil
}

// TestAlertSurvivesDeliveryFailure runs persist and notify for checks of a
// drifted stack over three channels: one delivers, one fails its first
// send, one is a Slack channel whose secret was never set. The failure
// never fails the check; the second check re-sends to the failed channel
// only; the third (same drift) is quiet; then the drift resolves. The
// unset channel is skipped with one warning.
func TestAlertSurvivesDeliveryFailure(t *testing.T) {
	stack := drift.StackRef{Account: "222222222222", Region: "us-east-1", Name: "api"}
	ch := &flaky{fail: 1}
	good := &flaky{}
	secret := &randomSecret{}
	var logs strings.Builder
	now := time.Date(2026, 11, 30, 5, 0, 0, 0, time.UTC)
	clock := func() time.Time { return now }
	s := &Service{
		set:   Settings{Table: "t"}.withDefaults(),
		store: store.NewFile(t.TempDir(), store.WithClock(clock)),
		now:   clock,
		log:   slog.New(slog.NewTextHandler(&logs, nil)),
	}
	s.channels = []channel{
		{"good", good}, {"flaky", ch},
		{"slack", &slackChannel{secrets: secret, id: "realdrift/slack", slack: notify.NewSlack(secret, "realdrift/slack", nil), now: clock}},
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
		{"r1", drifted, true, false, 0}, // detected, delivery fails (not the check)
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
	if len(good.sent) != 2 {
		t.Errorf("the delivering channel sent %d alerts, want 2 (detected once, resolved once)", len(good.sent))
	}
	if n := strings.Count(logs.String(), "realdrift alert channel skipped"); n != 1 || !strings.Contains(logs.String(), "holds no webhook URL") || strings.Contains(logs.String(), "x8#Qv") {
		t.Errorf("%d warnings for the unset Slack secret, want 1 naming why, never the value:\n%s", n, logs.String())
	}
	if len(ch.sent) == 2 && (ch.sent[0].Event != notify.EventDetected || ch.sent[1].Event != notify.EventResolved) {
		t.Errorf("events %v, %v; want detected, resolved", ch.sent[0].Event, ch.sent[1].Event)
	}
}
