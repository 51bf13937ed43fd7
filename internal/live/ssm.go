package live

import (
	"context"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/ssm"
)

// The Systems Manager family: the out-of-band targets and tasks of a
// declared AWS::SSM::MaintenanceWindow.

type ssmAPI interface {
	ssm.DescribeMaintenanceWindowTargetsAPIClient
	ssm.DescribeMaintenanceWindowTasksAPIClient
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
	declared := declaredIDs(stack, "AWS::SSM::MaintenanceWindowTarget")
	var out []candidate
	p := ssm.NewDescribeMaintenanceWindowTargetsPaginator(c.SSM, &ssm.DescribeMaintenanceWindowTargetsInput{WindowId: &window})
	for p.HasMorePages() {
		page, err := p.NextPage(ctx)
		if isNotFound(err) {
			return nil, nil // the window itself is reported deleted
		}
		if err != nil {
			return nil, err
		}
		for _, t := range page.Targets {
			id := aws.ToString(t.WindowTargetId)
			if !declared[id] {
				out = append(out, candidate{typ: "AWS::SSM::MaintenanceWindowTarget", id: window + "|" + id, physical: id})
			}
		}
	}
	return out, nil
}

// windowTasks lists the tasks of a declared maintenance window the stack
// does not declare (physical id: the task id); Cloud Control reads each by
// "<window id>|<task id>".
func windowTasks(ctx context.Context, c *Clients, parent StackResource, stack []StackResource) ([]candidate, error) {
	if c.SSM == nil {
		return nil, skip("no SSM client")
	}
	window := parent.PhysicalID
	declared := declaredIDs(stack, "AWS::SSM::MaintenanceWindowTask")
	var out []candidate
	p := ssm.NewDescribeMaintenanceWindowTasksPaginator(c.SSM, &ssm.DescribeMaintenanceWindowTasksInput{WindowId: &window})
	for p.HasMorePages() {
		page, err := p.NextPage(ctx)
		if isNotFound(err) {
			return nil, nil
		}
		if err != nil {
			return nil, err
		}
		for _, t := range page.Tasks {
			id := aws.ToString(t.WindowTaskId)
			if !declared[id] {
				out = append(out, candidate{typ: "AWS::SSM::MaintenanceWindowTask", id: window + "|" + id, physical: id})
			}
		}
	}
	return out, nil
}
