package live

import (
	"context"
	"fmt"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/memorydb"
)

// The MemoryDB family, as supplements of Cloud Control reads.
//
// AWS::MemoryDB::User: AccessString is write-only to Cloud Control;
// DescribeUsers by the user name answers it.
//
// AWS::MemoryDB::ParameterGroup: Parameters (the template's name → value
// map) is write-only to Cloud Control; DescribeParameters (every page)
// answers every parameter of the group, the family's defaults included,
// so only the parameters the template declares are read: their live
// values, compared, and one the group no longer has left out (drift).

type memoryDBAPI interface {
	memorydb.DescribeUsersAPIClient
	memorydb.DescribeParametersAPIClient
}

var _ memoryDBAPI = (*memorydb.Client)(nil)

var (
	memoryDBUserProps           = []string{"AccessString"}
	memoryDBParameterGroupProps = []string{"Parameters"}
)

// readMemoryDBUserSupplement reads a user's access string (physical id:
// the user name).
func readMemoryDBUserSupplement(ctx context.Context, c *Clients, r Request, _ map[string]any) (map[string]any, error) {
	if c.MemoryDB == nil {
		return nil, skip("no MemoryDB client")
	}
	name := r.PhysicalID
	p := memorydb.NewDescribeUsersPaginator(c.MemoryDB, &memorydb.DescribeUsersInput{UserName: &name})
	for p.HasMorePages() {
		page, err := p.NextPage(ctx)
		if err != nil {
			return nil, err
		}
		for _, u := range page.Users {
			if aws.ToString(u.Name) == name {
				out := map[string]any{}
				if u.AccessString != nil {
					out["AccessString"] = *u.AccessString
				}
				return out, nil
			}
		}
	}
	return nil, fmt.Errorf("MemoryDB user %s: %w", name, ErrNotFound)
}

// readMemoryDBParameterGroupSupplement reads the declared parameters of a
// group (physical id: the group name). With none declared there is
// nothing to compare and nothing is read.
func readMemoryDBParameterGroupSupplement(ctx context.Context, c *Clients, r Request, _ map[string]any) (map[string]any, error) {
	declared, _ := r.Declared["Parameters"].(map[string]any)
	if len(declared) == 0 {
		return nil, skip("no declared parameters")
	}
	if c.MemoryDB == nil {
		return nil, skip("no MemoryDB client")
	}
	name := r.PhysicalID
	params := map[string]any{}
	p := memorydb.NewDescribeParametersPaginator(c.MemoryDB, &memorydb.DescribeParametersInput{ParameterGroupName: &name})
	for p.HasMorePages() {
		page, err := p.NextPage(ctx)
		if err != nil {
			return nil, err
		}
		for _, prm := range page.Parameters {
			n := aws.ToString(prm.Name)
			if _, ok := declared[n]; ok && prm.Value != nil {
				params[n] = *prm.Value
			}
		}
	}
	return map[string]any{"Parameters": params}, nil
}
