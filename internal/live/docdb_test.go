package live_test

import (
	"strings"
	"testing"

	"github.com/realdrift/realdrift/internal/live"
	"github.com/realdrift/realdrift/internal/sandbox"
)

const (
	docDBCluster = `{"DBClusterIdentifier":"docs-cluster","BackupRetentionPeriod":3,"Port":27017,"EngineVersion":"5.0.0","MasterUsername":"docsadmin",` +
		`"PreferredBackupWindow":"03:10-03:40","PreferredMaintenanceWindow":"thu:04:03-thu:04:33","StorageEncrypted":true,"DeletionProtection":false,` +
		`"DBClusterParameterGroupName":"default.docdb5.0","DBSubnetGroupName":"docs-subnets","VpcSecurityGroupIds":["sg-0aaaaaaaaaaaaaaaa"],` +
		`"EnableCloudwatchLogsExports":["audit"],"Tags":[{"Key":"team","Value":"docs"}]}`
	docDBInstance = `{"DBInstanceIdentifier":"docs-instance-1","DBInstanceClass":"db.t3.medium","DBClusterIdentifier":"docs-cluster",` +
		`"AutoMinorVersionUpgrade":false,"PreferredMaintenanceWindow":"fri:03:49-fri:04:19","CACertificateIdentifier":"rds-ca-rsa2048-g1","EnablePerformanceInsights":false}`
)

// moto 5.2.1 has no DocumentDB (its RDS CreateDBCluster refuses engine
// docdb: "Engine 'docdb' is not supported"): the readers are checked
// against the sandbox and the AWS CLI check only.
func TestDocDBRoundTrip(t *testing.T) {
	cluster := strings.Replace(docDBCluster, `"MasterUsername"`, `"MasterUserPassword":"hunter2-never-read","MasterUsername"`, 1)
	srv, url := serve(t, worldOf(
		liveOnly("AWS::DocDB::DBCluster", "docs-cluster", cluster),
		liveOnly("AWS::DocDB::DBInstance", "docs-instance-1", docDBInstance),
	))
	c := live.NewClients(config(url))
	for _, tc := range []struct{ typ, id, model, path, value string }{
		{"AWS::DocDB::DBCluster", "docs-cluster", docDBCluster, "BackupRetentionPeriod", `7`},
		{"AWS::DocDB::DBInstance", "docs-instance-1", docDBInstance, "DBInstanceClass", `"db.r6g.large"`},
	} {
		declared := declaredOf(t, tc.model)
		if tc.typ == "AWS::DocDB::DBCluster" {
			declared["MasterUserPassword"] = "hunter2-never-read" // never read: a readGap, never drift
		}
		req := live.Request{Type: tc.typ, LogicalID: "R", PhysicalID: tc.id, Declared: declared}
		overrideRoundTrip(t, c, srv, region, req, tc.model, tc.id, tc.path, tc.value)
		if got := live.Read(ctx(t), c, live.Request{Type: tc.typ, PhysicalID: "gone"}); got.Status != live.NotFound {
			t.Errorf("%s gone: %+v, want notFound", tc.typ, got)
		}
	}
	// The identifier is matched without regard to case, as RDS does.
	if got := live.Read(ctx(t), c, live.Request{Type: "AWS::DocDB::DBCluster", PhysicalID: "Docs-Cluster"}); got.Status != live.Found {
		t.Errorf("mixed-case identifier: %+v, want found", got)
	}
	if err := srv.SetFaults([]sandbox.FaultRule{{Service: "rds", Action: "ListTagsForResource", Code: "AccessDenied", Status: 403}}); err != nil {
		t.Fatal(err)
	}
	if got := live.Read(ctx(t), c, live.Request{Type: "AWS::DocDB::DBCluster", PhysicalID: "docs-cluster"}); got.Status != live.Skipped || !strings.HasPrefix(got.Reason, "DocDB ListTagsForResource: AccessDenied") {
		t.Errorf("tags denied: %+v, want skipped", got)
	}
	if err := srv.SetFaults([]sandbox.FaultRule{{Service: "rds", Action: "DescribeDBInstances", Code: "Throttling", Status: 400}}); err != nil {
		t.Fatal(err)
	}
	if got := live.Read(ctx(t), c, live.Request{Type: "AWS::DocDB::DBInstance", PhysicalID: "docs-instance-1"}); got.Status != live.Skipped || !strings.HasPrefix(got.Reason, "DocDB DescribeDBInstances: Throttling") {
		t.Errorf("throttled: %+v, want skipped", got)
	}
}
