package live

import (
	"context"
	"fmt"
	"reflect"
	"strings"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/ecs"
)

// AWS::ECS::Service: Cloud Control reads a service without its Service
// Connect configuration and its volume configurations (write-only to it);
// DescribeServices answers both on the service's PRIMARY deployment, in
// the template's shape under the SDK's field names. A service with no
// primary deployment has neither (they are the deployment's).

var ecsServiceProps = []string{"ServiceConnectConfiguration", "VolumeConfigurations"}

// readECSServiceSupplement reads a service's primary deployment (physical
// id: the service ARN; the cluster is the model's Cluster, else the ARN's).
func readECSServiceSupplement(ctx context.Context, c *Clients, r Request, model map[string]any) (map[string]any, error) {
	if c.ECS == nil {
		return nil, skip("no ECS client")
	}
	arn := r.PhysicalID
	cluster, _ := model["Cluster"].(string)
	if cluster == "" {
		cluster = serviceARNCluster(arn)
	}
	in := &ecs.DescribeServicesInput{Services: []string{arn}}
	if cluster != "" {
		in.Cluster = &cluster
	}
	out, err := c.ECS.DescribeServices(ctx, in)
	if err != nil {
		return nil, err
	}
	for _, s := range out.Services {
		if aws.ToString(s.ServiceArn) != arn && aws.ToString(s.ServiceName) != arn {
			continue
		}
		add := map[string]any{}
		for _, d := range s.Deployments {
			if aws.ToString(d.Status) != "PRIMARY" {
				continue
			}
			if d.ServiceConnectConfiguration != nil {
				add["ServiceConnectConfiguration"] = sdkModel(*d.ServiceConnectConfiguration)
			}
			if d.VolumeConfigurations != nil {
				add["VolumeConfigurations"] = sdkValue(reflect.ValueOf(d.VolumeConfigurations))
			}
		}
		return add, nil
	}
	return nil, fmt.Errorf("ECS service %s: %w", arn, ErrNotFound)
}

// serviceARNCluster is the cluster name of a long-format service ARN
// (arn:...:service/<cluster>/<name>), "" for the short format.
func serviceARNCluster(arn string) string {
	_, rest, ok := strings.Cut(arn, ":service/")
	if !ok {
		return ""
	}
	cluster, _, ok := strings.Cut(rest, "/")
	if !ok {
		return ""
	}
	return cluster
}
