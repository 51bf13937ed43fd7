package scan_test

import (
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/lambda"
	"github.com/google/go-cmp/cmp"

	"github.com/realdrift/realdrift/internal/drift"
	"github.com/realdrift/realdrift/internal/sandbox"
	"github.com/realdrift/realdrift/internal/scan"
)

// TestOutOfBandLambdaChildren: `lambda add-permission` on a function whose
// stack declares no permission for that statement, and a version published
// out of band, are added children of the function; the stack's own
// permission and version are not.
func TestOutOfBandLambdaChildren(t *testing.T) {
	const fnArn = "arn:aws:lambda:us-east-1:111111111111:function:Oob-Fn-1"
	w := world(t, "Oob", []res{
		{logical: "Fn", typ: "AWS::Lambda::Function", physical: "Oob-Fn-1", props: map[string]any{"Runtime": "nodejs20.x"},
			live: map[string]any{"FunctionName": "Oob-Fn-1", "Arn": fnArn, "Runtime": "nodejs20.x"}},
		{logical: "Invoke", typ: "AWS::Lambda::Permission", physical: "Oob-Invoke-1",
			props: map[string]any{"FunctionName": getAtt("Fn", "Arn"), "Action": "lambda:InvokeFunction", "Principal": "sns.amazonaws.com"},
			live:  map[string]any{"FunctionName": fnArn, "Action": "lambda:InvokeFunction", "Principal": "sns.amazonaws.com"}},
		{logical: "V1", typ: "AWS::Lambda::Version", physical: fnArn + ":1", props: map[string]any{"FunctionName": ref("Fn")},
			live: map[string]any{"FunctionName": "Oob-Fn-1", "Version": "1", "FunctionArn": fnArn + ":1"}},
	}, []*sandbox.Resource{
		{Type: "AWS::Lambda::Version", PhysicalID: fnArn + ":2", Properties: mustJSON(t, map[string]any{"FunctionName": "Oob-Fn-1", "Version": "2", "FunctionArn": fnArn + ":2"})},
	})
	_, url := startSandbox(t, w)
	c := clients(t, url, "AKIATEST000000000001")
	check := func() []drift.Finding {
		t.Helper()
		res, err := scan.Check(testCtx(t), c, drift.StackRef{Account: acct, Region: region, Name: "Oob"}, scan.Options{})
		if err != nil {
			t.Fatal(err)
		}
		var added []drift.Finding
		for _, f := range res.Findings {
			if f.Tier == drift.Added {
				f.Note, f.Actual = "", nil
				added = append(added, f)
			}
		}
		return added
	}
	version := drift.Finding{Tier: drift.Added, LogicalID: "Fn/Version", ResourceType: "AWS::Lambda::Version", PhysicalID: fnArn + ":2"}
	if diff := cmp.Diff(check(), []drift.Finding{version}); diff != "" {
		t.Errorf("before add-permission (-got +want):\n%s", diff)
	}
	cfg, err := scan.Config(testCtx(t), scan.Settings{Region: region, EndpointURL: url, AccessKeyID: "AKIATEST000000000001", SecretAccessKey: "secret"})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := lambda.NewFromConfig(cfg).AddPermission(testCtx(t), &lambda.AddPermissionInput{
		FunctionName: aws.String("Oob-Fn-1"), StatementId: aws.String("open-to-all"), Action: aws.String("lambda:InvokeFunction"), Principal: aws.String("*"),
	}); err != nil {
		t.Fatal(err)
	}
	perm := drift.Finding{Tier: drift.Added, LogicalID: "Fn/Permission", ResourceType: "AWS::Lambda::Permission", PhysicalID: "open-to-all"}
	if diff := cmp.Diff(check(), []drift.Finding{perm, version}); diff != "" {
		t.Errorf("after add-permission (-got +want):\n%s", diff)
	}
}
