package codedeploy

import "github.com/realdrift/realdrift/internal/sandbox/wire"

// Service serves CodeDeploy (JSON 1.1): an application's
// deployment groups, from the world's AWS::CodeDeploy::DeploymentGroup
// models (ApplicationName). An application exists when an
// AWS::CodeDeploy::Application model names it or a group is in it.
func Service() *wire.Service {
	return wire.JSON("codedeploy", "1.1", "CodeDeploy_20141006.", wire.Ops{
		"ListDeploymentGroups": wire.Read(cdListDeploymentGroups),
	})
}
