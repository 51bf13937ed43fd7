package pace

import (
	"context"
	"errors"
	"sync"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/aws/retry"
	"github.com/aws/smithy-go/middleware"
)

// Middleware paces every attempt of a client's calls under account and
// region: add it to the aws.Config's APIOptions of the member account's
// clients. It sits in the Finalize step right after the SDK's retry loop,
// so each attempt (a retry too) waits for its slot.
func (l *Limiter) Middleware(account, region string) func(*middleware.Stack) error {
	return func(st *middleware.Stack) error {
		mw := middleware.FinalizeMiddlewareFunc("realdriftPace",
			func(ctx context.Context, in middleware.FinalizeInput, next middleware.FinalizeHandler) (middleware.FinalizeOutput, middleware.Metadata, error) {
				if err := l.Wait(ctx, account, region); err != nil {
					return middleware.FinalizeOutput{}, middleware.Metadata{}, err
				}
				return next.HandleFinalize(ctx, in)
			})
		if err := st.Finalize.Insert(mw, (&retry.Attempt{}).ID(), middleware.After); err != nil {
			return st.Finalize.Add(mw, middleware.After)
		}
		return nil
	}
}

// Tracker notes, for the calls made with its context, whether any ended
// throttled after the SDK's retries: a read that came back skipped for it
// is worth another try later, not a final answer.
type Tracker struct {
	mu        sync.Mutex
	throttled bool
}

type trackerKey struct{}

// Track returns ctx carrying a new Tracker.
func Track(ctx context.Context) (context.Context, *Tracker) {
	t := &Tracker{}
	return context.WithValue(ctx, trackerKey{}, t), t
}

// Throttled reports whether a call of the tracked context ended throttled.
func (t *Tracker) Throttled() bool {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.throttled
}

// IsThrottle reports whether err is an API's throttling answer, or the
// limiter's own (ErrScheduleFull).
func IsThrottle(err error) bool {
	if err == nil {
		return false
	}
	return errors.Is(err, ErrScheduleFull) || retry.IsErrorThrottles(retry.DefaultThrottles).IsErrorThrottle(err) == aws.TrueTernary
}

// TrackThrottles records, on the Tracker of a call's context (if any),
// that the call ended throttled once the SDK's retries gave up. It sits
// in the Initialize step, outside the retry loop.
func TrackThrottles(st *middleware.Stack) error {
	return st.Initialize.Add(middleware.InitializeMiddlewareFunc("realdriftThrottleTracker",
		func(ctx context.Context, in middleware.InitializeInput, next middleware.InitializeHandler) (middleware.InitializeOutput, middleware.Metadata, error) {
			out, md, err := next.HandleInitialize(ctx, in)
			if IsThrottle(err) {
				if t, ok := ctx.Value(trackerKey{}).(*Tracker); ok {
					t.mu.Lock()
					t.throttled = true
					t.mu.Unlock()
				}
			}
			return out, md, err
		}), middleware.Before)
}
