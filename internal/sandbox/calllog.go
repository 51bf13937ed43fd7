package sandbox

import (
	"sync"
	"time"
)

// CallRecord is one served API call.
type CallRecord struct {
	Time     time.Time     `json:"time"`
	Account  string        `json:"account"`
	Service  string        `json:"service"`
	Action   string        `json:"action"`
	Status   int           `json:"status"`
	Code     string        `json:"code,omitempty"`
	Duration time.Duration `json:"durationNanos"`
}

// CallStats summarises the call log.
type CallStats struct {
	Total int `json:"total"`
	// Counts are calls per API ("service:Action"); Errors are the failed
	// ones per API and error code ("service:Action:Code").
	Counts      map[string]int `json:"counts"`
	Errors      map[string]int `json:"errors"`
	InFlight    int            `json:"inFlight"`
	MaxInFlight int            `json:"maxInFlight"`
	// Recent are the last calls, oldest first (at most recentCalls).
	Recent []CallRecord `json:"recent"`
}

// recentCalls bounds the kept call records.
const recentCalls = 1000

type callLog struct {
	mu       sync.Mutex
	total    int
	counts   map[string]int
	errors   map[string]int
	inFlight int
	max      int
	// recent is a ring of the last calls; next is where the next one goes.
	recent []CallRecord
	next   int
}

func newCallLog() *callLog {
	return &callLog{counts: map[string]int{}, errors: map[string]int{}}
}

// begin records a call's start; the returned func records its end.
func (l *callLog) begin(account, service, action string) func(status int, code string) {
	start := time.Now()
	l.mu.Lock()
	l.total++
	l.counts[service+":"+action]++
	l.inFlight++
	if l.inFlight > l.max {
		l.max = l.inFlight
	}
	l.mu.Unlock()
	return func(status int, code string) {
		l.mu.Lock()
		defer l.mu.Unlock()
		l.inFlight--
		if code != "" {
			l.errors[service+":"+action+":"+code]++
		}
		rec := CallRecord{Time: start, Account: account, Service: service, Action: action, Status: status, Code: code, Duration: time.Since(start)}
		if len(l.recent) < recentCalls {
			l.recent = append(l.recent, rec)
		} else {
			l.recent[l.next] = rec
		}
		l.next = (l.next + 1) % recentCalls
	}
}

func (l *callLog) stats() CallStats {
	l.mu.Lock()
	defer l.mu.Unlock()
	st := CallStats{Total: l.total, Counts: map[string]int{}, Errors: map[string]int{}, InFlight: l.inFlight, MaxInFlight: l.max}
	for k, v := range l.counts {
		st.Counts[k] = v
	}
	for k, v := range l.errors {
		st.Errors[k] = v
	}
	if len(l.recent) < recentCalls {
		st.Recent = append([]CallRecord(nil), l.recent...)
	} else {
		st.Recent = append(append([]CallRecord(nil), l.recent[l.next:]...), l.recent[:l.next]...)
	}
	return st
}

func (l *callLog) reset() {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.total = 0
	l.counts = map[string]int{}
	l.errors = map[string]int{}
	l.max = l.inFlight
	l.recent = nil
	l.next = 0
}

// Calls returns the call log's summary.
func (s *Server) Calls() CallStats { return s.calls.stats() }

// ResetCalls clears the call log (calls in flight stay counted).
func (s *Server) ResetCalls() { s.calls.reset() }
