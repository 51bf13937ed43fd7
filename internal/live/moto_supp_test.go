package live_test

import (
	"archive/zip"
	"bytes"
	"encoding/json"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/ecs"
	ecstypes "github.com/aws/aws-sdk-go-v2/service/ecs/types"
	"github.com/aws/aws-sdk-go-v2/service/elasticache"
	"github.com/aws/aws-sdk-go-v2/service/iam"
	"github.com/aws/aws-sdk-go-v2/service/lambda"
	lambdatypes "github.com/aws/aws-sdk-go-v2/service/lambda/types"
	"github.com/aws/aws-sdk-go-v2/service/ssm"
	ssmtypes "github.com/aws/aws-sdk-go-v2/service/ssm/types"
	"github.com/google/go-cmp/cmp"

	"github.com/realdrift/realdrift/internal/live"
	"github.com/realdrift/realdrift/internal/sandbox"
)

// The supplements against moto: moto 5.2.1 has no Cloud Control, so the
// Cloud Control model comes from the sandbox (as AWS answers it, without
// the supplemented properties) and the supplement's own client calls moto,
// where the resource was created through the SDK.

// supplementedFromMoto reads req with Cloud Control from a sandbox world
// holding ccModel and the supplement's client set by use on moto.
func supplementedFromMoto(t *testing.T, req live.Request, ccModel string, use func(*live.Clients)) live.Result {
	t.Helper()
	_, url := serve(t, worldOf(liveOnly(req.Type, req.PhysicalID, ccModel)))
	c := live.NewClients(config(url))
	use(c)
	return live.Read(ctx(t), c, req)
}

func TestMotoSSMParameterSupplement(t *testing.T) {
	cfg := motoConfig(t)
	cx := ctx(t)
	sm := ssm.NewFromConfig(cfg)
	for _, in := range []*ssm.PutParameterInput{
		{Name: aws.String("/moto/flag"), Type: ssmtypes.ParameterTypeString, Value: aws.String("on"), Description: aws.String("moto flag"), AllowedPattern: aws.String("^(on|off)$"), Tier: ssmtypes.ParameterTierAdvanced},
		{Name: aws.String("/moto/flag-two"), Type: ssmtypes.ParameterTypeString, Value: aws.String("x"), Description: aws.String("not this one")},
	} {
		if _, err := sm.PutParameter(cx, in); err != nil {
			t.Fatal(err)
		}
	}
	use := func(c *live.Clients) { c.SSM = sm }
	got := supplementedFromMoto(t, live.Request{Type: "AWS::SSM::Parameter", PhysicalID: "/moto/flag"}, `{"Name":"/moto/flag","Type":"String","Value":"on","DataType":"text"}`, use)
	want := map[string]any{"Name": "/moto/flag", "Type": "String", "Value": "on", "DataType": "text", "Description": "moto flag", "AllowedPattern": "^(on|off)$", "Tier": "Advanced"}
	if diff := cmp.Diff(got.Model, want); diff != "" {
		t.Errorf("model (-got +want):\n%s", diff)
	}
	// A parameter Cloud Control reads but DescribeParameters does not
	// list: its metadata is unread, the rest still read.
	got = supplementedFromMoto(t, live.Request{Type: "AWS::SSM::Parameter", PhysicalID: "/moto/absent"}, `{"Name":"/moto/absent","Type":"String","Value":"v","Description":"stale"}`, use)
	if diff := cmp.Diff(got.Model, map[string]any{"Name": "/moto/absent", "Type": "String", "Value": "v"}); got.Status != live.Found || diff != "" {
		t.Errorf("unlisted parameter: %s (-got +want):\n%s", got.Status, diff)
	}
}

// TestMotoECSServiceSupplement: moto 5.2.1 answers DescribeServices with a
// PRIMARY deployment but keeps no Service Connect or volume configuration
// (CreateService ignores them): the supplement finds the service by its
// ARN and reads that it has neither, replacing what the Cloud Control
// model held.
func TestMotoECSServiceSupplement(t *testing.T) {
	cfg := motoConfig(t)
	cx := ctx(t)
	e := ecs.NewFromConfig(cfg)
	if _, err := e.CreateCluster(cx, &ecs.CreateClusterInput{ClusterName: aws.String("moto-cluster")}); err != nil {
		t.Fatal(err)
	}
	td, err := e.RegisterTaskDefinition(cx, &ecs.RegisterTaskDefinitionInput{Family: aws.String("moto-api"),
		ContainerDefinitions: []ecstypes.ContainerDefinition{{Name: aws.String("api"), Image: aws.String("nginx"), Memory: aws.Int32(128)}}})
	if err != nil {
		t.Fatal(err)
	}
	sv, err := e.CreateService(cx, &ecs.CreateServiceInput{Cluster: aws.String("moto-cluster"), ServiceName: aws.String("moto-api"), TaskDefinition: td.TaskDefinition.TaskDefinitionArn, DesiredCount: aws.Int32(1)})
	if err != nil {
		t.Fatal(err)
	}
	arn := aws.ToString(sv.Service.ServiceArn)
	req := live.Request{Type: "AWS::ECS::Service", PhysicalID: arn, Declared: map[string]any{"Cluster": "moto-cluster"}}
	_, url := serve(t, worldOf(&sandbox.Resource{Type: req.Type, PhysicalID: arn, Identifier: arn + "|moto-cluster",
		Properties: json.RawMessage(`{"ServiceArn":"` + arn + `","Cluster":"moto-cluster","DesiredCount":1,"VolumeConfigurations":[{"Name":"stale"}]}`)}))
	c := live.NewClients(config(url))
	c.ECS = e
	got := live.Read(cx, c, req)
	if diff := cmp.Diff(got.Model, map[string]any{"ServiceArn": arn, "Cluster": "moto-cluster", "DesiredCount": 1.0}); got.Status != live.Found || diff != "" {
		t.Errorf("%s (-got +want):\n%s", got.Status, diff)
	}
	// A service moto does not hold is a MISSING failure: unread.
	c2 := live.NewClients(config(url))
	c2.ECS = e
	if _, err := e.DeleteService(cx, &ecs.DeleteServiceInput{Cluster: aws.String("moto-cluster"), Service: &arn, Force: aws.Bool(true)}); err != nil {
		t.Fatal(err)
	}
	if got := live.Read(cx, c2, req); got.Status != live.Found || got.Model["VolumeConfigurations"] != nil {
		t.Errorf("deleted in moto: %+v, want the Cloud Control model without the supplemented properties", got)
	}
}

// TestMotoCacheSupplements: an ElastiCache user (CreateUser) and a
// replication group (CreateReplicationGroup) read by their supplements.
func TestMotoCacheSupplements(t *testing.T) {
	cfg := motoConfig(t)
	cx := ctx(t)
	ec := elasticache.NewFromConfig(cfg)
	if _, err := ec.CreateUser(cx, &elasticache.CreateUserInput{UserId: aws.String("moto-user"), UserName: aws.String("moto"), Engine: aws.String("redis"),
		AccessString: aws.String("on ~app:* +@read"), NoPasswordRequired: aws.Bool(true)}); err != nil {
		t.Fatal(err)
	}
	use := func(c *live.Clients) { c.ElastiCache = ec }
	got := supplementedFromMoto(t, live.Request{Type: "AWS::ElastiCache::User", PhysicalID: "moto-user"}, `{"UserId":"moto-user","UserName":"moto","Engine":"redis"}`, use)
	if diff := cmp.Diff(got.Model, map[string]any{"UserId": "moto-user", "UserName": "moto", "Engine": "redis", "AccessString": "on ~app:* +@read"}); diff != "" {
		t.Errorf("user (-got +want):\n%s", diff)
	}
	// moto 5.2.1 lists a replication group's member clusters
	// (moto-rg-001) but answers CacheClusterNotFound for them in
	// DescribeCacheClusters: the replication group supplement is checked
	// against the sandbox only, and here only that such a failure leaves
	// the member settings unread.
	if _, err := ec.CreateReplicationGroup(cx, &elasticache.CreateReplicationGroupInput{ReplicationGroupId: aws.String("moto-rg"), ReplicationGroupDescription: aws.String("moto"),
		Engine: aws.String("redis"), EngineVersion: aws.String("7.1"), CacheNodeType: aws.String("cache.t4g.micro"), NumCacheClusters: aws.Int32(1)}); err != nil {
		t.Fatal(err)
	}
	got = supplementedFromMoto(t, live.Request{Type: "AWS::ElastiCache::ReplicationGroup", PhysicalID: "moto-rg"}, `{"ReplicationGroupId":"moto-rg","Engine":"redis","EngineVersion":"stale"}`, use)
	if diff := cmp.Diff(got.Model, map[string]any{"ReplicationGroupId": "moto-rg", "Engine": "redis"}); got.Status != live.Found || diff != "" {
		t.Errorf("replication group: %s (-got +want):\n%s", got.Status, diff)
	}
}

// TestMotoLambdaFunctionSupplement: a function created in moto
// (CreateFunction with a zip) read by the supplement: its CodeSha256 is
// moto's hash of the zip.
func TestMotoLambdaFunctionSupplement(t *testing.T) {
	cfg := motoConfig(t)
	cx := ctx(t)
	role, err := iam.NewFromConfig(cfg).CreateRole(cx, &iam.CreateRoleInput{RoleName: aws.String("moto-fn"), AssumeRolePolicyDocument: aws.String(`{"Version":"2012-10-17","Statement":[{"Effect":"Allow","Principal":{"Service":"lambda.amazonaws.com"},"Action":"sts:AssumeRole"}]}`)})
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	w, _ := zw.Create("index.js")
	_, _ = w.Write([]byte("exports.handler = async () => 'ok';\n"))
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	lc := lambda.NewFromConfig(cfg)
	fn, err := lc.CreateFunction(cx, &lambda.CreateFunctionInput{FunctionName: aws.String("moto-fn"), Runtime: lambdatypes.RuntimeNodejs20x, Handler: aws.String("index.handler"),
		Role: role.Role.Arn, Code: &lambdatypes.FunctionCode{ZipFile: buf.Bytes()}})
	if err != nil {
		t.Fatal(err)
	}
	got := supplementedFromMoto(t, live.Request{Type: "AWS::Lambda::Function", PhysicalID: "moto-fn"}, `{"FunctionName":"moto-fn","Runtime":"nodejs20.x"}`, func(c *live.Clients) { c.Lambda = lc })
	if want := aws.ToString(fn.CodeSha256); got.Model["CodeSha256"] != want || want == "" {
		t.Errorf("CodeSha256 %v, want moto's %q", got.Model["CodeSha256"], want)
	}
}
