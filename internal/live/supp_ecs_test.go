package live_test

import (
	"testing"

	"github.com/realdrift/realdrift/internal/live"
)

const (
	ecsServiceARN  = "arn:aws:ecs:us-east-1:" + acct + ":service/app-cluster/api"
	ecsSupplDecl   = `{"Cluster":"app-cluster","ServiceName":"api","TaskDefinition":"arn:aws:ecs:us-east-1:` + acct + `:task-definition/api:3","DesiredCount":2,` + ecsSupplProps + `}`
	ecsSupplProps  = `"ServiceConnectConfiguration":{"Enabled":true,"Namespace":"app","Services":[{"PortName":"http","DiscoveryName":"api","ClientAliases":[{"Port":80,"DnsName":"api"}]}],"LogConfiguration":{"LogDriver":"awslogs","Options":{"awslogs-group":"/sc","awslogs-region":"us-east-1"}}},` + ecsSupplVolume
	ecsSupplVolume = `"VolumeConfigurations":[{"Name":"data","ManagedEBSVolume":{"RoleArn":"arn:aws:iam::` + acct + `:role/ebs","SizeInGiB":20,"VolumeType":"gp3","Encrypted":true}}]`
)

func TestECSServiceSupplement(t *testing.T) {
	svc := liveOnly("AWS::ECS::Service", ecsServiceARN, `{"ServiceArn":"`+ecsServiceARN+`","Name":"api",`+ecsSupplDecl[1:])
	svc.Identifier = ecsServiceARN + "|app-cluster"
	other := liveOnly("AWS::ECS::Service", "arn:aws:ecs:us-east-1:"+acct+":service/app-cluster/worker", `{"ServiceArn":"arn:aws:ecs:us-east-1:`+acct+`:service/app-cluster/worker","ServiceName":"worker","Cluster":"app-cluster","VolumeConfigurations":[]}`)
	srv, url := serve(t, worldOf(liveOnly("AWS::ECS::Cluster", "app-cluster", `{"ClusterName":"app-cluster"}`), svc, other))
	c := live.NewClients(config(url))
	declared := declaredOf(t, ecsSupplDecl)
	supplementRoundTrip(t, c, srv, supplementCase{
		req:  live.Request{Type: "AWS::ECS::Service", LogicalID: "Api", PhysicalID: ecsServiceARN, Declared: declared},
		want: map[string]any{"ServiceConnectConfiguration": declared["ServiceConnectConfiguration"], "VolumeConfigurations": declared["VolumeConfigurations"]},
		id:   svc.Identifier, path: "VolumeConfigurations", value: `[{"Name":"data","ManagedEBSVolume":{"RoleArn":"arn:aws:iam::` + acct + `:role/ebs","SizeInGiB":50,"VolumeType":"gp3","Encrypted":true}}]`,
		deny: "ecs:DescribeServices",
	})
}
