package sandbox

import (
	"fmt"
	"sync"
	"time"
)

// ThrottleRule limits the request rate of matching APIs with a token bucket
// per account, region and API (service and action), as AWS's API quotas
// are per account and region; with Shared, one bucket per account and
// region for every API the rule matches (a read budget over all APIs).
type ThrottleRule struct {
	// Service is the SigV4 signing name ("cloudcontrolapi"); "" or "*"
	// matches every service.
	Service string `json:"service,omitempty"`
	// Action is the operation ("GetResource"); "" matches every one.
	Action string `json:"action,omitempty"`
	// Rate is the sustained rate in requests per second (> 0).
	Rate float64 `json:"rate"`
	// Burst is the bucket size (default: one second's worth, at least 1).
	Burst float64 `json:"burst,omitempty"`
	// Shared makes every matching API of an account and region draw on one
	// bucket.
	Shared bool `json:"shared,omitempty"`
}

func (r ThrottleRule) matches(service, action string) bool {
	return (r.Service == "" || r.Service == "*" || r.Service == service) && (r.Action == "" || r.Action == action)
}

type bucketKey struct{ account, region, service, action string }

type bucket struct {
	tokens float64
	last   time.Time
}

type throttler struct {
	now     func() time.Time
	mu      sync.Mutex
	rules   []ThrottleRule
	buckets map[bucketKey]*bucket
	// quotas are the buckets of the services' own quotas (Service.Quotas).
	quotas map[bucketKey]*bucket
}

func newThrottler(now func() time.Time) *throttler {
	return &throttler{now: now, buckets: map[bucketKey]*bucket{}, quotas: map[bucketKey]*bucket{}}
}

func (t *throttler) set(rules []ThrottleRule) error {
	for i, r := range rules {
		if r.Rate <= 0 {
			return fmt.Errorf("throttle rule %d: rate must be > 0", i)
		}
		if r.Burst < 0 {
			return fmt.Errorf("throttle rule %d: burst must be >= 0", i)
		}
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	t.rules = append([]ThrottleRule(nil), rules...)
	t.buckets = map[bucketKey]*bucket{}
	return nil
}

// allow takes a token for the call, reporting false when the bucket is empty.
func (t *throttler) allow(account, region, service, action string) bool {
	t.mu.Lock()
	defer t.mu.Unlock()
	for i, r := range t.rules {
		if !r.matches(service, action) {
			continue
		}
		burst := r.Burst
		if burst == 0 {
			burst = max(r.Rate, 1)
		}
		k := bucketKey{account, region, service, action}
		if r.Shared {
			k = bucketKey{account: account, region: region, service: fmt.Sprintf("rule %d", i)}
		}
		now := t.now()
		b := t.buckets[k]
		if b == nil {
			b = &bucket{tokens: burst, last: now}
			t.buckets[k] = b
		}
		b.tokens = min(burst, b.tokens+now.Sub(b.last).Seconds()*r.Rate)
		b.last = now
		if b.tokens < 1 {
			return false
		}
		b.tokens--
		return true
	}
	return true
}

// quota takes a token from the bucket of a service's own quota for an
// operation (rate per second, burst one second's worth), reporting false
// when it is empty. Throttle rules never replace it.
func (t *throttler) quota(account, region, service, action string, rate float64) bool {
	t.mu.Lock()
	defer t.mu.Unlock()
	k := bucketKey{account, region, "quota " + service, action}
	burst := max(rate, 1)
	now := t.now()
	b := t.quotas[k]
	if b == nil {
		b = &bucket{tokens: burst, last: now}
		t.quotas[k] = b
	}
	b.tokens = min(burst, b.tokens+now.Sub(b.last).Seconds()*rate)
	b.last = now
	if b.tokens < 1 {
		return false
	}
	b.tokens--
	return true
}

// SetThrottle replaces the throttle rules (nil removes throttling); the
// first matching rule applies to a call.
func (s *Server) SetThrottle(rules []ThrottleRule) error { return s.throttles.set(rules) }
