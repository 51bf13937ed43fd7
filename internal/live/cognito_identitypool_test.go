package live_test

import (
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/cognitoidentity"
	"github.com/google/go-cmp/cmp"

	"github.com/realdrift/realdrift/internal/live"
	"github.com/realdrift/realdrift/internal/sandbox"
)

const (
	identityPoolID = "us-east-1:0a1b2c3d-0000-4000-8000-000000000001"
	identityPool   = `{"IdentityPoolName":"app_users","AllowUnauthenticatedIdentities":false,"AllowClassicFlow":false,` +
		`"SupportedLoginProviders":{"accounts.google.com":"client-1"},"OpenIdConnectProviderARNs":[],"SamlProviderARNs":[],` +
		`"CognitoIdentityProviders":[{"ProviderName":"cognito-idp.us-east-1.amazonaws.com/us-east-1_abc","ClientId":"client-2","ServerSideTokenCheck":true}],` +
		`"IdentityPoolTags":[{"Key":"team","Value":"auth"},{"Key":"app","Value":"web"}],"Id":"` + identityPoolID + `","Name":"app_users"}`
)

// moto 5.2.1 serves Cognito Identity pools: see TestMotoIdentityPool.
func TestIdentityPoolRoundTrip(t *testing.T) {
	srv, url := serve(t, worldOf(liveOnly("AWS::Cognito::IdentityPool", identityPoolID, identityPool)))
	c := live.NewClients(config(url))
	declared := declaredOf(t, identityPool)
	delete(declared, "Id")
	delete(declared, "Name")
	declared["PushSync"] = map[string]any{"ApplicationArns": []any{"arn:aws:sns:us-east-1:111111111111:app/GCM/x"}} // Cognito Sync: a readGap
	req := live.Request{Type: "AWS::Cognito::IdentityPool", LogicalID: "Pool", PhysicalID: identityPoolID, Declared: declared}
	overrideRoundTrip(t, c, srv, region, req, identityPool, identityPoolID, "AllowUnauthenticatedIdentities", `true`)
	if got := live.Read(ctx(t), c, live.Request{Type: req.Type, PhysicalID: "us-east-1:0a1b2c3d-0000-4000-8000-00000000ffff"}); got.Status != live.NotFound {
		t.Errorf("missing pool: %+v, want notFound", got)
	}
	if err := srv.SetFaults([]sandbox.FaultRule{{Service: "cognito-identity", Action: "DescribeIdentityPool", Code: "NotAuthorizedException", Status: 400}}); err != nil {
		t.Fatal(err)
	}
	if got := live.Read(ctx(t), c, req); got.Status != live.Skipped || !strings.HasPrefix(got.Reason, "Cognito Identity DescribeIdentityPool: NotAuthorizedException") {
		t.Errorf("denied: %+v, want skipped", got)
	}
}

// TestMotoIdentityPool: an identity pool created in moto through the SDK,
// read back by the reader.
func TestMotoIdentityPool(t *testing.T) {
	cfg := motoConfig(t)
	cx := ctx(t)
	ci := cognitoidentity.NewFromConfig(cfg)
	out, err := ci.CreateIdentityPool(cx, &cognitoidentity.CreateIdentityPoolInput{IdentityPoolName: aws.String("moto_pool"), AllowUnauthenticatedIdentities: false,
		SupportedLoginProviders: map[string]string{"accounts.google.com": "client-1"}, IdentityPoolTags: map[string]string{"team": "auth"}})
	if err != nil {
		t.Fatal(err)
	}
	c := live.NewClients(cfg)
	id := aws.ToString(out.IdentityPoolId)
	got := live.Read(cx, c, live.Request{Type: "AWS::Cognito::IdentityPool", PhysicalID: id})
	if got.Status != live.Found {
		t.Fatalf("read: %+v", got)
	}
	m := got.Model
	if m["IdentityPoolName"] != "moto_pool" || m["AllowUnauthenticatedIdentities"] != false || m["Id"] != id {
		t.Errorf("model %v", m)
	}
	if diff := cmp.Diff(m["SupportedLoginProviders"], map[string]any{"accounts.google.com": "client-1"}); diff != "" {
		t.Errorf("login providers (-got +want):\n%s", diff)
	}
	if diff := cmp.Diff(m["IdentityPoolTags"], []any{map[string]any{"Key": "team", "Value": "auth"}}); diff != "" {
		t.Errorf("tags (-got +want):\n%s", diff)
	}
	if got := live.Read(cx, c, live.Request{Type: "AWS::Cognito::IdentityPool", PhysicalID: "us-east-1:00000000-0000-4000-8000-000000000000"}); got.Status != live.NotFound {
		t.Errorf("missing pool: %+v, want notFound", got)
	}
}
