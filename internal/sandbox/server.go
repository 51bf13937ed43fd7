package sandbox

import (
	"fmt"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/realdrift/realdrift/internal/sandbox/awsmodel"
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

	mu sync.RWMutex // guards st and requests
	st *world.State
	// requests are Cloud Control resource requests by token.
	requests map[string]*progress
	reqSeq   int

	latencyNanos atomic.Int64
	throttles    *throttler
	faults       *faults
	calls        *callLog
	// objects are the S3 objects put (s3objects.go).
	objects objects
	// hub holds the findings imported into Security Hub (securityhub.go),
	// guarded by mu.
	hub hubFindings
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
		requests: map[string]*progress{},
		calls:    newCallLog(),
	}
	s.services = services(s)
	inputs, err := awsmodel.Embedded()
	if err != nil {
		return nil, fmt.Errorf("sandbox: %w", err)
	}
	s.inputs = inputs
	s.throttles = newThrottler(opts.now)
	s.faults = newFaults(opts.Seed)
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
	for _, p := range s.requests {
		if p.timer != nil {
			p.timer.Stop()
		}
	}
}

func (s *Server) latency() time.Duration { return time.Duration(s.latencyNanos.Load()) }

// SetLatency delays every API reply by d.
func (s *Server) SetLatency(d time.Duration) { s.latencyNanos.Store(int64(d)) }

// facts returns the schema facts of a type in an account region: the
// region's first, then the world's, then the options' source.
func (s *Server) facts(account, region, typ string) (*schema.Facts, bool) {
	s.st.RLock()
	var f *schema.Facts
	ok := false
	if r := s.st.Region(account, region); r != nil {
		f, ok = r.Schemas[typ]
	}
	if !ok || f == nil {
		f, ok = s.st.World.Schemas[typ]
	}
	s.st.RUnlock()
	if ok && f != nil {
		return f, true
	}
	if s.opts.Facts != nil {
		return s.opts.Facts(typ)
	}
	return nil, false
}

// readable reports whether Cloud Control reads typ in an account region:
// not a world gap and not marked unreadable by facts that list handlers.
func (s *Server) readable(account, region, typ string) bool {
	s.st.RLock()
	for _, g := range s.st.World.CCGaps {
		if g == typ {
			s.st.RUnlock()
			return false
		}
	}
	s.st.RUnlock()
	if f, ok := s.facts(account, region, typ); ok && len(f.Handlers) > 0 && !f.Readable() {
		return false
	}
	return true
}
