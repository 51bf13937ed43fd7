package ecs

import "github.com/realdrift/realdrift/internal/sandbox/wire"

// Service serves ECS (JSON 1.1): the services of a cluster, from the
// world's AWS::ECS::Service models (Cluster: a name or ARN). A cluster
// exists when an AWS::ECS::Cluster model names it or a service is in it.
// DescribeServices answers a service with its primary deployment
// (ecs_services.go).
func Service() *wire.Service {
	return wire.JSON("ecs", "1.1", "AmazonEC2ContainerServiceV20141113.", wire.Ops{
		"ListServices":     ecsListServices,
		"DescribeServices": wire.Read(ecsDescribeServices),
	})
}
