package scan

import (
	"bytes"
	"context"
	"fmt"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/aws/ratelimit"
	"github.com/aws/aws-sdk-go-v2/aws/retry"
	"github.com/aws/aws-sdk-go-v2/config"
	"github.com/aws/aws-sdk-go-v2/credentials"
	"github.com/aws/smithy-go/logging"
	"github.com/aws/smithy-go/middleware"

	"github.com/realdrift/realdrift/internal/sdkhttp"
)

// DefaultMaxAttempts is the default bound on the attempts of one call.
const DefaultMaxAttempts = 10

// Settings choose where and as whom the pipeline calls AWS.
type Settings struct {
	// Region is required: realdrift never picks one silently.
	Region string
	// Profile is a shared-config profile; empty means the default chain.
	Profile string
	// EndpointURL sends every call to one endpoint (the sandbox).
	EndpointURL string
	// AccessKeyID and SecretAccessKey, when both set, are static
	// credentials (the sandbox maps access keys to accounts).
	AccessKeyID     string
	SecretAccessKey string
	// MaxAttempts bounds the attempts of one call (DefaultMaxAttempts when ≤ 0).
	MaxAttempts int
	// ConnectTimeout, FirstByteTimeout and CallTimeout are the deadlines of
	// one call (timeout.go; the defaults where zero): dialing, the wait for
	// the response headers of one attempt, and the whole call with its
	// retries. A call that runs out of time fails with *live.TimeoutError.
	ConnectTimeout   time.Duration
	FirstByteTimeout time.Duration
	CallTimeout      time.Duration
	// Scheduler, when set, bounds and paces every attempt of the clients
	// (scheduler.go) under Account (a label: one per set of credentials,
	// "" for the default) and Region. It replaces the SDK's adaptive
	// client-side rate limiting; share one Scheduler over a run.
	Scheduler *Scheduler
	Account   string
	// Logger receives the SDK's own log lines (nil: the SDK's default,
	// stderr); the CLI passes a no-op logger and reports errors itself.
	Logger logging.Logger
	// CABundle, when set, is the PEM certificates TLS endpoints are
	// trusted by instead of the system's (a local emulator served over
	// TLS), as the environment's AWS_CA_BUNDLE does.
	CABundle []byte
}

// Config loads one aws.Config for s. With s.Scheduler, every attempt goes
// through it (a global bound on attempts in flight, an adaptive rate per
// API) and the SDK's standard retryer retries; without, the SDK's adaptive
// retry mode rate-limits throttled calls client-side. Either way the retry
// quota is lifted so a long throttled run is slowed, not failed. Every call
// has the deadlines of s, so the retries of one call stay bounded too.
func Config(ctx context.Context, s Settings) (aws.Config, error) {
	if s.Region == "" {
		return aws.Config{}, fmt.Errorf("no region: set --region or AWS_REGION")
	}
	attempts := s.MaxAttempts
	if attempts <= 0 {
		attempts = DefaultMaxAttempts
	}
	apiOptions := []func(*middleware.Stack) error{callDeadline(orDefault(s.CallTimeout, DefaultCallTimeout))}
	retryer := func() aws.Retryer {
		return retry.NewAdaptiveMode(func(o *retry.AdaptiveModeOptions) {
			o.StandardOptions = append(o.StandardOptions, func(so *retry.StandardOptions) {
				so.MaxAttempts = attempts
				so.RateLimiter = ratelimit.None
			})
		})
	}
	if s.Scheduler != nil {
		apiOptions = append(apiOptions, s.Scheduler.middleware(s.Account, s.Region))
		retryer = func() aws.Retryer {
			return retry.NewStandard(func(so *retry.StandardOptions) {
				so.MaxAttempts = attempts
				so.RateLimiter = ratelimit.None
				so.Backoff = throttleBackoff{other: retry.NewExponentialJitterBackoff(retry.DefaultMaxBackoff)}
			})
		}
	}
	opts := []func(*config.LoadOptions) error{
		config.WithRegion(s.Region),
		config.WithHTTPClient(httpClient(s)),
		config.WithAPIOptions(apiOptions),
		config.WithRetryer(retryer),
	}
	if s.Logger != nil {
		opts = append(opts, config.WithLogger(s.Logger))
	}
	if s.Profile != "" {
		opts = append(opts, config.WithSharedConfigProfile(s.Profile))
	}
	if s.EndpointURL != "" {
		opts = append(opts, config.WithBaseEndpoint(s.EndpointURL))
	}
	if len(s.CABundle) > 0 {
		opts = append(opts, config.WithCustomCABundle(bytes.NewReader(s.CABundle)))
	}
	if s.AccessKeyID != "" && s.SecretAccessKey != "" {
		opts = append(opts, config.WithCredentialsProvider(credentials.NewStaticCredentialsProvider(s.AccessKeyID, s.SecretAccessKey, "")))
	}
	cfg, err := config.LoadDefaultConfig(ctx, opts...)
	if err != nil {
		return aws.Config{}, fmt.Errorf("load AWS config: %w", err)
	}
	cfg.HTTPClient = sdkhttp.Wrap(cfg.HTTPClient)
	return cfg, nil
}
