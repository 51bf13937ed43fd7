package live_test

import (
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/iam"
	iamtypes "github.com/aws/aws-sdk-go-v2/service/iam/types"
	"github.com/google/go-cmp/cmp"

	"github.com/realdrift/realdrift/internal/live"
)

// TestMotoAccessKey: access keys created in moto (CreateUser,
// CreateAccessKey, one deactivated with UpdateAccessKey) read back by the
// reader. The secret moto answers at creation is dropped at once: never
// kept, compared or printed.
func TestMotoAccessKey(t *testing.T) {
	cfg := motoConfig(t)
	cx := ctx(t)
	im := iam.NewFromConfig(cfg)
	if _, err := im.CreateUser(cx, &iam.CreateUserInput{UserName: aws.String("moto-deployer")}); err != nil {
		t.Fatal(err)
	}
	var ids []string
	for range 2 {
		out, err := im.CreateAccessKey(cx, &iam.CreateAccessKeyInput{UserName: aws.String("moto-deployer")})
		if err != nil {
			t.Fatal(err)
		}
		ids = append(ids, aws.ToString(out.AccessKey.AccessKeyId))
		out.AccessKey.SecretAccessKey = nil
	}
	if _, err := im.UpdateAccessKey(cx, &iam.UpdateAccessKeyInput{UserName: aws.String("moto-deployer"), AccessKeyId: &ids[1], Status: iamtypes.StatusTypeInactive}); err != nil {
		t.Fatal(err)
	}
	c := live.NewClients(cfg)
	for i, want := range []string{"Active", "Inactive"} {
		got := live.Read(cx, c, live.Request{Type: "AWS::IAM::AccessKey", PhysicalID: ids[i], Declared: map[string]any{"UserName": "moto-deployer"}})
		if got.Status != live.Found {
			t.Fatalf("read key %d: %+v", i, got)
		}
		if diff := cmp.Diff(got.Model, map[string]any{"UserName": "moto-deployer", "Status": want}); diff != "" {
			t.Errorf("key %d (-got +want):\n%s", i, diff)
		}
	}
	if got := live.Read(cx, c, live.Request{Type: "AWS::IAM::AccessKey", PhysicalID: ids[0], Declared: map[string]any{"UserName": "moto-nobody"}}); got.Status != live.NotFound {
		t.Errorf("missing user: %+v, want notFound (NoSuchEntity)", got)
	}
}
