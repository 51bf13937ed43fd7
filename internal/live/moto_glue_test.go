package live_test

import (
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/glue"
	"github.com/google/go-cmp/cmp"

	"github.com/realdrift/realdrift/internal/live"
)

// TestMotoGlueWorkflow: a workflow created in moto (CreateWorkflow with
// tags) read back by the reader. moto 5.2.1 serves no Glue classifiers
// (CreateClassifier, GetClassifier): that reader is checked against the
// sandbox only.
func TestMotoGlueWorkflow(t *testing.T) {
	cfg := motoConfig(t)
	cx := ctx(t)
	gl := glue.NewFromConfig(cfg)
	if _, err := gl.CreateWorkflow(cx, &glue.CreateWorkflowInput{Name: aws.String("moto-etl"), Description: aws.String("moto etl"),
		DefaultRunProperties: map[string]string{"env": "test"}, MaxConcurrentRuns: aws.Int32(2)}); err != nil {
		t.Fatal(err)
	}
	// moto 5.2.1 answered no tags for those given to CreateWorkflow: tag
	// the workflow by its ARN.
	if _, err := gl.TagResource(cx, &glue.TagResourceInput{ResourceArn: aws.String("arn:aws:glue:us-east-1:123456789012:workflow/moto-etl"), TagsToAdd: map[string]string{"team": "data"}}); err != nil {
		t.Fatal(err)
	}
	c := live.NewClients(cfg)
	got := live.Read(cx, c, live.Request{Type: "AWS::Glue::Workflow", PhysicalID: "moto-etl"})
	if got.Status != live.Found {
		t.Fatalf("read: %+v", got)
	}
	want := map[string]any{"Name": "moto-etl", "Description": "moto etl", "DefaultRunProperties": map[string]any{"env": "test"}, "MaxConcurrentRuns": 2.0, "Tags": map[string]any{"team": "data"}}
	if diff := cmp.Diff(got.Model, want); diff != "" {
		t.Errorf("model (-got +want):\n%s", diff)
	}
	if got := live.Read(cx, c, live.Request{Type: "AWS::Glue::Workflow", PhysicalID: "moto-nope"}); got.Status != live.NotFound {
		t.Errorf("missing workflow: %+v, want notFound", got)
	}
}
