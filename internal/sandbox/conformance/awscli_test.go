package conformance_test

import (
	"os"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/realdrift/realdrift/internal/sandbox"
	"github.com/realdrift/realdrift/internal/sandbox/conformance"
)

// TestAWSCLIListIsCurrent: the committed list of AWS CLI commands the
// CLI check must run is the one the served-operation table gives.
func TestAWSCLIListIsCurrent(t *testing.T) {
	got, err := os.ReadFile("../../../scripts/sandbox-awscli-ops.txt")
	if err != nil {
		t.Fatal(err)
	}
	want := conformance.AWSCLIList(sandbox.ServedOperations())
	if diff := cmp.Diff(string(got), string(want)); diff != "" {
		t.Errorf("scripts/sandbox-awscli-ops.txt is not current; run go generate ./internal/sandbox/conformance (-got +want):\n%s", diff)
	}
}

func TestCLICommand(t *testing.T) {
	for _, tc := range []struct{ op, want string }{
		{"rds:DescribeDBClusters", "docdb describe-db-clusters"},
		{"elasticloadbalancing:GetTrustStoreCaCertificatesBundle", "elbv2 get-trust-store-ca-certificates-bundle"},
		{"ec2:DescribeNetworkAcls", "ec2 describe-network-acls"},
		{"lex:DescribeBotLocale", "lexv2-models describe-bot-locale"},
		{"sts:GetCallerIdentity", "sts get-caller-identity"},
		{"codedeploy:ListDeploymentGroups", "deploy list-deployment-groups"},
	} {
		svc, name, _ := strings.Cut(tc.op, ":")
		if got := conformance.CLICommand(sandbox.Operation{Service: svc, Name: name}); got != tc.want {
			t.Errorf("%s: got %q, want %q", tc.op, got, tc.want)
		}
	}
}
