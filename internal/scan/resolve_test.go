package scan

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/realdrift/realdrift/internal/cfn"
	"github.com/realdrift/realdrift/internal/drift"
	"github.com/realdrift/realdrift/internal/live"
)

func TestResolvePasses(t *testing.T) {
	body := `{
 "Parameters": {"Env": {"Type": "String"}},
 "Conditions": {"IsProd": {"Fn::Equals": [{"Ref": "Env"}, "prod"]}, "Unknowable": {"Fn::Equals": [{"Fn::Select": [0, {"Fn::GetAZs": ""}]}, "us-east-1a"]}},
 "Resources": {
  "Fn": {"Type": "AWS::Lambda::Function", "Properties": {"FunctionName": "fn"}},
  "Perm": {"Type": "AWS::Lambda::Permission", "Properties": {"FunctionName": {"Fn::GetAtt": ["Fn", "Arn"]}, "Action": "lambda:InvokeFunction"}},
  "ProdOnly": {"Type": "AWS::SQS::Queue", "Condition": "IsProd"},
  "MaybeNot": {"Type": "AWS::SQS::Queue", "Condition": "Unknowable"},
  "MaybeYes": {"Type": "AWS::SQS::Queue", "Condition": "Unknowable"}
 }}`
	d := &Desired{
		Stack:        drift.StackRef{Account: "111111111111", Region: "us-east-1", Name: "S"},
		TemplateBody: body,
		Parameters:   map[string]string{"Env": "dev"},
		PhysicalIDs:  map[string]string{"Fn": "fn", "Perm": "S-Perm-1", "MaybeYes": "https://q"},
	}
	tmpl, err := cfn.Parse([]byte(body))
	if err != nil {
		t.Fatal(err)
	}
	if d.Resources, err = resolveResources(tmpl, d, nil); err != nil {
		t.Fatal(err)
	}
	var ids []string
	for _, r := range d.Resources {
		ids = append(ids, r.LogicalID)
	}
	// ProdOnly is pruned (false condition); MaybeNot has an unknown
	// condition and no physical id: not created.
	if diff := cmp.Diff(ids, []string{"Fn", "MaybeYes", "Perm"}); diff != "" {
		t.Errorf("resources (-got +want):\n%s", diff)
	}
	perm, _ := d.resource("Perm")
	if !drift.IsUnknown(perm.Declared["FunctionName"]) {
		t.Errorf("pass 0 FunctionName = %#v, want Unknown", perm.Declared["FunctionName"])
	}
	lives := map[string]live.Result{
		"Fn":       {Status: live.Found, Model: map[string]any{"Arn": "arn:aws:lambda:us-east-1:111111111111:function:fn"}},
		"Perm":     {Status: live.Skipped, Waiting: true},
		"MaybeYes": {Status: live.Found, Model: map[string]any{}},
	}
	reread, err := Resolve(d, lives)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(reread, []string{"Perm"}); diff != "" {
		t.Errorf("pass 1.5 (-got +want):\n%s", diff)
	}
	perm, _ = d.resource("Perm")
	if got := perm.Declared["FunctionName"]; got != "arn:aws:lambda:us-east-1:111111111111:function:fn" {
		t.Errorf("pass 2 FunctionName = %#v", got)
	}
}
