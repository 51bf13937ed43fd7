package sandbox

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"sync"
)

// FaultRule injects errors into matching API calls.
type FaultRule struct {
	// Service and Action select calls as in ThrottleRule.
	Service string `json:"service,omitempty"`
	Action  string `json:"action,omitempty"`
	// Role, when set, denies (AccessDenied in the service's shape) every
	// matching call made by a session of that role (name or ARN); Rate
	// and Code are then ignored.
	Role string `json:"role,omitempty"`
	// Rate is the probability (0..1] a matching call fails; 0 means 1.
	Rate float64 `json:"rate,omitempty"`
	// Code is the error code (default InternalFailure); Status its HTTP
	// status (default 500 for InternalFailure/ServiceUnavailable, else 400).
	Code    string `json:"code,omitempty"`
	Status  int    `json:"status,omitempty"`
	Message string `json:"message,omitempty"`
}

type faults struct {
	mu    sync.Mutex
	rng   *rand.Rand
	rules []FaultRule
}

func newFaults(seed int64) *faults {
	return &faults{rng: rand.New(rand.NewPCG(uint64(seed), 0x5eed))}
}

func (f *faults) set(rules []FaultRule) error {
	for i, r := range rules {
		if r.Rate < 0 || r.Rate > 1 {
			return fmt.Errorf("fault rule %d: rate must be within 0..1", i)
		}
		if r.Status != 0 && (r.Status < 400 || r.Status > 599) {
			return fmt.Errorf("fault rule %d: status %d is not an error status", i, r.Status)
		}
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	f.rules = append([]FaultRule(nil), rules...)
	return nil
}

// check returns the injected error for c, or nil.
func (f *faults) check(c *call) *apiError {
	f.mu.Lock()
	defer f.mu.Unlock()
	for _, r := range f.rules {
		if !(ThrottleRule{Service: r.Service, Action: r.Action}).matches(c.svc.name, c.action) {
			continue
		}
		if r.Role != "" {
			if c.who.role != "" && (c.who.role == r.Role || strings.HasSuffix(r.Role, ":role/"+c.who.role)) {
				e := c.svc.deny
				e.Message = fmt.Sprintf("User: %s is not authorized to perform: %s:%s", c.who.arn, c.svc.name, c.action)
				return &e
			}
			continue
		}
		rate := r.Rate
		if rate == 0 {
			rate = 1
		}
		if f.rng.Float64() >= rate {
			continue
		}
		code := r.Code
		if code == "" {
			code = "InternalFailure"
		}
		status := r.Status
		if status == 0 {
			status = 400
			if code == "InternalFailure" || code == "ServiceUnavailable" || code == "InternalError" || code == "ServiceFailure" {
				status = 500
			}
		}
		msg := r.Message
		if msg == "" {
			msg = "injected fault"
		}
		return &apiError{Status: status, Code: code, Message: msg, Receiver: status >= 500}
	}
	return nil
}

// SetFaults replaces the fault rules (nil removes them); the first
// matching rule that fires applies.
func (s *Server) SetFaults(rules []FaultRule) error { return s.faults.set(rules) }

// deniesAssume reports whether a rule denies assuming role (a rule naming
// the role for sts, or for sts:AssumeRole).
func (f *faults) deniesAssume(role string) bool {
	f.mu.Lock()
	defer f.mu.Unlock()
	for _, r := range f.rules {
		if r.Role == "" || r.Service != "sts" || (r.Action != "" && r.Action != "AssumeRole") {
			continue
		}
		if r.Role == role || strings.HasSuffix(r.Role, ":role/"+role) {
			return true
		}
	}
	return false
}
