package scan_test

import (
	"context"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/realdrift/realdrift/internal/drift"
	"github.com/realdrift/realdrift/internal/live"
	"github.com/realdrift/realdrift/internal/sandbox"
	"github.com/realdrift/realdrift/internal/sandbox/sandboxtest"
	"github.com/realdrift/realdrift/internal/scan"
)

// sharedClock is one injected clock for the sandbox (its throttle
// buckets refill by it) and the run's Scheduler (it paces by it): a
// sleep moves it on at once, so a paced run takes no wall time.
type sharedClock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *sharedClock) now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}

func (c *sharedClock) sleep(ctx context.Context, d time.Duration) error {
	c.mu.Lock()
	c.t = c.t.Add(d)
	c.mu.Unlock()
	return ctx.Err()
}

// throttledCheck checks a stack of n queues against a sandbox whose one
// API, Cloud Control's GetResource, is throttled by rule, with the
// production clients paced by a Scheduler on the sandbox's clock.
func throttledCheck(t *testing.T, n int, rule sandbox.ThrottleRule) (*scan.StackResult, sandbox.CallStats) {
	t.Helper()
	clock := &sharedClock{t: time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)}
	srv, url := sandboxtest.Serve(t, world(t, "Big", queues(n), nil), sandbox.Options{Now: clock.now})
	if err := srv.SetThrottle([]sandbox.ThrottleRule{rule}); err != nil {
		t.Fatal(err)
	}
	cfg, err := scan.Config(testCtx(t), scan.Settings{Region: region, EndpointURL: url, AccessKeyID: key, SecretAccessKey: "secret",
		Scheduler: scan.NewScheduler(scan.SchedulerOptions{Concurrency: 2, Now: clock.now, Sleep: clock.sleep})})
	if err != nil {
		t.Fatal(err)
	}
	got, err := scan.Check(testCtx(t), scan.NewClients(cfg), drift.StackRef{Region: region, Name: "Big"}, scan.Options{Concurrency: 2})
	if err != nil {
		t.Fatal(err)
	}
	return got, srv.Calls()
}

// TestThrottledAPIStillCompletes: one API throttled with the service's
// own error (Cloud Control's ThrottlingException, a token a second) slows
// the reads, which the SDK retries and the Scheduler paces: every
// resource is read, none skipped.
func TestThrottledAPIStillCompletes(t *testing.T) {
	const n = 8
	got, st := throttledCheck(t, n, sandbox.ThrottleRule{Service: "cloudcontrolapi", Action: "GetResource", Rate: 1, Burst: 1})
	if st.Errors["cloudcontrolapi:GetResource:ThrottlingException"] == 0 {
		t.Fatalf("the throttle never answered: %+v", st.Errors)
	}
	for _, f := range got.Findings {
		if f.Tier == drift.Skipped {
			t.Errorf("skipped %s: %s", f.LogicalID, f.Reason)
		}
	}
	if len(got.Lives) != n {
		t.Errorf("read %d resources, want %d", len(got.Lives), n)
	}
}

// TestThrottleBeyondRetriesIsSkipped: an API throttled past every retry
// (a token per ~3 hours) leaves the resources it could not read skipped,
// with the throttling answer as the reason: never clean, never dropped.
func TestThrottleBeyondRetriesIsSkipped(t *testing.T) {
	const n = 4
	got, _ := throttledCheck(t, n, sandbox.ThrottleRule{Service: "cloudcontrolapi", Action: "GetResource", Rate: 0.0001, Burst: 1})
	skipped := 0
	for _, f := range got.Findings {
		if f.Tier != drift.Skipped {
			continue
		}
		skipped++
		if skipped == 1 {
			t.Logf("skipped %s: %s", f.LogicalID, f.Reason)
		}
		if !strings.Contains(f.Reason, "ThrottlingException") {
			t.Errorf("skipped %s: reason %q does not name the throttle", f.LogicalID, f.Reason)
		}
	}
	found := 0
	for id, l := range got.Lives {
		switch l.Status {
		case live.Found:
			found++
		case live.Skipped:
		default:
			t.Errorf("%s: %s", id, l.Status)
		}
	}
	if skipped != n-1 || found != 1 || len(got.Lives) != n {
		t.Errorf("%d lives: %d found, %d skipped; want %d: 1 found (the bucket's one token), %d skipped", len(got.Lives), found, skipped, n, n-1)
	}
}
