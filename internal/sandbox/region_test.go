package sandbox_test

import (
	"encoding/json"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/cloudformation"
	cfntypes "github.com/aws/aws-sdk-go-v2/service/cloudformation/types"
	"github.com/aws/aws-sdk-go-v2/service/kms"
	"github.com/aws/aws-sdk-go-v2/service/lambda"
	"github.com/google/go-cmp/cmp"

	"github.com/realdrift/realdrift/internal/sandbox"
	"github.com/realdrift/realdrift/internal/schema"
)

const (
	regionKey = "AKIAREGION0000000001"
	otherKey  = "AKIAREGION0000000002"
	verFn     = "arn:aws:lambda:us-east-1:111111111111:function:Ver-Fn"
)

// regionWorld: two accounts; the first has KMS aliases and its own schema
// facts for AWS::SQS::Queue in us-east-1, a function with two published
// versions; the second has neither.
func regionWorld() *sandbox.World {
	return &sandbox.World{
		Schemas: map[string]*schema.Facts{"AWS::SQS::Queue": {ReadOnly: []string{"Arn"}}},
		Accounts: []*sandbox.Account{
			{ID: mgmt, AccessKeys: []sandbox.AccessKey{{ID: regionKey}}, Regions: []*sandbox.Region{
				{
					Name:       "us-east-1",
					Schemas:    map[string]*schema.Facts{"AWS::SQS::Queue": {ReadOnly: []string{"Arn", "QueueUrl"}}},
					KMSAliases: map[string]string{"alias/aws/s3": "1111aaaa-0000-0000-0000-000000000001", "alias/aws/sqs": "1111aaaa-0000-0000-0000-000000000002", "alias/app": "1111aaaa-0000-0000-0000-000000000001"},
					Resources: []*sandbox.Resource{
						{Type: "AWS::Lambda::Function", Identifier: "Ver-Fn", Properties: json.RawMessage(`{"FunctionName":"Ver-Fn","Arn":"` + verFn + `","Description":"latest","Runtime":"nodejs20.x"}`)},
						{Type: "AWS::Lambda::Version", Identifier: verFn + ":1", Properties: json.RawMessage(`{"FunctionName":"Ver-Fn","Version":"1","FunctionArn":"` + verFn + `:1","Description":"one"}`)},
						{Type: "AWS::Lambda::Version", Identifier: verFn + ":2", Properties: json.RawMessage(`{"FunctionName":"` + verFn + `","FunctionArn":"` + verFn + `:2"}`)},
						{Type: "AWS::Lambda::Version", Identifier: "arn:aws:lambda:us-east-1:111111111111:function:Other:1", Properties: json.RawMessage(`{"FunctionName":"Other","Version":"1"}`)},
					},
				},
				{Name: "eu-west-1"},
			}},
			{ID: member, AccessKeys: []sandbox.AccessKey{{ID: otherKey}}, Regions: []*sandbox.Region{{Name: "us-east-1"}}},
		},
	}
}

func TestRegionSchemas(t *testing.T) {
	w := regionWorld()
	data, err := w.Marshal()
	if err != nil {
		t.Fatal(err)
	}
	loaded, err := sandbox.ParseWorld(data)
	if err != nil {
		t.Fatal(err)
	}
	_, u := startWorld(t, loaded, sandbox.Options{})
	tests := []struct {
		name, key, region string
		want              []string
	}{
		{"the region's own facts win", regionKey, "us-east-1", []string{"Arn", "QueueUrl"}},
		{"another region of the account has the world's", regionKey, "eu-west-1", []string{"Arn"}},
		{"another account has the world's", otherKey, "us-east-1", []string{"Arn"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cl := cloudformation.NewFromConfig(cfg(u, tt.key, tt.region))
			out, err := cl.DescribeType(ctx(t), &cloudformation.DescribeTypeInput{Type: cfntypes.RegistryTypeResource, TypeName: aws.String("AWS::SQS::Queue")})
			if err != nil {
				t.Fatal(err)
			}
			_, f, err := schema.ParseRegistry([]byte(aws.ToString(out.Schema)))
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(f.ReadOnly, tt.want); diff != "" {
				t.Errorf("read-only (-got +want):\n%s", diff)
			}
		})
	}
}

func TestRegionSchemasValidated(t *testing.T) {
	tests := []struct{ name, world string }{
		{"bad type", `{"accounts":[{"id":"111111111111","regions":[{"name":"us-east-1","schemas":{"Queue":{}}}]}]}`},
		{"null facts", `{"accounts":[{"id":"111111111111","regions":[{"name":"us-east-1","schemas":{"AWS::SQS::Queue":null}}]}]}`},
		{"bad alias", `{"accounts":[{"id":"111111111111","regions":[{"name":"us-east-1","kmsAliases":{"aws/s3":"k"}}]}]}`},
		{"alias without key", `{"accounts":[{"id":"111111111111","regions":[{"name":"us-east-1","kmsAliases":{"alias/aws/s3":""}}]}]}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if _, err := sandbox.ParseWorld([]byte(tt.world)); err == nil {
				t.Error("accepted")
			}
		})
	}
}

func TestKMSListAliases(t *testing.T) {
	_, u := startWorld(t, regionWorld(), sandbox.Options{})
	list := func(t *testing.T, key, region string, in *kms.ListAliasesInput) (names, targets []string) {
		t.Helper()
		p := kms.NewListAliasesPaginator(kms.NewFromConfig(cfg(u, key, region)), in)
		for p.HasMorePages() {
			page, err := p.NextPage(ctx(t))
			if err != nil {
				t.Fatal(err)
			}
			for _, a := range page.Aliases {
				names = append(names, aws.ToString(a.AliasName))
				targets = append(targets, aws.ToString(a.TargetKeyId))
				if want := "arn:aws:kms:" + region + ":" + mgmt + ":" + aws.ToString(a.AliasName); aws.ToString(a.AliasArn) != want {
					t.Errorf("AliasArn %s, want %s", aws.ToString(a.AliasArn), want)
				}
			}
		}
		return names, targets
	}
	tests := []struct {
		name, key, region string
		in                *kms.ListAliasesInput
		want              []string
	}{
		{"all, one page", regionKey, "us-east-1", &kms.ListAliasesInput{}, []string{"alias/app", "alias/aws/s3", "alias/aws/sqs"}},
		{"all, pages of one", regionKey, "us-east-1", &kms.ListAliasesInput{Limit: aws.Int32(1)}, []string{"alias/app", "alias/aws/s3", "alias/aws/sqs"}},
		{"by key ARN", regionKey, "us-east-1", &kms.ListAliasesInput{KeyId: aws.String("arn:aws:kms:us-east-1:111111111111:key/1111aaaa-0000-0000-0000-000000000001")}, []string{"alias/app", "alias/aws/s3"}},
		{"a region without aliases", regionKey, "eu-west-1", &kms.ListAliasesInput{}, nil},
		{"another account", otherKey, "us-east-1", &kms.ListAliasesInput{}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, _ := list(t, tt.key, tt.region, tt.in)
			if diff := cmp.Diff(got, tt.want); diff != "" {
				t.Errorf("aliases (-got +want):\n%s", diff)
			}
		})
	}
	_, targets := list(t, regionKey, "us-east-1", &kms.ListAliasesInput{KeyId: aws.String("1111aaaa-0000-0000-0000-000000000002")})
	if diff := cmp.Diff(targets, []string{"1111aaaa-0000-0000-0000-000000000002"}); diff != "" {
		t.Errorf("targets (-got +want):\n%s", diff)
	}
	_, err := kms.NewFromConfig(cfg(u, regionKey, "us-east-1")).ListAliases(ctx(t), &kms.ListAliasesInput{Marker: aws.String("bogus")})
	if code(err) != "InvalidMarkerException" {
		t.Errorf("bad marker: %v", err)
	}
}

func TestLambdaListVersionsByFunction(t *testing.T) {
	_, u := startWorld(t, regionWorld(), sandbox.Options{})
	cl := lambda.NewFromConfig(cfg(u, regionKey, "us-east-1"))
	type ver struct{ Version, Arn, Description string }
	for _, in := range []*lambda.ListVersionsByFunctionInput{
		{FunctionName: aws.String("Ver-Fn")},
		{FunctionName: aws.String(verFn), MaxItems: aws.Int32(1)},
	} {
		var got []ver
		p := lambda.NewListVersionsByFunctionPaginator(cl, in)
		for p.HasMorePages() {
			page, err := p.NextPage(ctx(t))
			if err != nil {
				t.Fatal(err)
			}
			for _, v := range page.Versions {
				got = append(got, ver{aws.ToString(v.Version), aws.ToString(v.FunctionArn), aws.ToString(v.Description)})
			}
		}
		want := []ver{{"$LATEST", verFn + ":$LATEST", "latest"}, {"1", verFn + ":1", "one"}, {"2", verFn + ":2", ""}}
		if diff := cmp.Diff(got, want); diff != "" {
			t.Errorf("versions (-got +want):\n%s", diff)
		}
	}
	if _, err := cl.ListVersionsByFunction(ctx(t), &lambda.ListVersionsByFunctionInput{FunctionName: aws.String("Nope")}); code(err) != "ResourceNotFoundException" {
		t.Errorf("missing function: %v", err)
	}
}
