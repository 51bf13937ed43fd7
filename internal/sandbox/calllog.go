package sandbox

import (
	"maps"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"
)

// CallRecord is one served API call: one attempt of a client's request.
type CallRecord struct {
	Time    time.Time `json:"time"`
	Account string    `json:"account"`
	Service string    `json:"service"`
	Action  string    `json:"action"`
	// Attempt is the attempt number the SDK sent (amz-sdk-request:
	// attempt=N), 1 for a first try; 0 when the client sent none.
	Attempt  int           `json:"attempt,omitempty"`
	Status   int           `json:"status"`
	Code     string        `json:"code,omitempty"`
	Duration time.Duration `json:"durationNanos"`
}

// CallStats summarises the call log.
type CallStats struct {
	Total int `json:"total"`
	// Counts are calls per API ("service:Action"), every attempt; Errors
	// are the failed ones per API and error code ("service:Action:Code").
	// Requests are the first attempts per API (attempt 1, or a call that
	// carries no attempt number) and Retries the attempts after the first,
	// so Counts = Requests + Retries and a test can count what the client
	// asked for whatever a busy machine made it retry.
	Counts      map[string]int `json:"counts"`
	Requests    map[string]int `json:"requests"`
	Retries     map[string]int `json:"retries"`
	Errors      map[string]int `json:"errors"`
	InFlight    int            `json:"inFlight"`
	MaxInFlight int            `json:"maxInFlight"`
	// Recent are the last calls, oldest first (at most recentCalls).
	Recent []CallRecord `json:"recent"`
	// Regions is the load per account and region ("account/region").
	Regions map[string]RegionLoad `json:"regions,omitempty"`
	// AccountMaxInFlight is the most calls in flight at once per account,
	// over all its regions.
	AccountMaxInFlight map[string]int `json:"accountMaxInFlight,omitempty"`
}

// RegionLoad is what one account and region was asked.
type RegionLoad struct {
	// Calls are the calls answered; Throttled those answered with the
	// service's throttling error.
	Calls     int `json:"calls"`
	Throttled int `json:"throttled"`
	// First and Last are the start of the first call and the end of the
	// last one.
	First time.Time `json:"first"`
	Last  time.Time `json:"last"`
	// MaxInFlight is the most calls in flight at once.
	MaxInFlight int `json:"maxInFlight"`
	inFlight    int
}

// recentCalls bounds the kept call records.
const recentCalls = 1000

type callLog struct {
	mu       sync.Mutex
	total    int
	counts   map[string]int
	requests map[string]int
	retries  map[string]int
	errors   map[string]int
	inFlight int
	max      int
	// recent is a ring of the last calls; next is where the next one goes.
	recent []CallRecord
	next   int
	// regions and accounts are the load per account-region and account.
	regions  map[string]*RegionLoad
	accounts map[string]*RegionLoad
}

func newCallLog() *callLog {
	return &callLog{counts: map[string]int{}, requests: map[string]int{}, retries: map[string]int{}, errors: map[string]int{},
		regions: map[string]*RegionLoad{}, accounts: map[string]*RegionLoad{}}
}

// sdkAttempt is the attempt number of an SDK request: its amz-sdk-request
// header is "attempt=N; max=M" (aws-sdk-go-v2's retry middleware sets it on
// every attempt). 0 when there is none or it cannot be read.
func sdkAttempt(h http.Header) int {
	for part := range strings.SplitSeq(h.Get("Amz-Sdk-Request"), ";") {
		if v, ok := strings.CutPrefix(strings.TrimSpace(part), "attempt="); ok {
			if n, err := strconv.Atoi(v); err == nil && n > 0 {
				return n
			}
		}
	}
	return 0
}

// begin records the start of a call, attempt number attempt of its request
// (sdkAttempt); the returned func records its end (a throttled answer is
// counted by its code: ThrottlingException, Throttling, SlowDown, ...).
func (l *callLog) begin(account, region, service, action string, attempt int) func(status int, code string) {
	start := time.Now()
	l.mu.Lock()
	rl, al := l.regions[account+"/"+region], l.accounts[account]
	if rl == nil {
		rl = &RegionLoad{First: start}
		l.regions[account+"/"+region] = rl
	}
	if al == nil {
		al = &RegionLoad{First: start}
		l.accounts[account] = al
	}
	for _, x := range []*RegionLoad{rl, al} {
		x.Calls++
		x.inFlight++
		x.MaxInFlight = max(x.MaxInFlight, x.inFlight)
	}
	l.total++
	l.counts[service+":"+action]++
	if attempt > 1 {
		l.retries[service+":"+action]++
	} else {
		l.requests[service+":"+action]++
	}
	l.inFlight++
	if l.inFlight > l.max {
		l.max = l.inFlight
	}
	l.mu.Unlock()
	return func(status int, code string) {
		l.mu.Lock()
		defer l.mu.Unlock()
		end := time.Now()
		for _, x := range []*RegionLoad{rl, al} {
			x.inFlight--
			x.Last = end
			if isThrottleCode(code) {
				x.Throttled++
			}
		}
		l.inFlight--
		if code != "" {
			l.errors[service+":"+action+":"+code]++
		}
		rec := CallRecord{Time: start, Account: account, Service: service, Action: action, Attempt: attempt, Status: status, Code: code, Duration: time.Since(start)}
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
	st := CallStats{Total: l.total, Counts: maps.Clone(l.counts), Requests: maps.Clone(l.requests), Retries: maps.Clone(l.retries),
		Errors: maps.Clone(l.errors), InFlight: l.inFlight, MaxInFlight: l.max}
	st.Regions, st.AccountMaxInFlight = map[string]RegionLoad{}, map[string]int{}
	for k, v := range l.regions {
		st.Regions[k] = *v
	}
	for k, v := range l.accounts {
		st.AccountMaxInFlight[k] = v.MaxInFlight
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
	l.requests = map[string]int{}
	l.retries = map[string]int{}
	l.errors = map[string]int{}
	l.max = l.inFlight
	l.recent = nil
	l.next = 0
	// Calls in flight stay counted; everything else starts again.
	for k, v := range l.regions {
		if v.inFlight == 0 {
			delete(l.regions, k)
			continue
		}
		l.regions[k] = &RegionLoad{First: time.Now(), inFlight: v.inFlight, MaxInFlight: v.inFlight}
	}
	for k, v := range l.accounts {
		if v.inFlight == 0 {
			delete(l.accounts, k)
			continue
		}
		l.accounts[k] = &RegionLoad{First: time.Now(), inFlight: v.inFlight, MaxInFlight: v.inFlight}
	}
}

// isThrottleCode reports whether an error code is a throttling answer of
// one of the emulated services.
func isThrottleCode(code string) bool {
	switch code {
	case "Throttling", "ThrottlingException", "ThrottledException", "TooManyRequestsException",
		"RequestLimitExceeded", "SlowDown", "RequestThrottled":
		return true
	}
	return false
}

// Calls returns the call log's summary.
func (s *Server) Calls() CallStats { return s.calls.stats() }

// ResetCalls clears the call log (calls in flight stay counted).
func (s *Server) ResetCalls() { s.calls.reset() }
