package who_test

import (
	"context"
	"errors"
	"slices"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/realdrift/realdrift/internal/drift"
	"github.com/realdrift/realdrift/internal/who"
)

func TestWindowStart(t *testing.T) {
	upd := time.Date(2026, 11, 1, 0, 0, 0, 0, time.UTC)
	rec := time.Date(2026, 10, 1, 0, 0, 0, 0, time.UTC)
	later := time.Date(2026, 11, 20, 0, 0, 0, 0, time.UTC)
	for _, tc := range []struct {
		name         string
		updated, rec time.Time
		want         time.Time
		wantWhat     string
	}{
		{"no baseline: the last update", upd, time.Time{}, upd, who.SinceUpdate},
		{"a baseline recorded before the update: its record", upd, rec, rec, who.SinceRecord},
		{"a baseline recorded after the update: the update (declared drift may be older than the record)", upd, later, upd, who.SinceUpdate},
		{"no update time: the record", time.Time{}, rec, rec, who.SinceRecord},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, what := who.WindowStart(tc.updated, tc.rec)
			if !got.Equal(tc.want) || what != tc.wantWhat {
				t.Errorf("WindowStart = %s %q, want %s %q", got, what, tc.want, tc.wantWhat)
			}
		})
	}
}

// TestAttribute: drifted findings only; a stored writer inside the window
// (or a settled unknown) is used without a call, one older than the
// window is not; a global
// type (IAM) is looked up in us-east-1 where AWS records it, a regional
// one in the stack's region; a region without a client says why.
func TestAttribute(t *testing.T) {
	clock := &fakeClock{t: time.Date(2026, 12, 6, 0, 0, 0, 0, time.UTC)}
	since := clock.t.Add(-48 * time.Hour)
	rec := func(id, user string) string {
		return `{"eventID":"` + id + `","eventName":"Write","eventTime":"2026-12-05T09:14:00Z","userIdentity":{"type":"IAMUser","arn":"arn:aws:iam::1:user/` + user + `","userName":"` + user + `"}}`
	}
	apis := map[string]*trail{
		"us-east-1": {clock: clock, records: map[string]string{"app-role": rec("e-role", "alice")}},
		"eu-west-1": {clock: clock, records: map[string]string{"q-looked": rec("e-q", "bob"), "q-old": rec("e-old", "carol")}},
	}
	findings := []drift.Finding{
		{LogicalID: "Role", ResourceType: "AWS::IAM::Role", PhysicalID: "app-role", Tier: drift.Undeclared},
		{LogicalID: "Stored", ResourceType: "AWS::SQS::Queue", PhysicalID: "q-stored", Tier: drift.Declared},
		{LogicalID: "Old", ResourceType: "AWS::SQS::Queue", PhysicalID: "q-old", Tier: drift.Declared},
		{LogicalID: "Looked", ResourceType: "AWS::SQS::Queue", PhysicalID: "q-looked", Tier: drift.Declared},
		{LogicalID: "Potential", ResourceType: "AWS::SQS::Queue", PhysicalID: "q-potential", Tier: drift.Undeclared, Unrecorded: true},
		{LogicalID: "Clean", ResourceType: "AWS::SQS::Queue", PhysicalID: "q-clean", Tier: drift.AtDefault},
		{LogicalID: "Dist", ResourceType: "AWS::CloudFront::Distribution", PhysicalID: "E123", Tier: drift.Declared},
		{LogicalID: "Settled", ResourceType: "AWS::SQS::Queue", PhysicalID: "q-settled", Tier: drift.Declared},
	}
	stored := map[string]drift.ChangedBy{
		"q-stored": {Name: "dave", EventID: "e-stored", Time: clock.t.Add(-time.Hour)},
		"q-old":    {Name: "eve", EventID: "e-older", Time: since.Add(-time.Hour)},
		// A settled unknown the caller vouches for: no call.
		"q-settled": {Unknown: "no management event names it"},
	}
	var asked []string
	f := who.New(who.Options{Now: clock.now, Sleep: clock.sleep})
	found := f.Attribute(t.Context(), findings, who.Stack{
		Account: "1", Region: "eu-west-1", Since: since, SinceWhat: who.SinceUpdate,
		API: func(_ context.Context, region string) (who.LookupAPI, error) {
			asked = append(asked, region)
			if a, ok := apis[region]; ok {
				return a, nil
			}
			return nil, errors.New("no client")
		},
		Known: func(_ context.Context, id string) (drift.ChangedBy, bool) {
			c, ok := stored[id]
			return c, ok
		},
	})
	got := map[string]string{}
	for _, fd := range findings {
		switch {
		case fd.ChangedBy == nil:
			got[fd.LogicalID] = "-"
		case fd.ChangedBy.Known():
			got[fd.LogicalID] = fd.ChangedBy.Name
		default:
			got[fd.LogicalID] = "unknown"
		}
	}
	// The distribution is CloudFront's: looked up in us-east-1, where no
	// event names it.
	want := map[string]string{"Role": "alice", "Stored": "dave", "Old": "carol", "Looked": "bob", "Potential": "-", "Clean": "-", "Dist": "unknown", "Settled": "unknown"}
	if d := cmp.Diff(got, want); d != "" {
		t.Errorf("writers (-got +want):\n%s", d)
	}
	if d := cmp.Diff(asked, []string{"us-east-1", "eu-west-1"}); d != "" {
		t.Errorf("clients asked for (-got +want):\n%s", d)
	}
	if len(apis["us-east-1"].at) != 2 || len(apis["eu-west-1"].at) != 2 {
		t.Errorf("calls: us-east-1 %d, eu-west-1 %d; want 2 each (role and distribution; the old and the looked-up queue)", len(apis["us-east-1"].at), len(apis["eu-west-1"].at))
	}
	// Settled answers only: the distribution's "no event" too.
	if d := cmp.Diff(keys(found), []string{"E123", "app-role", "q-looked", "q-old"}); d != "" {
		t.Errorf("found (-got +want):\n%s", d)
	}

	// Without a client for the home region, the findings say why.
	fs := []drift.Finding{{LogicalID: "Role", ResourceType: "AWS::IAM::Role", PhysicalID: "app-role", Tier: drift.Declared}}
	who.New(who.Options{Now: clock.now, Sleep: clock.sleep}).Attribute(t.Context(), fs, who.Stack{Account: "1", Region: "eu-west-1",
		API: func(context.Context, string) (who.LookupAPI, error) { return nil, errors.New("no credentials") }})
	if c := fs[0].ChangedBy; c == nil || c.Unknown != "CloudTrail lookup failed: no credentials" {
		t.Errorf("no client: %+v", c)
	}

	// A context that ended leaves the rest not looked up, saying so.
	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	fs = []drift.Finding{{LogicalID: "Q", ResourceType: "AWS::SQS::Queue", PhysicalID: "q-looked", Tier: drift.Declared}}
	who.New(who.Options{Now: clock.now, Sleep: clock.sleep}).Attribute(ctx, fs, who.Stack{Account: "1", Region: "eu-west-1",
		API: func(context.Context, string) (who.LookupAPI, error) { return apis["eu-west-1"], nil }})
	if c := fs[0].ChangedBy; c == nil || c.Unknown != "not looked up: interrupted" {
		t.Errorf("ended context: %+v", c)
	}
}

func keys(m map[string]drift.ChangedBy) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}
