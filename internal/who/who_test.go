package who_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/cloudtrail"
	cttypes "github.com/aws/aws-sdk-go-v2/service/cloudtrail/types"
	"github.com/aws/smithy-go"
	"github.com/google/go-cmp/cmp"

	"github.com/realdrift/realdrift/internal/drift"
	"github.com/realdrift/realdrift/internal/who"
)

func TestFromRecord(t *testing.T) {
	for _, tc := range []struct {
		name, raw string
		want      drift.ChangedBy
		ok        bool
	}{
		{"assumed role with source identity", `{"eventID":"e1","eventName":"SetQueueAttributes","eventSource":"sqs.amazonaws.com","eventTime":"2026-12-05T09:14:00Z","awsRegion":"us-east-1","sourceIPAddress":"198.51.100.7","userAgent":"console.amazonaws.com","readOnly":false,"userIdentity":{"type":"AssumedRole","arn":"arn:aws:sts::111111111111:assumed-role/Admin/alice-session","sessionContext":{"sourceIdentity":"alice"}}}`,
			drift.ChangedBy{Principal: "arn:aws:sts::111111111111:assumed-role/Admin/alice-session", Name: "alice", SourceIdentity: "alice", SessionName: "alice-session", EventName: "SetQueueAttributes", EventSource: "sqs.amazonaws.com", Time: time.Date(2026, 12, 5, 9, 14, 0, 0, time.UTC), SourceIP: "198.51.100.7", UserAgent: "console.amazonaws.com", Agent: drift.AgentConsole, EventID: "e1", Region: "us-east-1"}, true},
		{"IAM user by the CLI", `{"eventID":"e2","eventName":"PutRolePolicy","eventTime":"2026-12-05T09:14:00Z","userAgent":"aws-cli/2.15.0 Python/3.11 botocore/2.0","readOnly":false,"userIdentity":{"type":"IAMUser","arn":"arn:aws:iam::1:user/bob","userName":"bob"}}`,
			drift.ChangedBy{Principal: "arn:aws:iam::1:user/bob", Name: "bob", EventName: "PutRolePolicy", Time: time.Date(2026, 12, 5, 9, 14, 0, 0, time.UTC), UserAgent: "aws-cli/2.15.0 Python/3.11 botocore/2.0", Agent: drift.AgentCLI, EventID: "e2"}, true},
		{"CloudFormation", `{"eventID":"e3","eventName":"UpdateFunctionConfiguration","eventTime":"2026-12-05T09:14:00Z","sourceIPAddress":"cloudformation.amazonaws.com","userAgent":"cloudformation.amazonaws.com","userIdentity":{"type":"AssumedRole","arn":"arn:aws:sts::1:assumed-role/Deploy/AWSCloudFormation"}}`,
			drift.ChangedBy{Principal: "arn:aws:sts::1:assumed-role/Deploy/AWSCloudFormation", Name: "AWSCloudFormation", SessionName: "AWSCloudFormation", EventName: "UpdateFunctionConfiguration", Time: time.Date(2026, 12, 5, 9, 14, 0, 0, time.UTC), SourceIP: "cloudformation.amazonaws.com", UserAgent: "cloudformation.amazonaws.com", Agent: drift.AgentCloudFormation, EventID: "e3"}, true},
		{"a read", `{"eventID":"e4","eventName":"GetQueueAttributes","eventTime":"2026-12-05T09:14:00Z","readOnly":true}`, drift.ChangedBy{}, false},
		{"a failed write", `{"eventID":"e5","eventName":"SetQueueAttributes","eventTime":"2026-12-05T09:14:00Z","errorCode":"AccessDenied"}`, drift.ChangedBy{}, false},
		{"not a record", `nope`, drift.ChangedBy{}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, ok := who.FromRecord([]byte(tc.raw))
			if ok != tc.ok {
				t.Fatalf("ok %v, want %v", ok, tc.ok)
			}
			if d := cmp.Diff(got, tc.want); d != "" {
				t.Errorf("(-got +want):\n%s", d)
			}
		})
	}
}

// fakeClock advances only when slept on.
type fakeClock struct{ t time.Time }

func (c *fakeClock) now() time.Time { return c.t }
func (c *fakeClock) sleep(_ context.Context, d time.Duration) error {
	c.t = c.t.Add(d)
	return nil
}

// trail answers LookupEvents from canned events, throttling the first
// `throttle` calls, and notes when each call came.
type trail struct {
	clock    *fakeClock
	throttle int
	records  map[string]string
	at       []time.Time
}

func (f *trail) LookupEvents(_ context.Context, in *cloudtrail.LookupEventsInput, _ ...func(*cloudtrail.Options)) (*cloudtrail.LookupEventsOutput, error) {
	f.at = append(f.at, f.clock.now())
	if f.throttle > 0 {
		f.throttle--
		return nil, &smithy.GenericAPIError{Code: "ThrottlingException", Message: "Rate exceeded"}
	}
	out := &cloudtrail.LookupEventsOutput{}
	if r, ok := f.records[aws.ToString(in.LookupAttributes[0].AttributeValue)]; ok {
		out.Events = []cttypes.Event{{CloudTrailEvent: aws.String(r)}}
	}
	return out, nil
}

// TestFinderPacesAndSays: calls start 1/Rate apart, a throttled call is
// retried after a backoff, each resource is looked up once, and a
// resource with no event or a lookup throttled out says why.
func TestFinderPacesAndSays(t *testing.T) {
	clock := &fakeClock{t: time.Date(2026, 12, 6, 0, 0, 0, 0, time.UTC)}
	api := &trail{clock: clock, throttle: 1, records: map[string]string{
		"q1": `{"eventID":"e1","eventName":"SetQueueAttributes","eventTime":"2026-12-05T09:14:00Z","userIdentity":{"type":"IAMUser","arn":"arn:aws:iam::1:user/alice","userName":"alice"}}`,
	}}
	f := who.New(who.Options{Now: clock.now, Sleep: clock.sleep})
	since := clock.t.Add(-24 * time.Hour)
	var got []string
	for _, name := range []string{"q1", "q2", "q1", "q3"} {
		c := f.Lookup(t.Context(), api, who.Target{Account: "1", Region: "us-east-1", Name: name, Since: since})
		if c.Known() {
			got = append(got, name+": "+c.Line())
		} else {
			got = append(got, name+": unknown")
		}
	}
	want := []string{"q1: changed by alice (other) 2026-12-05 09:14 UTC", "q2: unknown", "q1: changed by alice (other) 2026-12-05 09:14 UTC", "q3: unknown"}
	if d := cmp.Diff(got, want); d != "" {
		t.Errorf("(-got +want):\n%s", d)
	}
	if f.Calls() != 4 { // q1 throttled once and retried, q2, q3; q1 again from the cache
		t.Errorf("%d calls, want 4", f.Calls())
	}
	for i := 1; i < len(api.at); i++ {
		if gap := api.at[i].Sub(api.at[i-1]); gap < 500*time.Millisecond {
			t.Errorf("call %d came %s after the one before, want ≥ 500ms (2/s)", i, gap)
		}
	}

	// Throttled out: every retry throttled.
	api.throttle = 10
	c := f.Lookup(t.Context(), api, who.Target{Account: "1", Region: "us-east-1", Name: "q4", Since: since})
	if c.Known() || !contains(c.Unknown, "throttled out") {
		t.Errorf("throttled out: %+v", c)
	}
}

func contains(s, sub string) bool { return strings.Contains(s, sub) }
