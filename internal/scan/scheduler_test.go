package scan

import (
	"context"
	"errors"
	"sync"
	"testing"
	"time"

	"github.com/aws/smithy-go"
)

// fakeClock is a clock tests move; sleep advances it by the wait asked.
type fakeClock struct {
	mu    sync.Mutex
	t     time.Time
	slept []time.Duration
}

func (c *fakeClock) now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}

func (c *fakeClock) advance(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.t = c.t.Add(d)
}

func (c *fakeClock) sleep(_ context.Context, d time.Duration) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.slept = append(c.slept, d)
	c.t = c.t.Add(d)
	return nil
}

var errThrottled = &smithy.GenericAPIError{Code: "ThrottlingException", Message: "Rate exceeded"}

// Attempts of every API share one bound: with 3 slots and 10 blocked
// attempts, exactly 3 run until one is released.
func TestSchedulerBoundsAttemptsInFlight(t *testing.T) {
	s := NewScheduler(SchedulerOptions{Concurrency: 3})
	ctx := context.Background()
	release := make(chan struct{})
	started := make(chan struct{}, 10)
	var mu sync.Mutex
	in, most := 0, 0
	var wg sync.WaitGroup
	for i := range 10 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			api := []string{"CloudFormation:GetTemplate", "CloudControl:GetResource"}[i%2]
			_ = s.Do(ctx, "", "us-east-1", api, func() error {
				mu.Lock()
				in++
				most = max(most, in)
				mu.Unlock()
				started <- struct{}{}
				<-release
				mu.Lock()
				in--
				mu.Unlock()
				return nil
			})
		}()
	}
	for range 3 {
		<-started
	}
	select {
	case <-started:
		t.Fatal("a fourth attempt started while three held the slots")
	default:
	}
	close(release)
	wg.Wait()
	if most != 3 {
		t.Errorf("most in flight %d, want 3", most)
	}
	st := s.Stats()
	if st.Calls != 10 || st.MaxInFlight != 3 || st.APIs["CloudControl:GetResource"].Calls != 5 {
		t.Errorf("stats %+v, want 10 calls, 3 in flight, 5 GetResource", st)
	}
}

// AIMD: unlimited until a throttle; the throttle cuts the rate to 0.9 ×
// the successes of the last second; throttles of attempts sent before the
// cut do not cut again; successes raise the rate; the next attempts are
// paced at the rate; another API and another region are not touched.
func TestSchedulerAdaptsRateToThrottling(t *testing.T) {
	clk := &fakeClock{t: time.Date(2030, 1, 1, 0, 0, 0, 0, time.UTC)}
	s := NewScheduler(SchedulerOptions{Concurrency: 4, Now: clk.now, Sleep: clk.sleep})
	ctx := context.Background()
	const api = "CloudControl:GetResource"
	ok := func() error { return nil }
	throttled := func() error { return errThrottled }
	rate := func(region, api string) float64 {
		s.mu.Lock()
		defer s.mu.Unlock()
		return s.rate(apiKey{"", region, api}).limit
	}
	// 20 successes within 0.95 s: no limit yet, no waiting.
	for range 20 {
		if err := s.Do(ctx, "", "us-east-1", api, ok); err != nil {
			t.Fatal(err)
		}
		clk.advance(50 * time.Millisecond)
	}
	if len(clk.slept) != 0 || rate("us-east-1", api) != 0 {
		t.Fatalf("slept %v, rate %v before any throttle", clk.slept, rate("us-east-1", api))
	}
	sentBefore := clk.now()
	if err := s.Do(ctx, "", "us-east-1", api, throttled); !errors.Is(err, errThrottled) {
		t.Fatalf("err %v, want the throttle passed through", err)
	}
	want := 0.9 * 20 // 20 successes in the last second
	if got := rate("us-east-1", api); got != want {
		t.Fatalf("rate after the throttle %v, want %v", got, want)
	}
	// An attempt sent before the cut and throttled after it does not cut
	// again.
	clk.advance(10 * time.Millisecond)
	s.mu.Lock()
	s.throttled(s.rate(apiKey{"", "us-east-1", api}), sentBefore)
	s.mu.Unlock()
	if got := rate("us-east-1", api); got != want {
		t.Errorf("rate %v after a throttle of the same round, want %v", got, want)
	}
	// Paced: ten attempts at 18/s wait 1/18 s each (after the first).
	clk.slept = nil
	for range 10 {
		if err := s.Do(ctx, "", "us-east-1", api, ok); err != nil {
			t.Fatal(err)
		}
	}
	if len(clk.slept) < 9 {
		t.Fatalf("slept %d times, want the attempts paced", len(clk.slept))
	}
	if got := rate("us-east-1", api); got <= want {
		t.Errorf("rate %v after ten successes, want above %v (additive increase)", got, want)
	}
	// Other APIs and regions keep their own rate.
	if rate("us-east-1", "CloudFormation:GetTemplate") != 0 || rate("eu-west-1", api) != 0 {
		t.Error("a throttle of one API limited another")
	}
	if st := s.Stats(); st.Throttled != 1 || st.APIs[api].Throttled != 1 {
		t.Errorf("stats %+v, want one throttle", st)
	}
}

// A throttled attempt is retried without the SDK's backoff (the paced rate
// spaces it); other errors back off as before.
func TestThrottleBackoff(t *testing.T) {
	b := throttleBackoff{other: fixedBackoff(time.Second)}
	if d, _ := b.BackoffDelay(3, errThrottled); d != 0 {
		t.Errorf("throttle backoff %v, want 0", d)
	}
	if d, _ := b.BackoffDelay(3, errors.New("500")); d != time.Second {
		t.Errorf("other backoff %v, want the SDK's", d)
	}
}

type fixedBackoff time.Duration

func (f fixedBackoff) BackoffDelay(int, error) (time.Duration, error) { return time.Duration(f), nil }
