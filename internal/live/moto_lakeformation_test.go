package live_test

import (
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/lakeformation"

	"github.com/realdrift/realdrift/internal/live"
)

// TestMotoLakeFormationResource: a location registered in moto
// (RegisterResource with a role) read back by the reader.
func TestMotoLakeFormationResource(t *testing.T) {
	cfg := motoConfig(t)
	cx := ctx(t)
	lf := lakeformation.NewFromConfig(cfg)
	if _, err := lf.RegisterResource(cx, &lakeformation.RegisterResourceInput{ResourceArn: aws.String("arn:aws:s3:::moto-lake"), RoleArn: aws.String("arn:aws:iam::123456789012:role/lf")}); err != nil {
		t.Fatal(err)
	}
	c := live.NewClients(cfg)
	got := live.Read(cx, c, live.Request{Type: "AWS::LakeFormation::Resource", PhysicalID: "x", Declared: map[string]any{"ResourceArn": "arn:aws:s3:::moto-lake"}})
	if got.Status != live.Found || got.Model["ResourceArn"] != "arn:aws:s3:::moto-lake" || got.Model["RoleArn"] != "arn:aws:iam::123456789012:role/lf" {
		t.Fatalf("read: %+v", got)
	}
	if got := live.Read(cx, c, live.Request{Type: "AWS::LakeFormation::Resource", PhysicalID: "x", Declared: map[string]any{"ResourceArn": "arn:aws:s3:::moto-nope"}}); got.Status != live.NotFound {
		t.Errorf("unregistered: %+v, want notFound", got)
	}
}
