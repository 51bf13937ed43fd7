package scan

import (
	"context"
	"fmt"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/aws/ratelimit"
	"github.com/aws/aws-sdk-go-v2/aws/retry"
	"github.com/aws/aws-sdk-go-v2/config"
	"github.com/aws/aws-sdk-go-v2/credentials"
)

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
	// MaxAttempts bounds the retries of one call (default 10).
	MaxAttempts int
}

// Config loads one aws.Config for s with the SDK's adaptive retry mode:
// throttled calls are retried with client-side rate limiting, and the retry
// quota is lifted so a long throttled run is slowed, not failed.
func Config(ctx context.Context, s Settings) (aws.Config, error) {
	if s.Region == "" {
		return aws.Config{}, fmt.Errorf("no region: set --region or AWS_REGION")
	}
	attempts := s.MaxAttempts
	if attempts <= 0 {
		attempts = 10
	}
	opts := []func(*config.LoadOptions) error{
		config.WithRegion(s.Region),
		config.WithRetryer(func() aws.Retryer {
			return retry.NewAdaptiveMode(func(o *retry.AdaptiveModeOptions) {
				o.StandardOptions = append(o.StandardOptions, func(so *retry.StandardOptions) {
					so.MaxAttempts = attempts
					so.RateLimiter = ratelimit.None
				})
			})
		}),
	}
	if s.Profile != "" {
		opts = append(opts, config.WithSharedConfigProfile(s.Profile))
	}
	if s.EndpointURL != "" {
		opts = append(opts, config.WithBaseEndpoint(s.EndpointURL))
	}
	if s.AccessKeyID != "" && s.SecretAccessKey != "" {
		opts = append(opts, config.WithCredentialsProvider(credentials.NewStaticCredentialsProvider(s.AccessKeyID, s.SecretAccessKey, "")))
	}
	cfg, err := config.LoadDefaultConfig(ctx, opts...)
	if err != nil {
		return aws.Config{}, fmt.Errorf("load AWS config: %w", err)
	}
	return cfg, nil
}
