package live

import (
	"context"

	"github.com/aws/aws-sdk-go-v2/service/codedeploy"
)

// The CodeDeploy family: the out-of-band deployment groups of a declared
// AWS::CodeDeploy::Application.

type codeDeployAPI interface {
	codedeploy.ListDeploymentGroupsAPIClient
}

var _ codeDeployAPI = (*codedeploy.Client)(nil)

// appDeploymentGroups lists the deployment groups of a declared
// application (physical id: its name) the stack does not declare
// (physical id: the group name); Cloud Control reads each by
// "<application>|<group>".
func appDeploymentGroups(ctx context.Context, c *Clients, parent StackResource, stack []StackResource) ([]candidate, error) {
	if c.CodeDeploy == nil {
		return nil, skip("no CodeDeploy client")
	}
	app := parent.PhysicalID
	declared := declaredIDs(stack, "AWS::CodeDeploy::DeploymentGroup")
	var out []candidate
	p := codedeploy.NewListDeploymentGroupsPaginator(c.CodeDeploy, &codedeploy.ListDeploymentGroupsInput{ApplicationName: &app})
	for p.HasMorePages() {
		page, err := p.NextPage(ctx)
		if isNotFound(err) {
			return nil, nil // the application itself is reported deleted
		}
		if err != nil {
			return nil, err
		}
		for _, g := range page.DeploymentGroups {
			if !declared[g] {
				out = append(out, candidate{typ: "AWS::CodeDeploy::DeploymentGroup", id: app + "|" + g, physical: g})
			}
		}
	}
	return out, nil
}
