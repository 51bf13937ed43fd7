package sandbox_test

import (
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/cloudformation"
	"github.com/google/go-cmp/cmp"

	"github.com/realdrift/realdrift/internal/sandbox"
)

// TestListImports: ListImports answers the importing stacks by name, a
// page at a time; an export no stack imports is a ValidationError (as
// CloudFormation answers it, not an empty list).
func TestListImports(t *testing.T) {
	stack := func(name string, imports ...string) *sandbox.Stack {
		return &sandbox.Stack{Name: name, TemplateBody: `{"Resources":{}}`, Imports: imports}
	}
	w := &sandbox.World{DefaultAccount: mgmt, Accounts: []*sandbox.Account{{ID: mgmt, AccessKeys: []sandbox.AccessKey{{ID: mgmtKey, UserName: "alice"}}, Regions: []*sandbox.Region{{Name: "us-east-1", Stacks: []*sandbox.Stack{
		stack("Producer"), stack("A", "P-Url"), stack("B", "P-Url", "P-Arn"), stack("C", "P-Url"),
	}}}}}}
	_, url := startWorld(t, w, sandbox.Options{PageSize: 2})
	cfn := cloudformation.NewFromConfig(cfg(url, mgmtKey, "us-east-1"))
	c := ctx(t)
	var got []string
	in := &cloudformation.ListImportsInput{ExportName: aws.String("P-Url")}
	for pages := 0; ; pages++ {
		out, err := cfn.ListImports(c, in)
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, out.Imports...)
		if out.NextToken == nil || pages > 3 {
			break
		}
		in.NextToken = out.NextToken
	}
	if d := cmp.Diff(got, []string{"A", "B", "C"}); d != "" {
		t.Errorf("importers (-got +want):\n%s", d)
	}
	_, err := cfn.ListImports(c, &cloudformation.ListImportsInput{ExportName: aws.String("P-None")})
	if code(err) != "ValidationError" || !strings.Contains(err.Error(), "Export 'P-None' is not imported by any stack.") {
		t.Errorf("no importers: err = %v", err)
	}
}
