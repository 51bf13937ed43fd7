package conformance_test

import (
	"bytes"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/cloudformation"
	cfntypes "github.com/aws/aws-sdk-go-v2/service/cloudformation/types"
	"github.com/aws/aws-sdk-go-v2/service/route53"
	"github.com/google/go-cmp/cmp"

	"github.com/realdrift/realdrift/internal/sandbox"
	"github.com/realdrift/realdrift/internal/sandbox/awsmodel"
	"github.com/realdrift/realdrift/internal/sandbox/conformance"
)

const requiredFile = "testdata/required-output.json"

// requiredTable reads testdata/required-output.json once for the test
// binary (it never changes while the tests run).
var requiredTable = sync.OnceValues(func() (*conformance.RequiredTable, error) {
	b, err := os.ReadFile(requiredFile)
	if err != nil {
		return nil, err
	}
	return conformance.LoadRequired(b)
})

// missingRequired lists the members AWS's model requires in op's output
// that out lacks (testdata/required-output.json, from botocore's models);
// an output the table does not know is a failure of its own.
func missingRequired(op string, out any) []string {
	tab, err := requiredTable()
	if err != nil {
		return []string{"(" + err.Error() + ")"}
	}
	_, name, _ := strings.Cut(op, ":")
	miss, err := tab.Missing(name, out)
	if err != nil {
		return []string{"(" + err.Error() + "; run go generate ./internal/sandbox/conformance)"}
	}
	return miss
}

// TestRequiredTableIsCurrent: the committed table is the one the
// installed botocore gives for the served operations. Without botocore
// the test skips, except in CI, where botocore is installed (moto's).
func TestRequiredTableIsCurrent(t *testing.T) {
	dir, version, err := awsmodel.Botocore()
	if err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatalf("CI has botocore installed: %v", err)
		}
		t.Skipf("no botocore to compare with: %v", err)
	}
	tab, err := conformance.BuildRequired(dir, version, sandbox.ServedOperations())
	if err != nil {
		t.Fatal(err)
	}
	want, err := conformance.MarshalRequired(tab)
	if err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile(requiredFile)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(string(got), string(want)); diff != "" {
		t.Errorf("%s is not current with botocore %s; run go generate ./internal/sandbox/conformance (-got +want):\n%s", requiredFile, version, diff)
	}
}

// TestInputTableIsCurrent: the input constraints the sandbox embeds are
// the ones the installed botocore gives for the served write operations.
func TestInputTableIsCurrent(t *testing.T) {
	dir, version, err := awsmodel.Botocore()
	if err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatalf("CI has botocore installed: %v", err)
		}
		t.Skipf("no botocore to compare with: %v", err)
	}
	cli, err := awsmodel.AWSCLI(conformance.AWSCLIs()...)
	if err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatalf("CI has the AWS CLI v2 installed: %v", err)
		}
		t.Skipf("no AWS CLI v2 to read the query models of: %v", err)
	}
	tab, err := conformance.InputTable(dir, version, cli.Data, cli.Version)
	if err != nil {
		t.Fatal(err)
	}
	want, err := tab.Marshal()
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(awsmodel.File(), want) {
		t.Errorf("internal/sandbox/awsmodel/inputs.json.gz is not current with botocore %s and %s's models; run go generate ./internal/sandbox/conformance (scripts/gen-required)", version, cli.Version)
	}
}

// TestMissingRequired: the check names what a model requires and an
// answer lacks, at any depth, and nothing for a complete answer.
func TestMissingRequired(t *testing.T) {
	for _, tc := range []struct {
		name, op string
		out      any
		want     []string
	}{
		{"complete", "cloudformation:DescribeStacks", &cloudformation.DescribeStacksOutput{Stacks: []cfntypes.Stack{{StackName: aws.String("s"), CreationTime: aws.Time(time.Unix(0, 0)), StackStatus: cfntypes.StackStatusCreateComplete}}}, nil},
		{"no stacks", "cloudformation:DescribeStacks", &cloudformation.DescribeStacksOutput{}, nil},
		{"stack lacks name and status", "cloudformation:DescribeStacks", &cloudformation.DescribeStacksOutput{Stacks: []cfntypes.Stack{{CreationTime: aws.Time(time.Unix(0, 0)), Tags: []cfntypes.Tag{{Value: aws.String("v")}}}}}, []string{"Stacks[].StackName", "Stacks[].StackStatus", "Stacks[].Tags[].Key"}},
		{"top level", "route53:GetChange", &route53.GetChangeOutput{}, []string{"ChangeInfo"}},
		{"not in the table", "cloudformation:CreateStack", &cloudformation.CreateStackOutput{}, []string{"(cloudformation CreateStack: not in the required-member table; run go generate ./internal/sandbox/conformance)"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if diff := cmp.Diff(missingRequired(tc.op, tc.out), tc.want); diff != "" {
				t.Errorf("(-got +want):\n%s", diff)
			}
		})
	}
}
