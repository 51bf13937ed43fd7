package live_test

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/realdrift/realdrift/internal/live"
	"github.com/realdrift/realdrift/internal/sandbox"
)

const keyID = "0b7c2f4e-1111-2222-3333-444455556666"

func TestEnumerateKeyAliases(t *testing.T) {
	alias := func(name, target string) *sandbox.Resource {
		return liveOnly("AWS::KMS::Alias", name, `{"AliasName":"`+name+`","TargetKeyId":"`+target+`"}`)
	}
	w := worldOf(
		liveOnly("AWS::KMS::Key", keyID, `{"KeyId":"`+keyID+`","Enabled":true}`),
		alias("alias/app", keyID),
		alias("alias/console-made", keyID),
		alias("alias/elsewhere", "9e9e9e9e-0000-0000-0000-000000000000"),
	)
	w.Accounts[0].Regions[0].KMSAliases = map[string]string{"alias/aws/s3": keyID}
	other := alias("alias/sibling", keyID)
	other.LogicalID = "SiblingAlias"
	w.Accounts[0].Regions[0].Stacks = []*sandbox.Stack{{Name: "Other", TemplateBody: `{"Resources":{}}`, Resources: []*sandbox.Resource{other}}}
	srv, url := serve(t, w)
	c := live.NewClients(config(url))
	parent := live.StackResource{LogicalID: "Key", Type: "AWS::KMS::Key", PhysicalID: keyID}
	stack := []live.StackResource{parent, {LogicalID: "Alias", Type: "AWS::KMS::Alias", PhysicalID: "alias/app"}}
	got, err := live.Enumerate(ctx(t), c, parent, stack)
	if err != nil {
		t.Fatal(err)
	}
	want := []live.Child{{Type: "AWS::KMS::Alias", Identifier: "alias/console-made", Model: map[string]any{"AliasName": "alias/console-made", "TargetKeyId": keyID}}}
	if diff := cmp.Diff(got, want); diff != "" {
		t.Errorf("children (-got +want):\n%s", diff)
	}
	if gone, err := live.Enumerate(ctx(t), c, live.StackResource{LogicalID: "Key", Type: "AWS::KMS::Key", PhysicalID: "deadbeef-0000-0000-0000-000000000000"}, nil); err != nil || gone != nil {
		t.Errorf("deleted key: %v, %v; want nothing", gone, err)
	}
	if err := srv.SetFaults([]sandbox.FaultRule{{Service: "kms", Action: "ListAliases", Code: "AccessDeniedException", Status: 400}}); err != nil {
		t.Fatal(err)
	}
	var ee *live.EnumerateError
	if _, err := live.Enumerate(ctx(t), c, parent, stack); !asEnumerateError(err, &ee) {
		t.Errorf("denied ListAliases: %v, want an EnumerateError", err)
	}
}
