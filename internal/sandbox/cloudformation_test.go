package sandbox_test

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/cloudformation"
	cfntypes "github.com/aws/aws-sdk-go-v2/service/cloudformation/types"
	"github.com/google/go-cmp/cmp"

	"github.com/realdrift/realdrift/internal/sandbox"
)

func TestCloudFormation(t *testing.T) {
	_, url := start(t, "testdata/world.json", sandbox.Options{PageSize: 2})
	cfn := cloudformation.NewFromConfig(cfg(url, mgmtKey, "us-east-1"))
	c := ctx(t)

	t.Run("DescribeStacks", func(t *testing.T) {
		out, err := cfn.DescribeStacks(c, &cloudformation.DescribeStacksInput{StackName: aws.String("App")})
		if err != nil {
			t.Fatal(err)
		}
		if len(out.Stacks) != 1 {
			t.Fatalf("got %d stacks", len(out.Stacks))
		}
		s := out.Stacks[0]
		if got, want := aws.ToString(s.StackId), sandbox.StackID("us-east-1", mgmt, "App"); got != want {
			t.Errorf("StackId = %s, want %s", got, want)
		}
		if s.StackStatus != cfntypes.StackStatusCreateComplete {
			t.Errorf("status %s", s.StackStatus)
		}
		var params []string
		for _, p := range s.Parameters {
			params = append(params, aws.ToString(p.ParameterKey)+"="+aws.ToString(p.ParameterValue))
		}
		if diff := cmp.Diff(params, []string{"Stage=prod", "Secret=****"}); diff != "" {
			t.Errorf("parameters (-got +want):\n%s", diff)
		}
		if len(s.Outputs) != 1 || aws.ToString(s.Outputs[0].ExportName) != "App-QueueUrl" {
			t.Errorf("outputs %+v", s.Outputs)
		}
		if len(s.Tags) != 1 || aws.ToString(s.Tags[0].Value) != "core" {
			t.Errorf("tags %+v", s.Tags)
		}
		all, err := cfn.DescribeStacks(c, &cloudformation.DescribeStacksInput{})
		if err != nil || len(all.Stacks) != 1 {
			t.Errorf("all stacks: %v %v", all, err)
		}
	})

	t.Run("MissingStack", func(t *testing.T) {
		_, err := cfn.DescribeStacks(c, &cloudformation.DescribeStacksInput{StackName: aws.String("Nope")})
		if code(err) != "ValidationError" || !strings.Contains(err.Error(), "does not exist") {
			t.Errorf("err = %v", err)
		}
		_, err = cfn.DescribeStacks(c, &cloudformation.DescribeStacksInput{StackName: aws.String("Old")})
		if code(err) != "ValidationError" {
			t.Errorf("a deleted stack by name: err = %v", err)
		}
	})

	t.Run("ListStacks", func(t *testing.T) {
		out, err := cfn.ListStacks(c, &cloudformation.ListStacksInput{StackStatusFilter: []cfntypes.StackStatus{cfntypes.StackStatusDeleteComplete}})
		if err != nil {
			t.Fatal(err)
		}
		if len(out.StackSummaries) != 1 || aws.ToString(out.StackSummaries[0].StackName) != "Old" {
			t.Errorf("summaries %+v", out.StackSummaries)
		}
	})

	t.Run("GetTemplate", func(t *testing.T) {
		for _, stage := range []cfntypes.TemplateStage{cfntypes.TemplateStageOriginal, cfntypes.TemplateStageProcessed} {
			out, err := cfn.GetTemplate(c, &cloudformation.GetTemplateInput{StackName: aws.String("App"), TemplateStage: stage})
			if err != nil {
				t.Fatal(err)
			}
			var doc map[string]any
			if err := json.Unmarshal([]byte(aws.ToString(out.TemplateBody)), &doc); err != nil {
				t.Fatal(err)
			}
			_, processed := doc["Processed"]
			if processed != (stage == cfntypes.TemplateStageProcessed) {
				t.Errorf("stage %s returned the wrong body", stage)
			}
			if len(out.StagesAvailable) != 2 {
				t.Errorf("stages %v", out.StagesAvailable)
			}
		}
	})

	t.Run("ListStackResourcesPaginator", func(t *testing.T) {
		p := cloudformation.NewListStackResourcesPaginator(cfn, &cloudformation.ListStackResourcesInput{StackName: aws.String("App")})
		var got []string
		pages := 0
		for p.HasMorePages() && pages < 10 {
			out, err := p.NextPage(c)
			if err != nil {
				t.Fatal(err)
			}
			pages++
			for _, r := range out.StackResourceSummaries {
				got = append(got, aws.ToString(r.LogicalResourceId)+" "+aws.ToString(r.ResourceType))
			}
		}
		want := []string{"Queue AWS::SQS::Queue", "Queue2 AWS::SQS::Queue", "Queue3 AWS::SQS::Queue", "Role AWS::IAM::Role", "Hook Custom::Hook"}
		if diff := cmp.Diff(got, want); diff != "" {
			t.Errorf("resources (-got +want):\n%s", diff)
		}
		if pages != 3 {
			t.Errorf("pages = %d, want 3", pages)
		}
	})

	t.Run("DescribeStackResources", func(t *testing.T) {
		out, err := cfn.DescribeStackResources(c, &cloudformation.DescribeStackResourcesInput{PhysicalResourceId: aws.String("App-Role-XYZ")})
		if err != nil {
			t.Fatal(err)
		}
		if len(out.StackResources) != 5 || aws.ToString(out.StackResources[0].StackName) != "App" {
			t.Errorf("by physical id: %+v", out.StackResources)
		}
		out, err = cfn.DescribeStackResources(c, &cloudformation.DescribeStackResourcesInput{StackName: aws.String("App"), LogicalResourceId: aws.String("Role")})
		if err != nil || len(out.StackResources) != 1 || aws.ToString(out.StackResources[0].PhysicalResourceId) != "App-Role-XYZ" {
			t.Errorf("by logical id: %+v %v", out, err)
		}
	})

	t.Run("ListExports", func(t *testing.T) {
		out, err := cfn.ListExports(c, &cloudformation.ListExportsInput{})
		if err != nil {
			t.Fatal(err)
		}
		if len(out.Exports) != 1 || aws.ToString(out.Exports[0].Value) != queueURL {
			t.Errorf("exports %+v", out.Exports)
		}
	})

	t.Run("DescribeType", func(t *testing.T) {
		out, err := cfn.DescribeType(c, &cloudformation.DescribeTypeInput{Type: cfntypes.RegistryTypeResource, TypeName: aws.String(queueType)})
		if err != nil {
			t.Fatal(err)
		}
		var doc struct {
			TypeName          string
			ReadOnlyProps     []string       `json:"readOnlyProperties"`
			CreateOnlyProps   []string       `json:"createOnlyProperties"`
			PrimaryIdentifier []string       `json:"primaryIdentifier"`
			Handlers          map[string]any `json:"handlers"`
		}
		if err := json.Unmarshal([]byte(aws.ToString(out.Schema)), &doc); err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(doc.ReadOnlyProps, []string{"/properties/Arn", "/properties/QueueUrl"}); diff != "" {
			t.Errorf("readOnlyProperties (-got +want):\n%s", diff)
		}
		if diff := cmp.Diff(doc.PrimaryIdentifier, []string{"/properties/QueueUrl"}); diff != "" {
			t.Errorf("primaryIdentifier (-got +want):\n%s", diff)
		}
		if len(doc.Handlers) != 5 || doc.TypeName != queueType {
			t.Errorf("doc %+v", doc)
		}
		_, err = cfn.DescribeType(c, &cloudformation.DescribeTypeInput{Type: cfntypes.RegistryTypeResource, TypeName: aws.String("AWS::Nope::Nope")})
		var tnf *cfntypes.TypeNotFoundException
		if !errors.As(err, &tnf) {
			t.Errorf("unknown type: err = %v", err)
		}
	})

	t.Run("Waiter", func(t *testing.T) {
		w := cloudformation.NewStackCreateCompleteWaiter(cfn)
		if err := w.Wait(c, &cloudformation.DescribeStacksInput{StackName: aws.String("App")}, 10*time.Second); err != nil {
			t.Fatal(err)
		}
	})

	t.Run("OtherRegionIsEmpty", func(t *testing.T) {
		other := cloudformation.NewFromConfig(cfg(url, mgmtKey, "eu-west-1"))
		out, err := other.DescribeStacks(c, &cloudformation.DescribeStacksInput{})
		if err != nil || len(out.Stacks) != 0 {
			t.Errorf("eu-west-1 of the management account: %+v %v", out, err)
		}
	})
}
