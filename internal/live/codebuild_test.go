package live_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/realdrift/realdrift/internal/drift"
	"github.com/realdrift/realdrift/internal/live"
	"github.com/realdrift/realdrift/internal/sandbox"
)

const (
	buildProject = `{"Name":"app-build","ServiceRole":"arn:aws:iam::111111111111:role/Build","TimeoutInMinutes":60,"QueuedTimeoutInMinutes":480,"EncryptionKey":"arn:aws:kms:us-east-1:111111111111:alias/aws/s3",` +
		`"Source":{"Type":"CODECOMMIT","Location":"https://git-codecommit.us-east-1.amazonaws.com/v1/repos/app","BuildSpec":"version: 0.2","GitCloneDepth":1,"InsecureSsl":false},` +
		`"Artifacts":{"Type":"NO_ARTIFACTS"},"Environment":{"Type":"LINUX_CONTAINER","ComputeType":"BUILD_GENERAL1_SMALL","Image":"aws/codebuild/standard:7.0","PrivilegedMode":false,"ImagePullCredentialsType":"CODEBUILD",` +
		`"EnvironmentVariables":[{"Name":"STAGE","Value":"prod","Type":"PLAINTEXT"}]},"Visibility":"PRIVATE","BadgeEnabled":false,"Cache":{"Type":"NO_CACHE"},` +
		`"LogsConfig":{"CloudWatchLogs":{"Status":"ENABLED","GroupName":"/build"}},"Tags":[{"Key":"team","Value":"ci"}]}`
	reportGroupArn = "arn:aws:codebuild:us-east-1:111111111111:report-group/app-tests"
	reportGroup    = `{"Name":"app-tests","Type":"TEST","ExportConfig":{"ExportConfigType":"S3","S3Destination":{"Bucket":"reports-1","Path":"tests","Packaging":"ZIP","EncryptionDisabled":false}},"Tags":[{"Key":"team","Value":"ci"}]}`
)

func codeBuildWorld() *sandbox.World {
	return worldOf(
		liveOnly("AWS::CodeBuild::Project", "app-build", buildProject),
		liveOnly("AWS::CodeBuild::ReportGroup", reportGroupArn, reportGroup),
	)
}

func TestCodeBuildRoundTrip(t *testing.T) {
	srv, url := serve(t, codeBuildWorld())
	c := live.NewClients(config(url))
	for _, tc := range []struct{ typ, id, model string }{
		{"AWS::CodeBuild::Project", "app-build", buildProject},
		{"AWS::CodeBuild::ReportGroup", reportGroupArn, reportGroup},
	} {
		declared := declaredOf(t, tc.model)
		if tc.typ == "AWS::CodeBuild::ReportGroup" {
			declared["DeleteReports"] = true // write-only: a readGap, never drift
		}
		req := live.Request{Type: tc.typ, LogicalID: "R", PhysicalID: tc.id, Declared: declared}
		got := live.Read(ctx(t), c, req)
		if got.Status != live.Found || got.Route != live.RouteOverride {
			t.Fatalf("%s: %+v", tc.typ, got)
		}
		if diff := cmp.Diff(got.Model, declaredOf(t, tc.model)); diff != "" {
			t.Errorf("%s model (-got +want):\n%s", tc.typ, diff)
		}
		if fs := classifyEntry(t, req, got.Model); len(fs) != 0 {
			t.Errorf("%s: clean read classified as %+v", tc.typ, fs)
		}
		if got := live.Read(ctx(t), c, live.Request{Type: tc.typ, PhysicalID: tc.id + "-gone"}); got.Status != live.NotFound {
			t.Errorf("%s gone: %+v, want notFound", tc.typ, got)
		}
	}

	// Out of band: the image and an environment variable change.
	req := live.Request{Type: "AWS::CodeBuild::Project", LogicalID: "Build", PhysicalID: "app-build", Declared: declaredOf(t, buildProject)}
	if err := srv.Apply(sandbox.Change{Op: sandbox.OpSet, Region: region, Type: req.Type, Identifier: "app-build", Path: "Environment.EnvironmentVariables.0.Value", Value: json.RawMessage(`"dev"`)}); err != nil {
		t.Fatal(err)
	}
	fs := classifyEntry(t, req, live.Read(ctx(t), c, req).Model)
	if len(fs) != 1 || fs[0].Tier != drift.Declared || !strings.HasPrefix(fs[0].Path, "Environment.EnvironmentVariables") {
		t.Errorf("out-of-band variable change: %+v, want one declared finding on the variables", fs)
	}
	if err := srv.SetFaults([]sandbox.FaultRule{{Service: "codebuild", Action: "BatchGetProjects", Code: "AccessDeniedException", Status: 400}}); err != nil {
		t.Fatal(err)
	}
	if got := live.Read(ctx(t), c, req); got.Status != live.Skipped || !strings.HasPrefix(got.Reason, "CodeBuild BatchGetProjects: AccessDeniedException") {
		t.Errorf("denied: %+v", got)
	}
}
