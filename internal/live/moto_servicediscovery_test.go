package live_test

import (
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/servicediscovery"
	sdtypes "github.com/aws/aws-sdk-go-v2/service/servicediscovery/types"

	"github.com/realdrift/realdrift/internal/live"
)

// TestMotoCloudMap: an HTTP namespace and a service created in moto
// (CreateHttpNamespace with tags, CreateService) read back by the readers.
func TestMotoCloudMap(t *testing.T) {
	cfg := motoConfig(t)
	cx := ctx(t)
	sd := servicediscovery.NewFromConfig(cfg)
	if _, err := sd.CreateHttpNamespace(cx, &servicediscovery.CreateHttpNamespaceInput{Name: aws.String("moto-app"), Description: aws.String("moto ns"),
		Tags: []sdtypes.Tag{{Key: aws.String("team"), Value: aws.String("web")}}}); err != nil {
		t.Fatal(err)
	}
	list, err := sd.ListNamespaces(cx, &servicediscovery.ListNamespacesInput{})
	if err != nil {
		t.Fatal(err)
	}
	nsID := ""
	for _, n := range list.Namespaces {
		if aws.ToString(n.Name) == "moto-app" {
			nsID = aws.ToString(n.Id)
		}
	}
	svc, err := sd.CreateService(cx, &servicediscovery.CreateServiceInput{Name: aws.String("moto-api"), NamespaceId: &nsID, Description: aws.String("moto svc"), Type: sdtypes.ServiceTypeOptionHttp})
	if err != nil {
		t.Fatal(err)
	}
	c := live.NewClients(cfg)
	got := live.Read(cx, c, live.Request{Type: "AWS::ServiceDiscovery::HttpNamespace", PhysicalID: nsID})
	if got.Status != live.Found {
		t.Fatalf("namespace: %+v", got)
	}
	if got.Model["Name"] != "moto-app" || got.Model["Description"] != "moto ns" || got.Model["Id"] != nsID {
		t.Errorf("namespace model %v", got.Model)
	}
	if tags, _ := got.Model["Tags"].([]any); len(tags) != 1 {
		t.Errorf("namespace tags %v, want the one put", got.Model["Tags"])
	}
	if _, ok := got.Model["Type"]; ok {
		t.Errorf("namespace model holds the API's Type: %v", got.Model)
	}
	id := aws.ToString(svc.Service.Id)
	got = live.Read(cx, c, live.Request{Type: "AWS::ServiceDiscovery::Service", PhysicalID: id})
	if got.Status != live.Found || got.Model["Name"] != "moto-api" || got.Model["NamespaceId"] != nsID || got.Model["Description"] != "moto svc" {
		t.Errorf("service: %+v", got)
	}
	if got := live.Read(cx, c, live.Request{Type: "AWS::ServiceDiscovery::Service", PhysicalID: "srv-doesnotexist00"}); got.Status != live.NotFound {
		t.Errorf("missing service: %+v, want notFound", got)
	}
}
