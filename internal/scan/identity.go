package scan

import (
	"context"
	"fmt"

	"github.com/aws/aws-sdk-go-v2/service/sts"
)

// identityAPI answers who the clients call AWS as.
type identityAPI interface {
	GetCallerIdentity(ctx context.Context, in *sts.GetCallerIdentityInput, optFns ...func(*sts.Options)) (*sts.GetCallerIdentityOutput, error)
}

var _ identityAPI = (*sts.Client)(nil)

// CallerAccount returns the account the clients act in (STS
// GetCallerIdentity), for naming a stack that could not be loaded.
func CallerAccount(ctx context.Context, c *Clients) (string, error) {
	if c.Identity == nil {
		return "", fmt.Errorf("caller identity: no STS client")
	}
	out, err := c.Identity.GetCallerIdentity(ctx, &sts.GetCallerIdentityInput{})
	if err != nil {
		return "", fmt.Errorf("caller identity: %w", err)
	}
	return deref(out.Account), nil
}
