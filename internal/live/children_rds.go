package live

import (
	"context"
	"strings"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/rds"
	rdstypes "github.com/aws/aws-sdk-go-v2/service/rds/types"
)

// The RDS family's children: the out-of-band member instances of a
// declared AWS::RDS::DBCluster, listed by DescribeDBInstances with the
// db-cluster-id filter (paged by Marker).

type rdsAPI interface {
	rds.DescribeDBInstancesAPIClient
}

var _ rdsAPI = (*rds.Client)(nil)

// autoScaledInstancePrefix starts the identifier of every replica Aurora
// auto scaling (an Application Auto Scaling policy on the cluster's
// rds:cluster:ReadReplicaCount) adds and removes by itself: AWS-made, so
// never an added resource — the policy that makes them is what a stack
// declares.
const autoScaledInstancePrefix = "application-autoscaling-"

// clusterInstances lists the member instances of a declared cluster
// (physical id: its identifier) the stack does not declare (physical id
// and Cloud Control identifier: DBInstanceIdentifier, compared without
// regard to case as RDS does), each read in full through Cloud Control.
// Auto-scaled replicas are AWS-made and instances being deleted are gone;
// both are left out. A cluster that is gone has no members listed.
func clusterInstances(ctx context.Context, c *Clients, parent StackResource, stack []StackResource) ([]candidate, error) {
	if c.RDS == nil {
		return nil, skip("no RDS client")
	}
	declared := map[string]bool{}
	for id := range declaredIDs(stack, "AWS::RDS::DBInstance") {
		declared[strings.ToLower(id)] = true
	}
	in := &rds.DescribeDBInstancesInput{Filters: []rdstypes.Filter{{Name: aws.String("db-cluster-id"), Values: []string{parent.PhysicalID}}}}
	var out []candidate
	p := rds.NewDescribeDBInstancesPaginator(c.RDS, in)
	for p.HasMorePages() {
		page, err := p.NextPage(ctx)
		if isNotFound(err) {
			return nil, nil
		}
		if err != nil {
			return nil, err
		}
		for _, db := range page.DBInstances {
			id := aws.ToString(db.DBInstanceIdentifier)
			if id == "" || declared[strings.ToLower(id)] || strings.HasPrefix(id, autoScaledInstancePrefix) || aws.ToString(db.DBInstanceStatus) == "deleting" {
				continue
			}
			out = append(out, candidate{typ: "AWS::RDS::DBInstance", id: id})
		}
	}
	return out, nil
}
