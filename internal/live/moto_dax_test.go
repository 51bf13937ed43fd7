package live_test

import (
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dax"
	daxtypes "github.com/aws/aws-sdk-go-v2/service/dax/types"

	"github.com/realdrift/realdrift/internal/live"
)

// TestMotoDAXCluster: a cluster created in moto (CreateCluster with tags)
// read back by the reader. moto 5.2.1 serves no DAX subnet or parameter
// groups (DescribeSubnetGroups, DescribeParameterGroups): those readers are
// checked against the sandbox only.
func TestMotoDAXCluster(t *testing.T) {
	cfg := motoConfig(t)
	cx := ctx(t)
	dx := dax.NewFromConfig(cfg)
	_, err := dx.CreateCluster(cx, &dax.CreateClusterInput{ClusterName: aws.String("moto-dax"), NodeType: aws.String("dax.t3.small"), ReplicationFactor: 1,
		IamRoleArn: aws.String("arn:aws:iam::123456789012:role/dax"), Tags: []daxtypes.Tag{{Key: aws.String("team"), Value: aws.String("data")}},
		SSESpecification: &daxtypes.SSESpecification{Enabled: aws.Bool(true)}})
	if err != nil {
		t.Fatal(err)
	}
	c := live.NewClients(cfg)
	got := live.Read(cx, c, live.Request{Type: "AWS::DAX::Cluster", PhysicalID: "moto-dax"})
	if got.Status != live.Found {
		t.Fatalf("read: %+v", got)
	}
	m := got.Model
	if m["ClusterName"] != "moto-dax" || m["NodeType"] != "dax.t3.small" || m["IAMRoleARN"] != "arn:aws:iam::123456789012:role/dax" {
		t.Errorf("model %v", m)
	}
	if tags, _ := m["Tags"].(map[string]any); tags["team"] != "data" {
		t.Errorf("tags %v", m["Tags"])
	}
	if sse, _ := m["SSESpecification"].(map[string]any); sse["SSEEnabled"] != true {
		t.Errorf("SSESpecification %v", m["SSESpecification"])
	}
	if got := live.Read(cx, c, live.Request{Type: "AWS::DAX::Cluster", PhysicalID: "moto-nope"}); got.Status != live.NotFound {
		t.Errorf("missing cluster: %+v, want notFound", got)
	}
}
