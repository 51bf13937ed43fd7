package live

import (
	"context"
	"fmt"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/ssm"
	ssmtypes "github.com/aws/aws-sdk-go-v2/service/ssm/types"
)

// AWS::SSM::Parameter: Cloud Control reads a parameter's name, type, value
// and data type, but Description, AllowedPattern and Tier are write-only
// to it; DescribeParameters (filtered by the name, Equals) answers them.
// Policies stay write-only: the API answers them as a list of policy
// objects with a status, not the template's JSON string.

var ssmParameterProps = []string{"Description", "AllowedPattern", "Tier"}

// readSSMParameterSupplement reads a parameter's metadata (physical id:
// the parameter name).
func readSSMParameterSupplement(ctx context.Context, c *Clients, r Request, _ map[string]any) (map[string]any, error) {
	if c.SSM == nil {
		return nil, skip("no SSM client")
	}
	name := r.PhysicalID
	p := ssm.NewDescribeParametersPaginator(c.SSM, &ssm.DescribeParametersInput{
		ParameterFilters: []ssmtypes.ParameterStringFilter{{Key: aws.String("Name"), Option: aws.String("Equals"), Values: []string{name}}},
	})
	for p.HasMorePages() {
		page, err := p.NextPage(ctx)
		if err != nil {
			return nil, err
		}
		for _, m := range page.Parameters {
			if aws.ToString(m.Name) != name {
				continue
			}
			out := map[string]any{}
			if v := aws.ToString(m.Description); v != "" {
				out["Description"] = v
			}
			if v := aws.ToString(m.AllowedPattern); v != "" {
				out["AllowedPattern"] = v
			}
			if m.Tier != "" {
				out["Tier"] = string(m.Tier)
			}
			return out, nil
		}
	}
	return nil, fmt.Errorf("parameter %s: %w", name, ErrNotFound)
}
