package live_test

import (
	"sort"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/applicationautoscaling"
	aastypes "github.com/aws/aws-sdk-go-v2/service/applicationautoscaling/types"
	"github.com/aws/aws-sdk-go-v2/service/ec2"
	"github.com/aws/aws-sdk-go-v2/service/glue"
	gluetypes "github.com/aws/aws-sdk-go-v2/service/glue/types"
	"github.com/aws/aws-sdk-go-v2/service/rds"
	"github.com/aws/aws-sdk-go-v2/service/route53"
	r53types "github.com/aws/aws-sdk-go-v2/service/route53/types"
	"github.com/google/go-cmp/cmp"

	"github.com/realdrift/realdrift/internal/live"
)

// The SDK-listed child enumerators against moto: each creates a parent and
// its children in moto through the SDK and enumerates the parent. moto has
// no Cloud Control, so a child without a listed model carries a reason
// instead; the ones below all carry their listed model.

// motoAdded enumerates parent in moto and returns the added children's
// identifiers, sorted.
func motoAdded(t *testing.T, c *live.Clients, parent live.StackResource, stack []live.StackResource) ([]string, []live.Child) {
	t.Helper()
	got, err := live.Enumerate(ctx(t), c, parent, stack)
	if err != nil {
		t.Fatalf("%s %s: %v", parent.Type, parent.PhysicalID, err)
	}
	var ids []string
	for _, ch := range got {
		ids = append(ids, ch.Identifier)
	}
	sort.Strings(ids)
	return ids, got
}

// TestMotoGlueDatabaseTables: a declared and an out-of-band table in a
// moto database; GetTables lists both, the out-of-band one is added with
// its projected model.
func TestMotoGlueDatabaseTables(t *testing.T) {
	cfg := motoConfig(t)
	cx := ctx(t)
	g := glue.NewFromConfig(cfg)
	if _, err := g.CreateDatabase(cx, &glue.CreateDatabaseInput{DatabaseInput: &gluetypes.DatabaseInput{Name: aws.String("moto_enum_db")}}); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"declared_t", "console_t"} {
		if _, err := g.CreateTable(cx, &glue.CreateTableInput{DatabaseName: aws.String("moto_enum_db"), TableInput: &gluetypes.TableInput{Name: aws.String(name),
			TableType: aws.String("EXTERNAL_TABLE")}}); err != nil {
			t.Fatal(err)
		}
	}
	parent := live.StackResource{LogicalID: "Db", Type: "AWS::Glue::Database", PhysicalID: "moto_enum_db"}
	ids, got := motoAdded(t, live.NewClients(cfg), parent, []live.StackResource{parent, {LogicalID: "T", Type: "AWS::Glue::Table", PhysicalID: "declared_t"}})
	if diff := cmp.Diff(ids, []string{"moto_enum_db|console_t"}); diff != "" {
		t.Fatalf("added (-got +want):\n%s", diff)
	}
	ti, _ := got[0].Model["TableInput"].(map[string]any)
	if got[0].Model["DatabaseName"] != "moto_enum_db" || ti["Name"] != "console_t" || ti["TableType"] != "EXTERNAL_TABLE" {
		t.Errorf("model %v", got[0].Model)
	}
}

// TestMotoClusterInstances: a moto Aurora cluster with a declared and an
// out-of-band member and an instance of another cluster; DescribeDBInstances
// with the db-cluster-id filter lists the members, the out-of-band one is
// added (its full read fails: moto has no Cloud Control).
func TestMotoClusterInstances(t *testing.T) {
	cfg := motoConfig(t)
	cx := ctx(t)
	r := rds.NewFromConfig(cfg)
	for _, cl := range []string{"moto-enum-cluster", "moto-other-cluster"} {
		if _, err := r.CreateDBCluster(cx, &rds.CreateDBClusterInput{DBClusterIdentifier: aws.String(cl), Engine: aws.String("aurora-postgresql"),
			MasterUsername: aws.String("admin"), MasterUserPassword: aws.String("password123")}); err != nil {
			t.Fatal(err)
		}
	}
	for id, cl := range map[string]string{"moto-enum-writer": "moto-enum-cluster", "moto-enum-console": "moto-enum-cluster", "moto-other-writer": "moto-other-cluster"} {
		if _, err := r.CreateDBInstance(cx, &rds.CreateDBInstanceInput{DBInstanceIdentifier: aws.String(id), DBClusterIdentifier: aws.String(cl),
			Engine: aws.String("aurora-postgresql"), DBInstanceClass: aws.String("db.r6g.large")}); err != nil {
			t.Fatal(err)
		}
	}
	parent := live.StackResource{LogicalID: "Cluster", Type: "AWS::RDS::DBCluster", PhysicalID: "moto-enum-cluster"}
	ids, _ := motoAdded(t, live.NewClients(cfg), parent, []live.StackResource{parent, {LogicalID: "W", Type: "AWS::RDS::DBInstance", PhysicalID: "moto-enum-writer"}})
	if diff := cmp.Diff(ids, []string{"moto-enum-console"}); diff != "" {
		t.Errorf("added (-got +want):\n%s", diff)
	}
}

// TestMotoTransitGatewayChildren: a moto transit gateway with an
// out-of-band VPC attachment and route table; the default route table
// moto (as AWS) creates with the gateway is not added.
func TestMotoTransitGatewayChildren(t *testing.T) {
	cfg := motoConfig(t)
	cx := ctx(t)
	e := ec2.NewFromConfig(cfg)
	tg, err := e.CreateTransitGateway(cx, &ec2.CreateTransitGatewayInput{})
	if err != nil {
		t.Fatal(err)
	}
	tgw := aws.ToString(tg.TransitGateway.TransitGatewayId)
	vpc, err := e.CreateVpc(cx, &ec2.CreateVpcInput{CidrBlock: aws.String("10.77.0.0/16")})
	if err != nil {
		t.Fatal(err)
	}
	sn, err := e.CreateSubnet(cx, &ec2.CreateSubnetInput{VpcId: vpc.Vpc.VpcId, CidrBlock: aws.String("10.77.1.0/24")})
	if err != nil {
		t.Fatal(err)
	}
	att, err := e.CreateTransitGatewayVpcAttachment(cx, &ec2.CreateTransitGatewayVpcAttachmentInput{TransitGatewayId: &tgw, VpcId: vpc.Vpc.VpcId, SubnetIds: []string{aws.ToString(sn.Subnet.SubnetId)}})
	if err != nil {
		t.Fatal(err)
	}
	rt, err := e.CreateTransitGatewayRouteTable(cx, &ec2.CreateTransitGatewayRouteTableInput{TransitGatewayId: &tgw})
	if err != nil {
		t.Fatal(err)
	}
	parent := live.StackResource{LogicalID: "Tgw", Type: "AWS::EC2::TransitGateway", PhysicalID: tgw}
	ids, _ := motoAdded(t, live.NewClients(cfg), parent, []live.StackResource{parent})
	want := []string{aws.ToString(att.TransitGatewayVpcAttachment.TransitGatewayAttachmentId), aws.ToString(rt.TransitGatewayRouteTable.TransitGatewayRouteTableId)}
	sort.Strings(want)
	if diff := cmp.Diff(ids, want); diff != "" {
		t.Errorf("added (-got +want):\n%s", diff)
	}
}

// TestMotoScalableTargetPolicies: a moto DynamoDB scalable target with a
// declared and an out-of-band scaling policy, and a policy on another
// dimension of the same table; DescribeScalingPolicies for the target's
// namespace, resource and dimension lists the first two, the out-of-band
// one is added under "<ARN>|<dimension>".
func TestMotoScalableTargetPolicies(t *testing.T) {
	cfg := motoConfig(t)
	cx := ctx(t)
	a := applicationautoscaling.NewFromConfig(cfg)
	const table = "table/moto-enum-sessions"
	dims := []aastypes.ScalableDimension{aastypes.ScalableDimensionDynamoDBTableReadCapacityUnits, aastypes.ScalableDimensionDynamoDBTableWriteCapacityUnits}
	for _, dim := range dims {
		if _, err := a.RegisterScalableTarget(cx, &applicationautoscaling.RegisterScalableTargetInput{ServiceNamespace: aastypes.ServiceNamespaceDynamodb,
			ResourceId: aws.String(table), ScalableDimension: dim, MinCapacity: aws.Int32(1), MaxCapacity: aws.Int32(10)}); err != nil {
			t.Fatal(err)
		}
	}
	arns := map[string]string{}
	for name, dim := range map[string]aastypes.ScalableDimension{"declared": dims[0], "console": dims[0], "writes": dims[1]} {
		out, err := a.PutScalingPolicy(cx, &applicationautoscaling.PutScalingPolicyInput{PolicyName: aws.String(name), ServiceNamespace: aastypes.ServiceNamespaceDynamodb,
			ResourceId: aws.String(table), ScalableDimension: dim, PolicyType: aastypes.PolicyTypeTargetTrackingScaling,
			TargetTrackingScalingPolicyConfiguration: &aastypes.TargetTrackingScalingPolicyConfiguration{TargetValue: aws.Float64(70),
				PredefinedMetricSpecification: &aastypes.PredefinedMetricSpecification{PredefinedMetricType: aastypes.MetricTypeDynamoDBReadCapacityUtilization}}})
		if err != nil {
			t.Fatal(err)
		}
		arns[name] = aws.ToString(out.PolicyARN)
	}
	parent := live.StackResource{LogicalID: "Target", Type: "AWS::ApplicationAutoScaling::ScalableTarget", PhysicalID: table + "|" + string(dims[0]) + "|dynamodb"}
	ids, _ := motoAdded(t, live.NewClients(cfg), parent, []live.StackResource{parent, {LogicalID: "P", Type: "AWS::ApplicationAutoScaling::ScalingPolicy", PhysicalID: arns["declared"]}})
	if diff := cmp.Diff(ids, []string{arns["console"] + "|" + string(dims[0])}); diff != "" {
		t.Errorf("added (-got +want):\n%s", diff)
	}
}

// TestMotoHostedZoneRecords: a moto zone (its apex NS and SOA made by
// CreateHostedZone) with a declared record, a record of a declared group,
// an ACM validation CNAME and one made out of band: only the last is
// added, with the RecordSet reader's model. (moto's DescribeStackResources
// ignores PhysicalResourceId, so a sibling stack's record is left to the
// sandbox test.)
func TestMotoHostedZoneRecords(t *testing.T) {
	cfg := motoConfig(t)
	cx := ctx(t)
	r53 := route53.NewFromConfig(cfg)
	zone, err := r53.CreateHostedZone(cx, &route53.CreateHostedZoneInput{Name: aws.String("moto-enum.example."), CallerReference: aws.String("realdrift-moto-enum")})
	if err != nil {
		t.Fatal(err)
	}
	zoneID := strings.TrimPrefix(aws.ToString(zone.HostedZone.Id), "/hostedzone/")
	rec := func(name string, typ r53types.RRType, ttl int64, vs ...string) r53types.Change {
		rrs := &r53types.ResourceRecordSet{Name: aws.String(name), Type: typ, TTL: aws.Int64(ttl)}
		for _, v := range vs {
			rrs.ResourceRecords = append(rrs.ResourceRecords, r53types.ResourceRecord{Value: aws.String(v)})
		}
		return r53types.Change{Action: r53types.ChangeActionCreate, ResourceRecordSet: rrs}
	}
	if _, err := r53.ChangeResourceRecordSets(cx, &route53.ChangeResourceRecordSetsInput{HostedZoneId: &zoneID, ChangeBatch: &r53types.ChangeBatch{Changes: []r53types.Change{
		rec("www.moto-enum.example.", r53types.RRTypeA, 300, "192.0.2.1"),
		rec("mx.moto-enum.example.", r53types.RRTypeMx, 3600, "10 mail.moto-enum.example."),
		rec("_0a1b2c3d4e5f60718293a4b5c6d7e8f9.www.moto-enum.example.", r53types.RRTypeCname, 300, "_f9e8d7c6b5a4f3e2d1c0b9a8f7e6d5c4.mhbtsbpdnt.acm-validations.aws."),
		rec("console.moto-enum.example.", r53types.RRTypeTxt, 600, `"made by hand"`),
	}}}); err != nil {
		t.Fatal(err)
	}
	parent := live.StackResource{LogicalID: "Zone", Type: "AWS::Route53::HostedZone", PhysicalID: zoneID, Declared: map[string]any{"Name": "moto-enum.example."}}
	stack := []live.StackResource{parent,
		{LogicalID: "Www", Type: "AWS::Route53::RecordSet", PhysicalID: "www.moto-enum.example",
			Declared: map[string]any{"HostedZoneId": zoneID, "Name": "www.moto-enum.example.", "Type": "A", "TTL": "300", "ResourceRecords": []any{"192.0.2.1"}}},
		{LogicalID: "Records", Type: "AWS::Route53::RecordSetGroup", PhysicalID: "App-Records-1MOTO",
			Declared: map[string]any{"HostedZoneName": "moto-enum.example.", "RecordSets": []any{map[string]any{"Name": "mx.moto-enum.example", "Type": "MX"}}}},
	}
	ids, got := motoAdded(t, live.NewClients(cfg), parent, stack)
	if diff := cmp.Diff(ids, []string{zoneID + "|console.moto-enum.example|TXT"}); diff != "" {
		t.Fatalf("added (-got +want):\n%s", diff)
	}
	want := map[string]any{"HostedZoneId": zoneID, "Name": "console.moto-enum.example", "Type": "TXT", "TTL": "600", "ResourceRecords": []any{`"made by hand"`}}
	if diff := cmp.Diff(got[0].Model, want); diff != "" {
		t.Errorf("model (-got +want):\n%s", diff)
	}
}
