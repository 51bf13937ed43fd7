package live

import (
	"context"
	"strings"

	"github.com/aws/aws-sdk-go-v2/service/ecs"
)

// The ECS family: the out-of-band services of a declared AWS::ECS::Cluster;
// a service's Service Connect and volume configurations are read by its
// supplement (supp_ecs.go).

type ecsAPI interface {
	ecs.ListServicesAPIClient
	ecs.DescribeServicesAPIClient
}

var _ ecsAPI = (*ecs.Client)(nil)

// clusterServices lists the services of a declared cluster (physical id:
// its name) that the stack does not declare (an AWS::ECS::Service's
// physical id is its ARN). Each is read in full through Cloud Control by
// "<service ARN>|<cluster name>".
func clusterServices(ctx context.Context, c *Clients, parent StackResource, stack []StackResource) ([]candidate, error) {
	if c.ECS == nil {
		return nil, skip("no ECS client")
	}
	cluster := parent.PhysicalID
	if i := strings.LastIndex(cluster, ":cluster/"); i >= 0 {
		cluster = cluster[i+len(":cluster/"):]
	}
	declared := declaredIDs(stack, "AWS::ECS::Service")
	var out []candidate
	p := ecs.NewListServicesPaginator(c.ECS, &ecs.ListServicesInput{Cluster: &cluster})
	for p.HasMorePages() {
		page, err := p.NextPage(ctx)
		if isNotFound(err) {
			return nil, nil // the cluster itself is reported deleted
		}
		if err != nil {
			return nil, err
		}
		for _, arn := range page.ServiceArns {
			if declared[arn] {
				continue
			}
			out = append(out, candidate{typ: "AWS::ECS::Service", id: arn + "|" + cluster, physical: arn})
		}
	}
	return out, nil
}
