package sandbox_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/cloudtrail"
	cttypes "github.com/aws/aws-sdk-go-v2/service/cloudtrail/types"
	"github.com/aws/aws-sdk-go-v2/service/sqs"
	"github.com/google/go-cmp/cmp"

	"github.com/realdrift/realdrift/internal/sandbox"
	"github.com/realdrift/realdrift/internal/sandbox/sandboxtest"
)

// testClock is a clock a test moves.
type testClock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *testClock) now() time.Time { c.mu.Lock(); defer c.mu.Unlock(); return c.t }
func (c *testClock) add(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.t = c.t.Add(d)
}

// trailClient is a CloudTrail client that does not retry, so a
// throttled call is seen as the sandbox answered it.
func trailClient(u string) *cloudtrail.Client {
	return cloudtrail.NewFromConfig(cfg(u, mgmtKey, "us-east-1"), func(o *cloudtrail.Options) { o.RetryMaxAttempts = 1 })
}

func byResource(name string) []cttypes.LookupAttribute {
	return []cttypes.LookupAttribute{{AttributeKey: cttypes.LookupAttributeKeyResourceName, AttributeValue: aws.String(name)}}
}

// record is the part of a CloudTrail record the tests read.
type record struct {
	EventName    string
	EventSource  string
	EventTime    string
	ReadOnly     bool
	UserAgent    string
	UserIdentity struct {
		Type, ARN, AccountID, AccessKeyID string
		SessionContext                    *struct {
			SessionIssuer  struct{ Type, ARN, UserName string }
			SourceIdentity string
		}
	}
	RequestParameters map[string]any
}

func recordOf(t *testing.T, ev cttypes.Event) record {
	t.Helper()
	var r record
	if err := json.Unmarshal([]byte(aws.ToString(ev.CloudTrailEvent)), &r); err != nil {
		t.Fatalf("CloudTrailEvent %q: %v", aws.ToString(ev.CloudTrailEvent), err)
	}
	return r
}

// TestTrail: a write the sandbox serves and an admin change are
// CloudTrail events of their principals, LookupEvents finds them by
// resource name (most recent first) and not the reads, delivers them to
// the bus, and forgets them after 90 days.
func TestTrail(t *testing.T) {
	clock := &testClock{t: time.Date(2026, 12, 5, 9, 14, 0, 0, time.UTC)}
	srv, u := start(t, "testdata/services.json", sandbox.Options{Now: clock.now})
	c := ctx(t)
	q := sqs.NewFromConfig(cfg(u, mgmtKey, "us-east-1"))
	if _, err := q.GetQueueAttributes(c, &sqs.GetQueueAttributesInput{QueueUrl: aws.String(svcQueue)}); err != nil {
		t.Fatal(err)
	}
	if _, err := q.SetQueueAttributes(c, &sqs.SetQueueAttributesInput{QueueUrl: aws.String(svcQueue), Attributes: map[string]string{"VisibilityTimeout": "120"}}); err != nil {
		t.Fatal(err)
	}
	clock.add(time.Minute)
	if err := srv.Apply(sandbox.Change{Op: sandbox.OpSet, Region: "us-east-1", Type: "AWS::SQS::Queue", Identifier: svcQueue,
		Path: "MessageRetentionPeriod", Value: json.RawMessage(`600`),
		Principal: "arn:aws:sts::111111111111:assumed-role/Admin/bob", SourceIdentity: "bob@example.com",
		UserAgent: "console.amazonaws.com", SourceIP: "198.51.100.7"}); err != nil {
		t.Fatal(err)
	}

	ct := trailClient(u)
	out, err := ct.LookupEvents(c, &cloudtrail.LookupEventsInput{LookupAttributes: byResource(svcQueue)})
	if err != nil {
		t.Fatal(err)
	}
	type row struct{ Name, User, Source, Type, ARN, UA, SourceIdentity, Time string }
	var got []row
	for _, ev := range out.Events {
		r := recordOf(t, ev)
		if r.ReadOnly || aws.ToString(ev.ReadOnly) != "false" {
			t.Errorf("%s: readOnly %v/%s, want false", r.EventName, r.ReadOnly, aws.ToString(ev.ReadOnly))
		}
		if r.EventTime != ev.EventTime.UTC().Format("2006-01-02T15:04:05Z") {
			t.Errorf("%s: eventTime %s, EventTime %s", r.EventName, r.EventTime, ev.EventTime)
		}
		si := ""
		if r.UserIdentity.SessionContext != nil {
			si = r.UserIdentity.SessionContext.SourceIdentity
		}
		got = append(got, row{aws.ToString(ev.EventName), aws.ToString(ev.Username), r.EventSource, r.UserIdentity.Type, r.UserIdentity.ARN, r.UserAgent, si, r.EventTime})
	}
	want := []row{
		{"UpdateResource", "bob", "cloudcontrolapi.amazonaws.com", "AssumedRole", "arn:aws:sts::111111111111:assumed-role/Admin/bob", "console.amazonaws.com", "bob@example.com", "2026-12-05T09:15:00Z"},
		{"SetQueueAttributes", "alice", "sqs.amazonaws.com", "IAMUser", "arn:aws:iam::111111111111:user/alice", "", "", "2026-12-05T09:14:00Z"},
	}
	// The SDK's user agent is its own; only its family matters.
	if len(got) == 2 && strings.HasPrefix(got[1].UA, "aws-sdk-go-v2/") {
		got[1].UA = ""
	}
	if d := cmp.Diff(got, want); d != "" {
		t.Errorf("events by resource name (-got +want):\n%s", d)
	}

	reads, err := ct.LookupEvents(c, &cloudtrail.LookupEventsInput{LookupAttributes: []cttypes.LookupAttribute{{AttributeKey: cttypes.LookupAttributeKeyEventName, AttributeValue: aws.String("GetQueueAttributes")}}})
	if err != nil {
		t.Fatal(err)
	}
	if len(reads.Events) != 0 {
		t.Errorf("reads recorded: %d GetQueueAttributes events", len(reads.Events))
	}

	// The bus carries both, as EventBridge delivers CloudTrail events.
	bus, last := srv.BusEvents(0)
	if len(bus) != 2 || last == 0 {
		t.Fatalf("bus: %d events, last %d; want 2", len(bus), last)
	}
	var env struct {
		DetailType string `json:"detail-type"`
		Source     string
		Account    string
		Detail     struct{ EventName string }
	}
	if err := json.Unmarshal(bus[1], &env); err != nil {
		t.Fatal(err)
	}
	if env.DetailType != "AWS API Call via CloudTrail" || env.Source != "aws.cloudcontrolapi" || env.Account != mgmt || env.Detail.EventName != "UpdateResource" {
		t.Errorf("bus event: %s", bus[1])
	}
	if more, _ := srv.BusEvents(last); len(more) != 0 {
		t.Errorf("after %d: %d events, want 0", last, len(more))
	}

	// 90 days on, LookupEvents serves none of them.
	clock.add(world90 + time.Hour)
	old, err := ct.LookupEvents(c, &cloudtrail.LookupEventsInput{LookupAttributes: byResource(svcQueue)})
	if err != nil {
		t.Fatal(err)
	}
	if len(old.Events) != 0 {
		t.Errorf("after 90 days: %d events, want 0", len(old.Events))
	}
}

const world90 = 90 * 24 * time.Hour

// TestLookupEventsPagingAndLimits: MaxResults pages with NextToken (a
// token holds only for its parameters), LookupEvents' 2 calls/s per
// account and region answer ThrottlingException, and the parameters AWS
// refuses are refused with its codes.
func TestLookupEventsPagingAndLimits(t *testing.T) {
	clock := &testClock{t: time.Date(2026, 12, 5, 9, 0, 0, 0, time.UTC)}
	srv, u := start(t, "testdata/services.json", sandbox.Options{Now: clock.now})
	c := ctx(t)
	for i := range 7 {
		clock.add(time.Second)
		if err := srv.Apply(sandbox.Change{Op: sandbox.OpSet, Region: "us-east-1", Type: "AWS::SQS::Queue", Identifier: svcQueue,
			Path: "DelaySeconds", Value: json.RawMessage(fmt.Sprint(i)), Principal: "alice"}); err != nil {
			t.Fatal(err)
		}
	}
	ct := trailClient(u)
	var times []time.Time
	var tok *string
	pages := 0
	for {
		clock.add(time.Second) // paced: one call a second
		out, err := ct.LookupEvents(c, &cloudtrail.LookupEventsInput{LookupAttributes: byResource(svcQueue), MaxResults: aws.Int32(3), NextToken: tok})
		if err != nil {
			t.Fatal(err)
		}
		pages++
		for _, ev := range out.Events {
			times = append(times, *ev.EventTime)
		}
		if tok = out.NextToken; tok == nil {
			break
		}
		if _, err := ct.LookupEvents(c, &cloudtrail.LookupEventsInput{LookupAttributes: byResource("other"), NextToken: tok}); code(err) != "InvalidNextTokenException" {
			t.Errorf("token with other parameters: %v, want InvalidNextTokenException", err)
		}
	}
	if pages != 3 || len(times) != 7 {
		t.Errorf("%d pages, %d events; want 3 pages of 7 events", pages, len(times))
	}
	for i := 1; i < len(times); i++ {
		if !times[i].Before(times[i-1]) {
			t.Errorf("event %d at %s is not before %s (most recent first)", i, times[i], times[i-1])
		}
	}

	// The quota: two a second; the third within the second is throttled,
	// and a second later the bucket has refilled.
	clock.add(time.Minute)
	var codes []string
	for range 3 {
		_, err := ct.LookupEvents(c, &cloudtrail.LookupEventsInput{})
		codes = append(codes, code(err))
	}
	if d := cmp.Diff(codes, []string{"", "", "ThrottlingException"}); d != "" {
		t.Errorf("three calls in one second (-got +want):\n%s", d)
	}
	clock.add(time.Second)
	if _, err := ct.LookupEvents(c, &cloudtrail.LookupEventsInput{}); err != nil {
		t.Errorf("a second later: %v", err)
	}

	for _, tc := range []struct {
		name string
		in   cloudtrail.LookupEventsInput
		want string
	}{
		{"two attributes", cloudtrail.LookupEventsInput{LookupAttributes: append(byResource(svcQueue), cttypes.LookupAttribute{AttributeKey: cttypes.LookupAttributeKeyUsername, AttributeValue: aws.String("alice")})}, "InvalidLookupAttributesException"},
		{"unknown key", cloudtrail.LookupEventsInput{LookupAttributes: []cttypes.LookupAttribute{{AttributeKey: "Color", AttributeValue: aws.String("red")}}}, "InvalidLookupAttributesException"},
		{"max results", cloudtrail.LookupEventsInput{MaxResults: aws.Int32(51)}, "InvalidMaxResultsException"},
		{"time range", cloudtrail.LookupEventsInput{StartTime: aws.Time(clock.now()), EndTime: aws.Time(clock.now().Add(-time.Hour))}, "InvalidTimeRangeException"},
		{"token", cloudtrail.LookupEventsInput{NextToken: aws.String("nope")}, "InvalidNextTokenException"},
		{"category", cloudtrail.LookupEventsInput{EventCategory: "data"}, "InvalidEventCategoryException"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			clock.add(time.Second)
			if _, err := ct.LookupEvents(c, &tc.in); code(err) != tc.want {
				t.Errorf("got %v, want %s", err, tc.want)
			}
		})
	}

	// The admin API takes the principal and user agent over HTTP too.
	body := `{"op":"set","region":"us-east-1","type":"AWS::SQS::Queue","identifier":"` + svcQueue + `","path":"DelaySeconds","value":9,"principal":"carol","userAgent":"aws-cli/2.15.0"}`
	resp, err := http.Post(u+"/_sandbox/change", "application/json", strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != 200 {
		t.Fatalf("change: HTTP %d", resp.StatusCode)
	}
	clock.add(time.Second)
	out, err := ct.LookupEvents(c, &cloudtrail.LookupEventsInput{LookupAttributes: []cttypes.LookupAttribute{{AttributeKey: cttypes.LookupAttributeKeyUsername, AttributeValue: aws.String("carol")}}})
	if err != nil {
		t.Fatal(err)
	}
	if len(out.Events) != 1 || recordOf(t, out.Events[0]).UserAgent != "aws-cli/2.15.0" {
		t.Errorf("carol's change: %+v", out.Events)
	}
	bad := `{"op":"set","region":"us-east-1","type":"AWS::SQS::Queue","identifier":"` + svcQueue + `","path":"DelaySeconds","value":9,"principal":"arn:aws:s3:::nope"}`
	resp, err = http.Post(u+"/_sandbox/change", "application/json", strings.NewReader(bad))
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != 400 {
		t.Errorf("change by a principal that is none: HTTP %d, want 400", resp.StatusCode)
	}
}

// TestTrailGlobalRegion: a global service's write (IAM) to a stack in
// eu-west-1 is recorded where AWS records it, in us-east-1 (its
// endpoint's one region), and a regional service's in its own region.
func TestTrailGlobalRegion(t *testing.T) {
	w := sandboxtest.LoadWorld(t, "testdata/services.json")
	w.Accounts[0].Regions[0].Name = "eu-west-1"
	for _, st := range w.Accounts[0].Regions[0].Stacks {
		st.ID = strings.Replace(st.ID, ":us-east-1:", ":eu-west-1:", 1)
	}
	w.Accounts[0].Regions = append(w.Accounts[0].Regions, &sandbox.Region{Name: "us-east-1"})
	srv, u := startWorld(t, w, sandbox.Options{})
	c := ctx(t)
	for _, ch := range []sandbox.Change{
		{Op: sandbox.OpSet, Region: "eu-west-1", Type: "AWS::IAM::Role", Identifier: "Svc-Role-1", Path: "MaxSessionDuration",
			Value: json.RawMessage(`7200`), Principal: "alice", EventName: "UpdateRole", EventSource: "iam.amazonaws.com"},
		{Op: sandbox.OpSet, Region: "eu-west-1", Type: "AWS::SQS::Queue", Identifier: svcQueue,
			Path: "DelaySeconds", Value: json.RawMessage(`9`), Principal: "alice", EventName: "SetQueueAttributes", EventSource: "sqs.amazonaws.com"},
	} {
		if err := srv.Apply(ch); err != nil {
			t.Fatalf("%s: %v", ch.Type, err)
		}
	}
	got := map[string][]string{}
	for _, region := range []string{"us-east-1", "eu-west-1"} {
		ct := cloudtrail.NewFromConfig(cfg(u, mgmtKey, region), func(o *cloudtrail.Options) { o.RetryMaxAttempts = 1 })
		out, err := ct.LookupEvents(c, &cloudtrail.LookupEventsInput{})
		if err != nil {
			t.Fatalf("%s: %v", region, err)
		}
		for _, ev := range out.Events {
			got[region] = append(got[region], aws.ToString(ev.EventName))
		}
	}
	want := map[string][]string{"us-east-1": {"UpdateRole"}, "eu-west-1": {"SetQueueAttributes"}}
	if d := cmp.Diff(got, want); d != "" {
		t.Errorf("events by region (-got +want):\n%s", d)
	}
}
