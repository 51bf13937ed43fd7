package who

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/cloudtrail"
	cttypes "github.com/aws/aws-sdk-go-v2/service/cloudtrail/types"
	"github.com/aws/smithy-go"

	"github.com/realdrift/realdrift/internal/drift"
)

// Window is how far back LookupEvents reaches.
const Window = 90 * 24 * time.Hour

// Actions is every IAM action a lookup calls: CloudTrail's event history,
// read only (LookupEvents has no resource-level permissions). check --who
// and revert --who need it beside the read actions (`realdrift iam-policy
// --who`); the service's member read role grants it.
func Actions() []string { return []string{"cloudtrail:LookupEvents"} }

// LookupAPI is the CloudTrail call the Finder makes
// (*cloudtrail.Client satisfies it).
type LookupAPI interface {
	LookupEvents(ctx context.Context, in *cloudtrail.LookupEventsInput, optFns ...func(*cloudtrail.Options)) (*cloudtrail.LookupEventsOutput, error)
}

var _ LookupAPI = (*cloudtrail.Client)(nil)

// Options tune a Finder. The zero value paces at 2 calls a second on the
// wall clock.
type Options struct {
	// Rate is the calls per second (default 2, LookupEvents' quota).
	Rate float64
	// MaxPages bounds the pages read for one resource (default 2).
	MaxPages int
	// Retries is how often a throttled call is retried (default 3), after
	// Backoff, doubled each time (default 1s).
	Retries int
	Backoff time.Duration
	// Now and Sleep are the clock (defaults time.Now and a timer).
	Now   func() time.Time
	Sleep func(ctx context.Context, d time.Duration) error
}

// Finder looks up who last wrote resources. Safe for concurrent use;
// its calls are paced per account and region, and its answers cached for
// its life (a Session starts an empty cache on the same pacing).
type Finder struct {
	opts Options
	p    *pacer
	mu   sync.Mutex // serialises this Finder's lookups and guards cache
	// cache holds the answers by account, region and name.
	cache map[string]drift.ChangedBy
}

// pacer is the pacing Finders of one process share: the time the next
// call to each account and region may start, and the calls made.
type pacer struct {
	mu    sync.Mutex
	next  map[string]time.Time
	calls int
}

// New returns a Finder with o's pacing.
func New(o Options) *Finder {
	if o.Rate <= 0 {
		o.Rate = 2
	}
	if o.MaxPages <= 0 {
		o.MaxPages = 2
	}
	if o.Retries <= 0 {
		o.Retries = 3
	}
	if o.Backoff <= 0 {
		o.Backoff = time.Second
	}
	if o.Now == nil {
		o.Now = time.Now
	}
	if o.Sleep == nil {
		o.Sleep = sleep
	}
	return &Finder{opts: o, p: &pacer{next: map[string]time.Time{}}, cache: map[string]drift.ChangedBy{}}
}

// Session returns a Finder with an empty cache that shares f's pacing and
// call count: one per check in a process that outlives checks (the
// service's functions), so an answer never outlives its check while
// every check of the process still keeps to one quota.
func (f *Finder) Session() *Finder {
	return &Finder{opts: f.opts, p: f.p, cache: map[string]drift.ChangedBy{}}
}

func sleep(ctx context.Context, d time.Duration) error {
	if d <= 0 {
		return ctx.Err()
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// Calls is the number of LookupEvents requests made so far by f and the
// Finders of its sessions (retries of a throttled call included: each is
// a request the quota counts).
func (f *Finder) Calls() int {
	f.p.mu.Lock()
	defer f.p.mu.Unlock()
	return f.p.calls
}

// Target is one drifted resource to attribute.
type Target struct {
	Account, Region string
	// Name is what LookupEvents' ResourceName matches: the physical id.
	Name string
	// Since is the window's start (WindowStart; zero: the whole 90
	// days), and SinceWhat says what it is ("the stack was last
	// updated"), for the answer that finds nothing.
	Since     time.Time
	SinceWhat string
}

// Lookup returns who last wrote t's resource, through api (a client of t's
// account and region). The answer is cached per account, region and name.
func (f *Finder) Lookup(ctx context.Context, api LookupAPI, t Target) drift.ChangedBy {
	f.mu.Lock()
	defer f.mu.Unlock()
	key := t.Account + "|" + t.Region + "|" + t.Name
	if c, ok := f.cache[key]; ok {
		return c
	}
	c := f.lookup(ctx, api, t)
	if ctx.Err() == nil {
		f.cache[key] = c
	}
	return c
}

func (f *Finder) lookup(ctx context.Context, api LookupAPI, t Target) drift.ChangedBy {
	if t.Name == "" {
		return drift.ChangedBy{Unknown: "the resource has no physical id to look up"}
	}
	now := f.opts.Now()
	oldest := now.Add(-Window)
	start, clipped := t.Since, false
	if start.IsZero() || start.Before(oldest) {
		start, clipped = oldest, true
	}
	in := &cloudtrail.LookupEventsInput{
		LookupAttributes: []cttypes.LookupAttribute{{AttributeKey: cttypes.LookupAttributeKeyResourceName, AttributeValue: aws.String(t.Name)}},
		StartTime:        aws.Time(start),
		EndTime:          aws.Time(now),
		MaxResults:       aws.Int32(50),
	}
	for page := 0; page < f.opts.MaxPages; page++ {
		out, err := f.call(ctx, api, t.Account+"|"+t.Region, in)
		if err != nil {
			return drift.ChangedBy{Unknown: failedPrefix + failure(err)}
		}
		for _, ev := range out.Events {
			c, ok := FromRecord([]byte(aws.ToString(ev.CloudTrailEvent)))
			if ok {
				return c
			}
		}
		if out.NextToken == nil {
			break
		}
		in.NextToken = out.NextToken
		if page == f.opts.MaxPages-1 {
			return drift.ChangedBy{Unknown: fmt.Sprintf("no write event among the %d most recent events naming it", 50*f.opts.MaxPages)}
		}
	}
	if clipped && !t.Since.IsZero() {
		what := t.SinceWhat
		if what == "" {
			what = SinceUpdate
		}
		return drift.ChangedBy{Unknown: "no write event in the 90 days CloudTrail's event history covers; " + what + " " + t.Since.UTC().Format("2006-01-02") + ", so the change may be older"}
	}
	if clipped {
		return drift.ChangedBy{Unknown: "no write event in the 90 days CloudTrail's event history covers; the change may be older"}
	}
	return drift.ChangedBy{Unknown: "no management event names it since " + start.UTC().Format("2006-01-02 15:04 UTC") + ": a data event, a change a service made itself (service-linked), or one made through another resource's API"}
}

// call makes one paced LookupEvents request, retrying a throttled one
// after a growing backoff.
func (f *Finder) call(ctx context.Context, api LookupAPI, key string, in *cloudtrail.LookupEventsInput) (*cloudtrail.LookupEventsOutput, error) {
	backoff := f.opts.Backoff
	for attempt := 0; ; attempt++ {
		if err := f.pace(ctx, key); err != nil {
			return nil, err
		}
		out, err := api.LookupEvents(ctx, in)
		if err == nil || !throttled(err) || attempt == f.opts.Retries {
			if err != nil && throttled(err) {
				return nil, fmt.Errorf("throttled out after %d retries: %w", attempt, err)
			}
			return out, err
		}
		if err := f.opts.Sleep(ctx, backoff); err != nil {
			return nil, err
		}
		backoff *= 2
	}
}

// pace takes the next slot of key's schedule (an account and region:
// calls to one start 1/Rate apart, from any session) and waits for it.
func (f *Finder) pace(ctx context.Context, key string) error {
	f.p.mu.Lock()
	now := f.opts.Now()
	start := now
	if next := f.p.next[key]; next.After(now) {
		start = next
	}
	f.p.next[key] = start.Add(time.Duration(float64(time.Second) / f.opts.Rate))
	f.p.calls++
	f.p.mu.Unlock()
	if start.After(now) {
		return f.opts.Sleep(ctx, start.Sub(now))
	}
	return ctx.Err()
}

func throttled(err error) bool {
	var ae smithy.APIError
	if errors.As(err, &ae) {
		switch ae.ErrorCode() {
		case "ThrottlingException", "Throttling", "TooManyRequestsException", "RequestLimitExceeded":
			return true
		}
	}
	return false
}

// failure names a lookup's error briefly: its API error code and message.
func failure(err error) string {
	var ae smithy.APIError
	if errors.As(err, &ae) {
		msg := ae.ErrorCode()
		if m := ae.ErrorMessage(); m != "" {
			msg += ": " + m
		}
		if strings.HasPrefix(err.Error(), "throttled out") {
			return "throttled out (" + msg + ")"
		}
		return msg
	}
	return err.Error()
}

// record is the part of a CloudTrail record FromRecord reads.
type record struct {
	EventID      string `json:"eventID"`
	EventName    string `json:"eventName"`
	EventSource  string `json:"eventSource"`
	EventTime    string `json:"eventTime"`
	AWSRegion    string `json:"awsRegion"`
	SourceIP     string `json:"sourceIPAddress"`
	UserAgent    string `json:"userAgent"`
	ReadOnly     *bool  `json:"readOnly"`
	ErrorCode    string `json:"errorCode"`
	UserIdentity struct {
		Type           string `json:"type"`
		ARN            string `json:"arn"`
		UserName       string `json:"userName"`
		InvokedBy      string `json:"invokedBy"`
		SessionContext *struct {
			SourceIdentity string `json:"sourceIdentity"`
		} `json:"sessionContext"`
	} `json:"userIdentity"`
}

// FromRecord reads a CloudTrail record; ok is false when it is not a
// write that succeeded (readOnly, an errorCode) or not a record at all.
func FromRecord(raw []byte) (drift.ChangedBy, bool) {
	var r record
	if json.Unmarshal(raw, &r) != nil || r.EventID == "" {
		return drift.ChangedBy{}, false
	}
	if (r.ReadOnly != nil && *r.ReadOnly) || r.ErrorCode != "" {
		return drift.ChangedBy{}, false
	}
	t, err := time.Parse(time.RFC3339, r.EventTime)
	if err != nil {
		return drift.ChangedBy{}, false
	}
	c := drift.ChangedBy{
		Principal: r.UserIdentity.ARN, EventName: r.EventName, EventSource: r.EventSource,
		Time: t.UTC(), SourceIP: r.SourceIP, UserAgent: r.UserAgent, EventID: r.EventID, Region: r.AWSRegion,
		Agent: drift.AgentOf(r.UserAgent),
	}
	if r.UserIdentity.InvokedBy != "" && c.Agent == drift.AgentOther {
		c.Agent = drift.AgentOf(r.UserIdentity.InvokedBy)
	}
	if r.UserIdentity.SessionContext != nil {
		c.SourceIdentity = r.UserIdentity.SessionContext.SourceIdentity
	}
	if r.UserIdentity.Type == "AssumedRole" {
		c.SessionName = r.UserIdentity.ARN[strings.LastIndexByte(r.UserIdentity.ARN, '/')+1:]
	}
	switch {
	case c.SourceIdentity != "":
		c.Name = c.SourceIdentity
	case c.SessionName != "":
		c.Name = c.SessionName
	case r.UserIdentity.UserName != "":
		c.Name = r.UserIdentity.UserName
	case r.UserIdentity.Type == "Root":
		c.Name = "root"
	case r.UserIdentity.Type == "AWSService":
		c.Name = r.UserIdentity.InvokedBy
	default:
		c.Name = r.UserIdentity.ARN
	}
	return c, true
}
