package sandbox

import (
	"fmt"
	"math/rand/v2"
	"net/url"
	"strings"
	"sync"

	"github.com/realdrift/realdrift/internal/sandbox/wire"
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
	// Match, when set, selects only calls whose request (URL and body)
	// contains it: a stack name, a queue name, an identifier.
	Match string `json:"match,omitempty"`
	// Hang makes a matching call never answer: it is held until the
	// client gives up (its request context ends) or the server closes.
	// Rate applies; Code, Status and Role are ignored.
	Hang bool `json:"hang,omitempty"`
}

// matches reports whether r selects call c (service, action and Match).
func (r FaultRule) matches(c *wire.Call) bool {
	if !(ThrottleRule{Service: r.Service, Action: r.Action}).matches(c.Service.Name, c.Action) {
		return false
	}
	if r.Match == "" {
		return true
	}
	for _, s := range []string{string(c.Body), c.HTTP.URL.String()} {
		if d, err := url.QueryUnescape(s); err == nil {
			s = d
		}
		if strings.Contains(s, r.Match) {
			return true
		}
	}
	return false
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
		if r.Hang && r.Role != "" {
			return fmt.Errorf("fault rule %d: hang and role exclude each other", i)
		}
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	f.rules = append([]FaultRule(nil), rules...)
	return nil
}

// check returns the injected error for c, or nil. A hang rule holds the
// call (without the lock) until the client's request context ends.
func (f *faults) check(c *wire.Call) *wire.Error {
	e, hang := f.pick(c)
	if hang {
		<-c.HTTP.Context().Done()
		// The client has gone: this reply is never read.
		e = &wire.Error{Status: 499, Code: "ClientClosed", Message: "hung by a fault rule until the client gave up"}
	}
	return e
}

// pick finds the first rule that fires for c: its error, or hang.
func (f *faults) pick(c *wire.Call) (*wire.Error, bool) {
	f.mu.Lock()
	defer f.mu.Unlock()
	for _, r := range f.rules {
		if !r.matches(c) {
			continue
		}
		if r.Role != "" {
			if c.Who.Role != "" && (c.Who.Role == r.Role || strings.HasSuffix(r.Role, ":role/"+c.Who.Role)) {
				e := c.Service.Deny
				e.Message = fmt.Sprintf("User: %s is not authorized to perform: %s:%s", c.Who.ARN, c.Service.Name, c.Action)
				return &e, false
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
		if r.Hang {
			return nil, true
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
		return &wire.Error{Status: status, Code: code, Message: msg, Receiver: status >= 500}, false
	}
	return nil, false
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
