package live_test

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/realdrift/realdrift/internal/live"
	"github.com/realdrift/realdrift/internal/sandbox"
)

const secretArn = "arn:aws:secretsmanager:us-east-1:111111111111:secret:db-AbCdEf"

func TestEnumerateSecretPolicy(t *testing.T) {
	w := worldOf(
		liveOnly("AWS::SecretsManager::Secret", secretArn, `{"Id":"`+secretArn+`","Name":"db"}`),
		liveOnly("AWS::SecretsManager::ResourcePolicy", secretArn, `{"SecretId":"`+secretArn+`","ResourcePolicy":`+doc+`}`),
		liveOnly("AWS::SecretsManager::Secret", "arn:aws:secretsmanager:us-east-1:111111111111:secret:bare-XyZ", `{"Id":"arn:aws:secretsmanager:us-east-1:111111111111:secret:bare-XyZ","Name":"bare"}`),
	)
	srv, url := serve(t, w)
	c := live.NewClients(config(url))
	var policy map[string]any
	if err := jsonUnmarshal(doc, &policy); err != nil {
		t.Fatal(err)
	}
	parent := live.StackResource{LogicalID: "Secret", Type: "AWS::SecretsManager::Secret", PhysicalID: secretArn}
	tests := []struct {
		name   string
		parent live.StackResource
		stack  []live.StackResource
		want   []live.Child
	}{
		{"an out-of-band policy", parent, []live.StackResource{parent}, []live.Child{
			{Type: "AWS::SecretsManager::ResourcePolicy", Identifier: secretArn, Model: map[string]any{"SecretId": secretArn, "ResourcePolicy": policy}}}},
		{"a declared policy", parent, []live.StackResource{parent, {LogicalID: "P", Type: "AWS::SecretsManager::ResourcePolicy", PhysicalID: secretArn, Declared: map[string]any{"SecretId": secretArn}}}, nil},
		{"no policy", live.StackResource{LogicalID: "Bare", Type: "AWS::SecretsManager::Secret", PhysicalID: "arn:aws:secretsmanager:us-east-1:111111111111:secret:bare-XyZ"}, nil, nil},
		{"a deleted secret", live.StackResource{LogicalID: "Gone", Type: "AWS::SecretsManager::Secret", PhysicalID: "arn:aws:secretsmanager:us-east-1:111111111111:secret:gone-000"}, nil, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := live.Enumerate(ctx(t), c, tt.parent, tt.stack)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(got, tt.want); diff != "" {
				t.Errorf("children (-got +want):\n%s", diff)
			}
		})
	}
	if err := srv.SetFaults([]sandbox.FaultRule{{Service: "secretsmanager", Action: "GetResourcePolicy", Code: "AccessDeniedException", Status: 400}}); err != nil {
		t.Fatal(err)
	}
	var ee *live.EnumerateError
	if _, err := live.Enumerate(ctx(t), c, parent, nil); !asEnumerateError(err, &ee) {
		t.Errorf("denied: %v, want an EnumerateError", err)
	}
}
