package live_test

import (
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/ssm"
	ssmtypes "github.com/aws/aws-sdk-go-v2/service/ssm/types"
	"github.com/google/go-cmp/cmp"

	"github.com/realdrift/realdrift/internal/live"
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
