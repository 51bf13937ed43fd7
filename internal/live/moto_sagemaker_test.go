package live_test

import (
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/sagemaker"
	smtypes "github.com/aws/aws-sdk-go-v2/service/sagemaker/types"

	"github.com/realdrift/realdrift/internal/live"
)

// TestMotoSageMakerEndpointConfig: an endpoint configuration created in
// moto through the SDK, read back by the reader. moto 5.2.1 has no
// monitoring schedules (CreateMonitoringSchedule): that reader is checked
// against the sandbox and the AWS CLI check only.
func TestMotoSageMakerEndpointConfig(t *testing.T) {
	cfg := motoConfig(t)
	cx := ctx(t)
	sm := sagemaker.NewFromConfig(cfg)
	if _, err := sm.CreateModel(cx, &sagemaker.CreateModelInput{ModelName: aws.String("moto-model"), ExecutionRoleArn: aws.String("arn:aws:iam::123456789012:role/sm"),
		PrimaryContainer: &smtypes.ContainerDefinition{Image: aws.String("123456789012.dkr.ecr.us-east-1.amazonaws.com/img:1")}}); err != nil {
		t.Fatal(err)
	}
	out, err := sm.CreateEndpointConfig(cx, &sagemaker.CreateEndpointConfigInput{EndpointConfigName: aws.String("moto-config"),
		ProductionVariants: []smtypes.ProductionVariant{{VariantName: aws.String("AllTraffic"), ModelName: aws.String("moto-model"), InitialInstanceCount: aws.Int32(1),
			InstanceType: smtypes.ProductionVariantInstanceTypeMlT2Medium, InitialVariantWeight: aws.Float32(1)}},
		Tags: []smtypes.Tag{{Key: aws.String("team"), Value: aws.String("ml")}}})
	if err != nil {
		t.Fatal(err)
	}
	c := live.NewClients(cfg)
	got := live.Read(cx, c, live.Request{Type: "AWS::SageMaker::EndpointConfig", PhysicalID: aws.ToString(out.EndpointConfigArn)})
	if got.Status != live.Found {
		t.Fatalf("read: %+v", got)
	}
	m := got.Model
	vs, _ := m["ProductionVariants"].([]any)
	if m["EndpointConfigName"] != "moto-config" || len(vs) != 1 {
		t.Fatalf("model %v", m)
	}
	if v, _ := vs[0].(map[string]any); v["VariantName"] != "AllTraffic" || v["ModelName"] != "moto-model" || v["InstanceType"] != "ml.t2.medium" {
		t.Errorf("variant %v", vs[0])
	}
	if tags, _ := m["Tags"].([]any); len(tags) != 1 {
		t.Errorf("tags %v", m["Tags"])
	}
	if _, ok := m["EndpointConfigArn"]; ok {
		t.Errorf("the ARN was kept: %v", m)
	}
	if got := live.Read(cx, c, live.Request{Type: "AWS::SageMaker::EndpointConfig", PhysicalID: "moto-nope"}); got.Status != live.NotFound {
		t.Errorf("missing config: %+v, want notFound", got)
	}
}
