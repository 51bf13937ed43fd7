package world_test

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/realdrift/realdrift/internal/sandbox/world"
)

// TestAttachmentView: each side of a managed-policy attachment reads the
// attachments the other side declared, after its own members; an
// unrelated model, and an attachment in another account, change nothing.
func TestAttachmentView(t *testing.T) {
	const acct, other = "111111111111", "222222222222"
	w, err := world.ParseWorld([]byte(`{"accounts": [
	  {"id": "` + acct + `", "regions": [{"name": "us-east-1", "resources": [
	    {"type": "AWS::IAM::Role", "physicalId": "app", "properties": {"RoleName": "app", "ManagedPolicyArns": ["arn:aws:iam::aws:policy/ReadOnlyAccess"]}},
	    {"type": "AWS::IAM::Role", "physicalId": "bare", "properties": {"RoleName": "bare"}},
	    {"type": "AWS::IAM::User", "physicalId": "ops", "properties": {"UserName": "ops", "ManagedPolicyArns": ["arn:aws:iam::` + acct + `:policy/b"]}},
	    {"type": "AWS::IAM::ManagedPolicy", "physicalId": "arn:aws:iam::` + acct + `:policy/a", "properties": {"PolicyArn": "arn:aws:iam::` + acct + `:policy/a", "Roles": ["app", "bare"]}},
	    {"type": "AWS::IAM::ManagedPolicy", "physicalId": "arn:aws:iam::` + acct + `:policy/b", "properties": {"PolicyArn": "arn:aws:iam::` + acct + `:policy/b", "Users": []}},
	    {"type": "AWS::SQS::Queue", "physicalId": "q", "properties": {"QueueName": "q"}}
	  ]}]},
	  {"id": "` + other + `", "regions": [{"name": "us-east-1", "resources": [
	    {"type": "AWS::IAM::ManagedPolicy", "physicalId": "arn:aws:iam::` + other + `:policy/c", "properties": {"PolicyArn": "arn:aws:iam::` + other + `:policy/c", "Roles": ["app"]}}
	  ]}]}
	]}`))
	if err != nil {
		t.Fatal(err)
	}
	st := world.NewState(w)
	for _, tc := range []struct{ typ, id, want string }{
		{"AWS::IAM::Role", "app", `{"RoleName":"app","ManagedPolicyArns":["arn:aws:iam::aws:policy/ReadOnlyAccess","arn:aws:iam::` + acct + `:policy/a"]}`},
		{"AWS::IAM::Role", "bare", `{"RoleName":"bare","ManagedPolicyArns":["arn:aws:iam::` + acct + `:policy/a"]}`},
		{"AWS::IAM::User", "ops", `{"UserName":"ops","ManagedPolicyArns":["arn:aws:iam::` + acct + `:policy/b"]}`},
		{"AWS::IAM::ManagedPolicy", "arn:aws:iam::" + acct + ":policy/a", `{"PolicyArn":"arn:aws:iam::` + acct + `:policy/a","Roles":["app","bare"]}`},
		{"AWS::IAM::ManagedPolicy", "arn:aws:iam::" + acct + ":policy/b", `{"PolicyArn":"arn:aws:iam::` + acct + `:policy/b","Users":["ops"]}`},
		{"AWS::SQS::Queue", "q", `{"QueueName":"q"}`},
	} {
		res := st.Resource(acct, "us-east-1", tc.typ, tc.id)
		if res == nil {
			t.Fatalf("%s %s: not in the world", tc.typ, tc.id)
		}
		stored := string(res.Properties)
		if diff := cmp.Diff(string(world.AttachmentView(st, acct, res)), tc.want); diff != "" {
			t.Errorf("%s %s (-got +want):\n%s", tc.typ, tc.id, diff)
		}
		if string(res.Properties) != stored {
			t.Errorf("%s %s: the stored model changed to %s", tc.typ, tc.id, res.Properties)
		}
	}
}
