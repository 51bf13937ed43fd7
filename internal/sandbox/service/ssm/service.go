package ssm

import "github.com/realdrift/realdrift/internal/sandbox/wire"

// Service serves Systems Manager (JSON 1.1): a maintenance window's
// targets and tasks, from the world's AWS::SSM::MaintenanceWindowTarget and
// AWS::SSM::MaintenanceWindowTask models (WindowId). A window exists when
// an AWS::SSM::MaintenanceWindow model names it or a target or task is in
// it; another is a DoesNotExistException. DescribeParameters answers a
// parameter's metadata from the AWS::SSM::Parameter models
// (ssm_parameters.go).
func Service() *wire.Service {
	return wire.JSON("ssm", "1.1", "AmazonSSM.", wire.Ops{
		"DescribeMaintenanceWindowTargets": ssmDescribeWindowTargets,
		"DescribeMaintenanceWindowTasks":   ssmDescribeWindowTasks,
		"DescribeParameters":               ssmDescribeParameters,
	})
}
