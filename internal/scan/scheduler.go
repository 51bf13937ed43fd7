package scan

import (
	"context"
	"sort"
	"sync"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	awsmiddleware "github.com/aws/aws-sdk-go-v2/aws/middleware"
	"github.com/aws/aws-sdk-go-v2/aws/retry"
	"github.com/aws/smithy-go/middleware"
)

// DefaultConcurrency is the default bound on AWS calls in flight over a
// whole run (a Scheduler's Concurrency), sized for one account and region
// of a few hundred stacks: below the per-API rates AWS grants an account,
// high enough that 30 ms of latency per call is not what a check waits on.
const DefaultConcurrency = 32

// The adaptive rate of one account, region and API (AIMD, see Scheduler).
const (
	// rateWindow is how far back the rate of successful calls is measured
	// when a throttle cuts the rate.
	rateWindow = time.Second
	// rateDecrease multiplies the measured rate at a throttle.
	rateDecrease = 0.9
	// rateIncrease is the additive increase, in calls/s per second of
	// calls at the current rate.
	rateIncrease = 1.0
	// minRate is the floor of a cut rate, in calls/s.
	minRate = 0.5
	// windowCap bounds the success times kept per API.
	windowCap = 4096
)

// SchedulerOptions configure a Scheduler.
type SchedulerOptions struct {
	// Concurrency bounds the attempts in flight over every client built
	// with the scheduler (DefaultConcurrency when ≤ 0).
	Concurrency int
	// Now is the clock (time.Now when nil); Sleep waits d or until ctx
	// ends (a timer when nil). Tests move both.
	Now   func() time.Time
	Sleep func(ctx context.Context, d time.Duration) error
}

// Scheduler is the one place a run's AWS calls are limited. Every client
// built with it (Settings.Scheduler) sends each attempt of a call through
// it, so stacks, resource reads, child enumerations and lookups share:
//
//   - a global bound on attempts in flight (Concurrency); a call waiting
//     for its rate, or sleeping between retries, holds no slot;
//   - an adaptive client-side rate per account, region and API, AIMD:
//     unlimited until the API throttles; at a throttle the rate is cut to
//     0.9 × the rate of successful calls of the last second (never below
//     0.5/s), once per round of calls (throttles of attempts sent before
//     the last cut do not cut again); each success then raises it by
//     1/rate, i.e. about 1 call/s per second. The API's own throttling is
//     the signal: the rate settles just under what AWS grants, so a large
//     account is slowed, never throttled into skipped reads. A throttled
//     attempt is retried at once (the paced rate spaces it), other retries
//     back off as the SDK does.
//
// Attempts are counted per API (Stats). It is safe for concurrent use.
type Scheduler struct {
	slots chan struct{}
	now   func() time.Time
	sleep func(ctx context.Context, d time.Duration) error

	mu        sync.Mutex
	rates     map[apiKey]*apiRate
	inFlight  int
	maxFlight int
}

// apiKey names one account, region and API ("CloudFormation:GetTemplate").
type apiKey struct{ account, region, api string }

// apiRate is the adaptive rate of one apiKey.
type apiRate struct {
	// limit is the rate in calls/s; 0 means unlimited (never throttled).
	limit float64
	// next is the earliest start of the next attempt while limited.
	next time.Time
	// cut is when the rate was last cut.
	cut time.Time
	// done are the end times of recent successful attempts (a ring).
	done []time.Time
	head int

	calls, throttles int
}

// NewScheduler returns a Scheduler with o's bound and clock.
func NewScheduler(o SchedulerOptions) *Scheduler {
	n := o.Concurrency
	if n <= 0 {
		n = DefaultConcurrency
	}
	s := &Scheduler{slots: make(chan struct{}, n), now: o.Now, sleep: o.Sleep, rates: map[apiKey]*apiRate{}}
	if s.now == nil {
		s.now = time.Now
	}
	if s.sleep == nil {
		s.sleep = sleepCtx
	}
	return s
}

// Concurrency is the bound on attempts in flight.
func (s *Scheduler) Concurrency() int { return cap(s.slots) }

func sleepCtx(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// Do runs one attempt of api for account and region under the scheduler:
// it waits for the API's paced rate, then for a slot, runs attempt, and
// feeds its outcome (throttled or not) back into the rate. Only the
// context ending while waiting is Do's own error.
func (s *Scheduler) Do(ctx context.Context, account, region, api string, attempt func() error) error {
	k := apiKey{account, region, api}
	if err := s.pace(ctx, k); err != nil {
		return err
	}
	select {
	case s.slots <- struct{}{}:
	case <-ctx.Done():
		return ctx.Err()
	}
	s.mu.Lock()
	s.inFlight++
	s.maxFlight = max(s.maxFlight, s.inFlight)
	s.mu.Unlock()
	sent := s.now()
	err := attempt()
	s.mu.Lock()
	defer s.mu.Unlock()
	s.inFlight--
	<-s.slots // after the count: a slot is never counted twice
	r := s.rate(k)
	r.calls++
	switch {
	case err != nil && isThrottle(err):
		r.throttles++
		s.throttled(r, sent)
	case err == nil:
		s.succeeded(r)
	}
	return err
}

// rate returns k's rate; s.mu is held.
func (s *Scheduler) rate(k apiKey) *apiRate {
	r := s.rates[k]
	if r == nil {
		r = &apiRate{}
		s.rates[k] = r
	}
	return r
}

// pace waits until k's rate lets the next attempt start. A waiter
// re-reads the rate each time it wakes, so a cut or a raise applies at
// once to every attempt not yet started (nothing is booked ahead at an
// old rate).
func (s *Scheduler) pace(ctx context.Context, k apiKey) error {
	for {
		s.mu.Lock()
		r := s.rate(k)
		if r.limit <= 0 {
			s.mu.Unlock()
			return nil
		}
		now := s.now()
		interval := time.Duration(float64(time.Second) / r.limit)
		if !now.Before(r.next) {
			// Keep the cadence when the turn is taken late by less than a
			// turn (a waiter's wake-up), restart it after an idle spell.
			base := r.next
			if now.Sub(base) >= interval {
				base = now
			}
			r.next = base.Add(interval)
			s.mu.Unlock()
			return nil
		}
		d := r.next.Sub(now)
		s.mu.Unlock()
		if err := s.sleep(ctx, d); err != nil {
			return err
		}
	}
}

// throttled cuts r's rate once per round (multiplicative decrease of the
// measured success rate); s.mu is held.
func (s *Scheduler) throttled(r *apiRate, sent time.Time) {
	if !r.cut.IsZero() && !sent.After(r.cut) {
		return // sent before the last cut: that cut already answered it
	}
	now := s.now()
	measured := float64(r.recent(now)) / rateWindow.Seconds()
	limit := measured
	if r.limit > 0 && (limit == 0 || r.limit < limit) {
		limit = r.limit
	}
	r.limit = max(minRate, limit*rateDecrease)
	r.cut = now
	if r.next.Before(now) {
		r.next = now
	}
}

// succeeded records a success and, while limited, raises the rate
// (additive increase); s.mu is held.
func (s *Scheduler) succeeded(r *apiRate) {
	now := s.now()
	if len(r.done) < windowCap {
		r.done = append(r.done, now)
	} else {
		r.done[r.head] = now
		r.head = (r.head + 1) % windowCap
	}
	if r.limit > 0 {
		r.limit += rateIncrease / r.limit
	}
}

// recent counts the successes of the last rateWindow before now.
func (r *apiRate) recent(now time.Time) int {
	n := 0
	for _, t := range r.done {
		if now.Sub(t) <= rateWindow {
			n++
		}
	}
	return n
}

// isThrottle reports whether err is an API's throttling answer.
func isThrottle(err error) bool {
	return retry.IsErrorThrottles(retry.DefaultThrottles).IsErrorThrottle(err) == aws.TrueTernary
}

// APIStats are one API's figures in a run.
type APIStats struct {
	// Calls counts attempts (each retry is a call, as AWS counts them);
	// Throttled those the API throttled (and were retried).
	Calls     int `json:"calls"`
	Throttled int `json:"throttled,omitempty"`
	// Rate is the adaptive rate in calls/s at the end (0: never limited).
	Rate float64 `json:"rate,omitempty"`
}

// Stats are a Scheduler's figures so far.
type Stats struct {
	Calls       int                 `json:"calls"`
	Throttled   int                 `json:"throttled"`
	MaxInFlight int                 `json:"maxInFlight"`
	Concurrency int                 `json:"concurrency"`
	APIs        map[string]APIStats `json:"apis"`
}

// Stats sums the figures per API (over accounts and regions).
func (s *Scheduler) Stats() Stats {
	s.mu.Lock()
	defer s.mu.Unlock()
	st := Stats{MaxInFlight: s.maxFlight, Concurrency: cap(s.slots), APIs: map[string]APIStats{}}
	for k, r := range s.rates {
		a := st.APIs[k.api]
		a.Calls += r.calls
		a.Throttled += r.throttles
		a.Rate = max(a.Rate, r.limit)
		st.APIs[k.api] = a
		st.Calls += r.calls
		st.Throttled += r.throttles
	}
	for k, a := range st.APIs {
		if a.Calls == 0 {
			delete(st.APIs, k)
		}
	}
	return st
}

// SortedAPIs returns the API names of st, most calls first.
func (st Stats) SortedAPIs() []string {
	names := make([]string, 0, len(st.APIs))
	for n := range st.APIs {
		names = append(names, n)
	}
	sort.Slice(names, func(i, j int) bool {
		a, b := st.APIs[names[i]], st.APIs[names[j]]
		if a.Calls != b.Calls {
			return a.Calls > b.Calls
		}
		return names[i] < names[j]
	})
	return names
}

// middleware sends every attempt of a client's calls through s, keyed by
// account and region. It sits in the Finalize step right after the SDK's
// retry loop, so each attempt (not each call) takes a slot.
func (s *Scheduler) middleware(account, region string) func(*middleware.Stack) error {
	return func(st *middleware.Stack) error {
		mw := middleware.FinalizeMiddlewareFunc("realdriftScheduler",
			func(ctx context.Context, in middleware.FinalizeInput, next middleware.FinalizeHandler) (middleware.FinalizeOutput, middleware.Metadata, error) {
				api := awsmiddleware.GetServiceID(ctx) + ":" + awsmiddleware.GetOperationName(ctx)
				var out middleware.FinalizeOutput
				var md middleware.Metadata
				var callErr error
				err := s.Do(ctx, account, region, api, func() error {
					out, md, callErr = next.HandleFinalize(ctx, in)
					return callErr
				})
				if err != nil && callErr == nil {
					return out, md, err // the context ended while waiting
				}
				return out, md, callErr
			})
		if err := st.Finalize.Insert(mw, (&retry.Attempt{}).ID(), middleware.After); err != nil {
			return st.Finalize.Add(mw, middleware.After) // no retry loop: around the send
		}
		return nil
	}
}

// throttleBackoff retries a throttled attempt at once (the scheduler's
// paced rate spaces it) and backs off as the SDK does otherwise.
type throttleBackoff struct{ other retry.BackoffDelayer }

func (b throttleBackoff) BackoffDelay(attempt int, err error) (time.Duration, error) {
	if isThrottle(err) {
		return 0, nil
	}
	return b.other.BackoffDelay(attempt, err)
}
