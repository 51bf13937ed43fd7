package live_test

import (
	"testing"

	"github.com/realdrift/realdrift/internal/live"
	"github.com/realdrift/realdrift/internal/sandbox"
)

// TestEnumerateClusterInstances: a cluster's out-of-band member instance
// is added; the declared writer (its physical id in another case), one a
// sibling stack owns, an Aurora auto-scaled replica and an instance of
// another cluster are not; DescribeDBInstances denied skips the cluster.
func TestEnumerateClusterInstances(t *testing.T) {
	inst := func(id, cluster string) *sandbox.Resource {
		return liveOnly("AWS::RDS::DBInstance", id, `{"DBInstanceIdentifier":"`+id+`","DBClusterIdentifier":"`+cluster+`","Engine":"aurora-postgresql","DBInstanceClass":"db.r6g.large"}`)
	}
	runFamily(t, familyCase{
		world: []*sandbox.Resource{
			liveOnly("AWS::RDS::DBCluster", "orders-db", `{"DBClusterIdentifier":"orders-db","Engine":"aurora-postgresql"}`),
			inst("orders-db-writer", "orders-db"),
			inst("orders-db-console-reader", "orders-db"),
			inst("application-autoscaling-8a3f1c2e-0b1d-4e5f-9a7b-123456789abc", "orders-db"),
			inst("billing-db-writer", "billing-db"),
		},
		sibling: []*sandbox.Resource{owned("Reporting", "AWS::RDS::DBInstance", "orders-db-reporting",
			`{"DBInstanceIdentifier":"orders-db-reporting","DBClusterIdentifier":"orders-db","Engine":"aurora-postgresql"}`)},
		parent: live.StackResource{LogicalID: "Cluster", Type: "AWS::RDS::DBCluster", PhysicalID: "orders-db"},
		stack: []live.StackResource{
			{LogicalID: "Cluster", Type: "AWS::RDS::DBCluster", PhysicalID: "orders-db"},
			{LogicalID: "Writer", Type: "AWS::RDS::DBInstance", PhysicalID: "Orders-DB-Writer"},
		},
		want: []string{"AWS::RDS::DBInstance orders-db-console-reader"},
		models: map[string]map[string]any{"orders-db-console-reader": {"DBInstanceIdentifier": "orders-db-console-reader", "DBClusterIdentifier": "orders-db",
			"Engine": "aurora-postgresql", "DBInstanceClass": "db.r6g.large"}},
		service: "rds", action: "DescribeDBInstances", denied: "RDS DescribeDBInstances: AccessDenied",
	})
}
