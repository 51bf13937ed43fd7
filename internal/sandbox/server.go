package sandbox

import (
	"fmt"
	"net/http"
	"strings"
	"sync/atomic"
	"time"

	"github.com/realdrift/realdrift/internal/sandbox/awsmodel"
	"github.com/realdrift/realdrift/internal/sandbox/service/cloudcontrolapi"
	"github.com/realdrift/realdrift/internal/sandbox/service/s3"
	"github.com/realdrift/realdrift/internal/sandbox/service/securityhub"
	"github.com/realdrift/realdrift/internal/sandbox/service/sns"
	"github.com/realdrift/realdrift/internal/sandbox/wire"
	"github.com/realdrift/realdrift/internal/sandbox/world"
	"github.com/realdrift/realdrift/internal/schema"
)

// FactsFunc returns the schema facts of a resource type, or false when it
// knows none.
type FactsFunc func(typeName string) (*schema.Facts, bool)

// Options tune a Server. The zero value is usable.
type Options struct {
	// Facts answers schema facts for types the world carries none for.
	Facts FactsFunc
	// Now is the clock; nil means time.Now.
	Now func() time.Time
	// PageSize is the page size of paginated list calls (default 100).
	PageSize int
	// OperationDelay is how long a Cloud Control request stays IN_PROGRESS
	// (default 20ms).
	OperationDelay time.Duration
	// Seed seeds fault injection's random choices (0 means 1).
	Seed int64
	// StaleReads, when > 0, makes writes AWS documents as eventually
	// consistent show late (consistency.go): after one succeeds, the
	// writing account's next StaleReads reads of that service see the
	// world as it was before it. 0 (the default): every read sees every
	// write at once.
	StaleReads int
	// LocalQueueURLs names every queue at the sandbox in its answers
	// (queueurl.go), for clients that send SQS calls to a queue's URL.
	LocalQueueURLs bool
}

func (o Options) now() time.Time {
	if o.Now != nil {
		return o.Now()
	}
	return time.Now()
}

// Server is an emulated AWS organisation served over HTTP. It is safe for
// concurrent use.
type Server struct {
	opts     Options
	services map[string]*wire.Service
	// inputs are the served write operations' input constraints, from
	// AWS's models (validate.go).
	inputs *awsmodel.Table

	st *world.State
	// requests are Cloud Control's resource requests
	// (service/cloudcontrolapi), guarded by st's lock.
	requests *cloudcontrolapi.Requests

	latencyNanos atomic.Int64
	throttles    *throttler
	faults       *faults
	calls        *callLog
	stale        staleness
	// objects are the S3 objects put (service/s3).
	objects *s3.Objects
	// hub holds the findings imported into Security Hub
	// (service/securityhub), guarded by st's lock.
	hub *securityhub.Findings
	// outbox holds the messages published to SNS topics (service/sns).
	outbox *sns.Outbox
}

// New returns a server for w (which it owns from now on).
func New(w *world.World, opts Options) (*Server, error) {
	if w == nil {
		return nil, fmt.Errorf("sandbox: nil world")
	}
	if err := w.Normalize(); err != nil {
		return nil, fmt.Errorf("sandbox: world: %w", err)
	}
	if opts.PageSize <= 0 {
		opts.PageSize = 100
	}
	if opts.OperationDelay <= 0 {
		opts.OperationDelay = 20 * time.Millisecond
	}
	if opts.Seed == 0 {
		opts.Seed = 1
	}
	s := &Server{
		opts: opts,

		st:       world.NewState(w),
		requests: cloudcontrolapi.NewRequests(),
		objects:  &s3.Objects{},
		hub:      &securityhub.Findings{},
		outbox:   &sns.Outbox{},
		calls:    newCallLog(),
		stale:    staleness{views: map[staleKey]*staleView{}},
	}
	inputs, err := awsmodel.Embedded()
	if err != nil {
		return nil, fmt.Errorf("sandbox: %w", err)
	}
	s.inputs = inputs
	s.throttles = newThrottler(opts.now)
	s.faults = newFaults(opts.Seed)
	s.services = services(s)
	return s, nil
}

// ServeHTTP serves the AWS APIs and, under /_sandbox/, the admin API.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if strings.HasPrefix(r.URL.Path, adminPrefix) {
		s.serveAdmin(w, r)
		return
	}
	s.serveAPI(w, r)
}

// Close stops pending Cloud Control requests. The server answers no
// request differently after it; the caller closes its listener.
func (s *Server) Close() {
	s.st.Lock()
	defer s.st.Unlock()
	s.requests.Stop()
}

func (s *Server) latency() time.Duration { return time.Duration(s.latencyNanos.Load()) }

// SetLatency delays every API reply by d.
func (s *Server) SetLatency(d time.Duration) { s.latencyNanos.Store(int64(d)) }

// Published returns the messages published to an SNS topic (by ARN), in
// order (tests: what an alert sent).
func (s *Server) Published(topic string) []PublishedMessage { return s.outbox.Of(topic) }

// SecurityHubFindings returns the findings imported into an account
// region's Security Hub (tests and the admin API), sorted by Id.
func (s *Server) SecurityHubFindings(account, region string) []map[string]any {
	return s.hub.Of(s.st, account, region)
}
