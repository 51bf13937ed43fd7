package service

import (
	"strings"
	"sync"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/credentials/stscreds"
	"github.com/aws/smithy-go/middleware"

	"github.com/realdrift/realdrift/internal/pace"
)

// accounts hands out the aws.Config of a member account: the central
// config with the account's read role assumed. Credentials are cached per
// account (and refreshed by the SDK before they expire).
type accounts struct {
	base aws.Config
	sts  stscreds.AssumeRoleAPIClient
	role string
	// pace, when set, paces every attempt of the configs' clients per
	// account and region (the sweep's shared read rate).
	pace *pace.Limiter

	mu    sync.Mutex
	creds map[string]aws.CredentialsProvider
}

func newAccounts(base aws.Config, sts stscreds.AssumeRoleAPIClient, role string) *accounts {
	return &accounts{base: base, sts: sts, role: role, creds: map[string]aws.CredentialsProvider{}}
}

// sessionName names realdrift's sessions in member accounts' CloudTrail, so
// the trigger (and people) can tell realdrift's reads apart.
const sessionName = "realdrift"

// config returns the aws.Config for account and region. Without a read role
// it is the central config in that region.
func (a *accounts) config(account, region string) aws.Config {
	cfg := a.base.Copy()
	cfg.Region = region
	cfg.APIOptions = append(append([]func(*middleware.Stack) error(nil), a.base.APIOptions...), pace.TrackThrottles)
	if a.pace != nil {
		cfg.APIOptions = append(cfg.APIOptions, a.pace.Middleware(account, region))
	}
	if a.role == "" {
		return cfg
	}
	a.mu.Lock()
	p, ok := a.creds[account]
	if !ok {
		arn := roleARN(partition(a.base.Region), account, a.role)
		p = aws.NewCredentialsCache(stscreds.NewAssumeRoleProvider(a.sts, arn, func(o *stscreds.AssumeRoleOptions) {
			o.RoleSessionName = sessionName
		}))
		a.creds[account] = p
	}
	a.mu.Unlock()
	cfg.Credentials = p
	return cfg
}

// roleARN is the ARN of role in account.
func roleARN(partition, account, role string) string {
	return "arn:" + partition + ":iam::" + account + ":role/" + role
}

// partition is the AWS partition of a region.
func partition(region string) string {
	switch {
	case strings.HasPrefix(region, "cn-"):
		return "aws-cn"
	case strings.HasPrefix(region, "us-gov-"):
		return "aws-us-gov"
	}
	return "aws"
}
