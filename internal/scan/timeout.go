package scan

import (
	"context"
	"errors"
	"io"
	"net"
	"net/http"
	"reflect"
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
// deadlines of s (defaults where zero). Config wraps it in sdkhttp once
// the SDK has added what it adds (a CA bundle needs the bare client).
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
// A call whose attempts were answered with errors says what they were
// answered (answers, countAnswers: a *live.RetriedError around the error).
// An operation whose output streams its body (S3 GetObject) keeps its
// deadline until the body is closed: the body is read after the call
// returns, and ending the context then would cut it off.
func callDeadline(d time.Duration) func(*middleware.Stack) error {
	return func(st *middleware.Stack) error {
		if err := countAnswers(st); err != nil {
			return err
		}
		return st.Initialize.Add(middleware.InitializeMiddlewareFunc("realdriftCallDeadline",
			func(ctx context.Context, in middleware.InitializeInput, next middleware.InitializeHandler) (middleware.InitializeOutput, middleware.Metadata, error) {
				cctx, cancel := context.WithTimeout(ctx, d)
				tally := &answers{}
				out, md, err := next.HandleInitialize(context.WithValue(cctx, answersKey{}, tally), in)
				if err == nil && cancelOnBodyClose(out.Result, cancel) {
					return out, md, nil
				}
				cancel()
				if err != nil && ctx.Err() == nil && errors.Is(cctx.Err(), context.DeadlineExceeded) {
					err = &live.TimeoutError{After: d, Err: err}
				}
				if err != nil && ctx.Err() == nil {
					err = tally.wrap(err)
				}
				return out, md, err
			}), middleware.Before)
	}
}

// cancelOnBodyClose makes closing result's streaming body (an exported
// Body io.ReadCloser field, as the SDK's streaming outputs have) call
// cancel, and reports whether result has one.
func cancelOnBodyClose(result any, cancel context.CancelFunc) bool {
	v := reflect.ValueOf(result)
	if v.Kind() != reflect.Pointer || v.IsNil() || v.Elem().Kind() != reflect.Struct {
		return false
	}
	f := v.Elem().FieldByName("Body")
	if !f.IsValid() || !f.CanSet() || f.Type() != reflect.TypeFor[io.ReadCloser]() || f.IsNil() {
		return false
	}
	f.Set(reflect.ValueOf(io.ReadCloser(&cancelingBody{ReadCloser: f.Interface().(io.ReadCloser), cancel: cancel})))
	return true
}

// cancelingBody ends its call's deadline when closed.
type cancelingBody struct {
	io.ReadCloser
	cancel context.CancelFunc
}

func (b *cancelingBody) Close() error {
	defer b.cancel()
	return b.ReadCloser.Close()
}

func orDefault(d, def time.Duration) time.Duration {
	if d <= 0 {
		return def
	}
	return d
}
