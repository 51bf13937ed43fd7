package scan

import (
	"context"
	"errors"
	"net"
	"net/http"
	"time"

	awshttp "github.com/aws/aws-sdk-go-v2/aws/transport/http"
	"github.com/aws/smithy-go/middleware"

	"github.com/realdrift/realdrift/internal/live"
)

// The default deadlines of one AWS call.
const (
	// DefaultConnectTimeout bounds dialing and the TLS handshake of one
	// attempt.
	DefaultConnectTimeout = 5 * time.Second
	// DefaultFirstByteTimeout bounds the wait for the response headers of
	// one attempt, once the request is sent.
	DefaultFirstByteTimeout = 20 * time.Second
	// DefaultCallTimeout bounds one call: every attempt, retry backoff and
	// the reading of the answer.
	DefaultCallTimeout = 60 * time.Second
)

// httpClient is the SDK's HTTP client with the connect and first-byte
// deadlines of s (defaults where zero).
func httpClient(s Settings) *awshttp.BuildableClient {
	connect := orDefault(s.ConnectTimeout, DefaultConnectTimeout)
	firstByte := orDefault(s.FirstByteTimeout, DefaultFirstByteTimeout)
	return awshttp.NewBuildableClient().
		WithDialerOptions(func(d *net.Dialer) { d.Timeout = connect }).
		WithTransportOptions(func(t *http.Transport) {
			t.TLSHandshakeTimeout = connect
			t.ResponseHeaderTimeout = firstByte
		})
}

// callDeadline bounds every operation of a client at d, retries included:
// it wraps the whole middleware stack (Initialize runs once per call, the
// retry loop sits below it). A call that runs out of time returns a
// *live.TimeoutError; a run context that ends first returns its own error.
func callDeadline(d time.Duration) func(*middleware.Stack) error {
	return func(st *middleware.Stack) error {
		return st.Initialize.Add(middleware.InitializeMiddlewareFunc("realdriftCallDeadline",
			func(ctx context.Context, in middleware.InitializeInput, next middleware.InitializeHandler) (middleware.InitializeOutput, middleware.Metadata, error) {
				cctx, cancel := context.WithTimeout(ctx, d)
				defer cancel()
				out, md, err := next.HandleInitialize(cctx, in)
				if err != nil && ctx.Err() == nil && errors.Is(cctx.Err(), context.DeadlineExceeded) {
					err = &live.TimeoutError{After: d, Err: err}
				}
				return out, md, err
			}), middleware.Before)
	}
}

func orDefault(d, def time.Duration) time.Duration {
	if d <= 0 {
		return def
	}
	return d
}
