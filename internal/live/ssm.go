package live

import (
	"context"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/ssm"
)

// The Systems Manager family: the out-of-band targets and tasks of a
// declared AWS::SSM::MaintenanceWindow; a parameter's metadata is read by
// its supplement (supp_ssm.go).

type ssmAPI interface {
	ssm.DescribeMaintenanceWindowTargetsAPIClient
	ssm.DescribeMaintenanceWindowTasksAPIClient
	ssm.DescribeParametersAPIClient
}

var _ ssmAPI = (*ssm.Client)(nil)

// windowTargets lists the targets of a declared maintenance window
// (physical id: its window id) the stack does not declare (physical id:
// the target id); Cloud Control reads each by "<window id>|<target id>".
func windowTargets(ctx context.Context, c *Clients, parent StackResource, stack []StackResource) ([]candidate, error) {
	if c.SSM == nil {
		return nil, skip("no SSM client")
	}
	window := parent.PhysicalID
	p := ssm.NewDescribeMaintenanceWindowTargetsPaginator(c.SSM, &ssm.DescribeMaintenanceWindowTargetsInput{WindowId: &window})
	return pagedChildren(ctx, "AWS::SSM::MaintenanceWindowTarget", window, stack, p.HasMorePages,
		func(ctx context.Context) (*ssm.DescribeMaintenanceWindowTargetsOutput, error) { return p.NextPage(ctx) },
		func(page *ssm.DescribeMaintenanceWindowTargetsOutput) []string {
			ids := make([]string, len(page.Targets))
			for i, t := range page.Targets {
				ids[i] = aws.ToString(t.WindowTargetId)
			}
			return ids
		})
}

// windowTasks lists the tasks of a declared maintenance window the stack
// does not declare (physical id: the task id); Cloud Control reads each by
// "<window id>|<task id>".
func windowTasks(ctx context.Context, c *Clients, parent StackResource, stack []StackResource) ([]candidate, error) {
	if c.SSM == nil {
		return nil, skip("no SSM client")
	}
	window := parent.PhysicalID
	p := ssm.NewDescribeMaintenanceWindowTasksPaginator(c.SSM, &ssm.DescribeMaintenanceWindowTasksInput{WindowId: &window})
	return pagedChildren(ctx, "AWS::SSM::MaintenanceWindowTask", window, stack, p.HasMorePages,
		func(ctx context.Context) (*ssm.DescribeMaintenanceWindowTasksOutput, error) { return p.NextPage(ctx) },
		func(page *ssm.DescribeMaintenanceWindowTasksOutput) []string {
			ids := make([]string, len(page.Tasks))
			for i, t := range page.Tasks {
				ids[i] = aws.ToString(t.WindowTaskId)
			}
			return ids
		})
}
