package live_test

import (
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/codebuild"
	cbtypes "github.com/aws/aws-sdk-go-v2/service/codebuild/types"
	"github.com/google/go-cmp/cmp"

	"github.com/realdrift/realdrift/internal/live"
)

// TestMotoCodeBuildProject: a project created in moto (CreateProject) read
// back by the reader. moto 5.2.1 serves no CodeBuild report groups
// (CreateReportGroup, BatchGetReportGroups): AWS::CodeBuild::ReportGroup is
// checked against the sandbox only (TestCodeBuildRoundTrip).
func TestMotoCodeBuildProject(t *testing.T) {
	cfg := motoConfig(t)
	cx := ctx(t)
	cb := codebuild.NewFromConfig(cfg)
	_, err := cb.CreateProject(cx, &codebuild.CreateProjectInput{
		Name:        aws.String("moto-build"),
		ServiceRole: aws.String("arn:aws:iam::123456789012:role/moto-build"),
		Source:      &cbtypes.ProjectSource{Type: cbtypes.SourceTypeS3, Location: aws.String("moto-src/source.zip"), Buildspec: aws.String("version: 0.2")},
		Artifacts:   &cbtypes.ProjectArtifacts{Type: cbtypes.ArtifactsTypeNoArtifacts},
		Environment: &cbtypes.ProjectEnvironment{Type: cbtypes.EnvironmentTypeLinuxContainer, ComputeType: cbtypes.ComputeTypeBuildGeneral1Small, Image: aws.String("aws/codebuild/standard:7.0"),
			EnvironmentVariables: []cbtypes.EnvironmentVariable{{Name: aws.String("STAGE"), Value: aws.String("prod"), Type: cbtypes.EnvironmentVariableTypePlaintext}}},
	})
	if err != nil {
		t.Fatal(err)
	}
	c := live.NewClients(cfg)
	got := live.Read(cx, c, live.Request{Type: "AWS::CodeBuild::Project", PhysicalID: "moto-build"})
	if got.Status != live.Found {
		t.Fatalf("read: %+v", got)
	}
	for k, want := range map[string]any{
		"Name":        "moto-build",
		"ServiceRole": "arn:aws:iam::123456789012:role/moto-build",
		"Artifacts":   map[string]any{"Type": "NO_ARTIFACTS"},
	} {
		if diff := cmp.Diff(got.Model[k], want); diff != "" {
			t.Errorf("%s (-got +want):\n%s", k, diff)
		}
	}
	src, _ := got.Model["Source"].(map[string]any)
	if src["Type"] != "S3" || src["Location"] != "moto-src/source.zip" || src["BuildSpec"] != "version: 0.2" {
		t.Errorf("Source %v", src)
	}
	env, _ := got.Model["Environment"].(map[string]any)
	if diff := cmp.Diff(env["EnvironmentVariables"], []any{map[string]any{"Name": "STAGE", "Value": "prod", "Type": "PLAINTEXT"}}); diff != "" || env["Image"] != "aws/codebuild/standard:7.0" {
		t.Errorf("Environment %v (-got +want):\n%s", env, diff)
	}
	if got := live.Read(cx, c, live.Request{Type: "AWS::CodeBuild::Project", PhysicalID: "moto-nope"}); got.Status != live.NotFound {
		t.Errorf("missing project: %+v, want notFound", got)
	}
}
