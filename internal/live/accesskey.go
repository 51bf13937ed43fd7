package live

import (
	"context"
	"fmt"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/iam"
)

// AWS::IAM::AccessKey (Cloud Control cannot read it): the key's metadata
// from ListAccessKeys of the declared user, every page, matched on the
// access key id (the physical id). The model is {UserName, Status}; the
// secret is never asked for (no read API returns it, and the reader calls
// none that could), and Serial (a rotation counter only CloudFormation
// keeps) cannot be read: a readGap.

type accessKeysAPI interface {
	iam.ListAccessKeysAPIClient
}

var _ accessKeysAPI = (*iam.Client)(nil)

// readAccessKey reads AWS::IAM::AccessKey of the declared UserName.
func readAccessKey(ctx context.Context, c *Clients, r Request) (map[string]any, error) {
	user, err := declaredString(r.Declared, "UserName")
	if err != nil {
		return nil, err
	}
	if c.IAM == nil {
		return nil, skip("no IAM client")
	}
	p := iam.NewListAccessKeysPaginator(c.IAM, &iam.ListAccessKeysInput{UserName: &user})
	for p.HasMorePages() {
		page, err := p.NextPage(ctx)
		if err != nil {
			return nil, err
		}
		for _, k := range page.AccessKeyMetadata {
			if aws.ToString(k.AccessKeyId) == r.PhysicalID {
				return map[string]any{"UserName": aws.ToString(k.UserName), "Status": string(k.Status)}, nil
			}
		}
	}
	return nil, fmt.Errorf("access key %s of user %s: %w", r.PhysicalID, user, ErrNotFound)
}
