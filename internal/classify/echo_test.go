package classify

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/realdrift/realdrift/internal/drift"
)

func TestOwnIDEcho(t *testing.T) {
	tests := []struct {
		name, typ, pid, path, value string
		want                        []string
	}{
		{"composite id joined with _", "AWS::EC2::TransitGatewayRoute", "tgw-rtb-1|10.0.0.0/16", "Id", "tgw-rtb-1_10.0.0.0/16",
			[]string{`atDefault Id "tgw-rtb-1_10.0.0.0/16"`}},
		{"composite id joined in reverse", "AWS::EC2::TransitGatewayRouteTableAssociation", "tgw-rtb-1|tgw-attach-2", "Id", "tgw-attach-2_tgw-rtb-1",
			[]string{`atDefault Id "tgw-attach-2_tgw-rtb-1"`}},
		{"another pair surfaces", "AWS::EC2::TransitGatewayRouteTableAssociation", "tgw-rtb-1|tgw-attach-2", "Id", "tgw-attach-3_tgw-rtb-1",
			[]string{`undeclared Id "tgw-attach-3_tgw-rtb-1"`}},
		// (A Lambda alias: StepFunctions::StateMachineAlias's StateMachineArn
		// is a path AWS assigns, folded whatever its value.)
		{"the ARN a qualified id qualifies", "AWS::Lambda::Alias", "arn:aws:lambda:us-east-1:111111111111:function:Fn:live", "FunctionArn",
			"arn:aws:lambda:us-east-1:111111111111:function:Fn", []string{`atDefault FunctionArn "arn:aws:lambda:us-east-1:111111111111:function:Fn"`}},
		{"another function surfaces", "AWS::Lambda::Alias", "arn:aws:lambda:us-east-1:111111111111:function:Fn:live", "FunctionArn",
			"arn:aws:lambda:us-east-1:111111111111:function:Other", []string{`undeclared FunctionArn "arn:aws:lambda:us-east-1:111111111111:function:Other"`}},
		{"an unqualified ARN has no parent", "AWS::SNS::Topic", "arn:aws:sns:us-east-1:111111111111:topic", "Parent",
			"arn:aws:sns:us-east-1:111111111111", []string{`undeclared Parent "arn:aws:sns:us-east-1:111111111111"`}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := Subject{Ref: drift.ResourceRef{Type: tt.typ, PhysicalID: tt.pid}}
			got := brief(Resource(s, map[string]any{tt.path: tt.value}, nil, Options{Known: &KnownTable{}}))
			if d := cmp.Diff(got, tt.want); d != "" {
				t.Errorf("findings (-got +want):\n%s", d)
			}
		})
	}
}

func TestDeclaredIdentifierEcho(t *testing.T) {
	declared := map[string]any{"NetworkInterfaces": []any{map[string]any{"DeviceIndex": "0", "SubnetId": "subnet-0f3c7a3910f1a4f5"}},
		"Mode": "enabled"}
	tests := []struct {
		name string
		live map[string]any
		want []string
	}{
		{"an identifier declared elsewhere", map[string]any{"SubnetId": "subnet-0f3c7a3910f1a4f5"}, []string{`atDefault SubnetId "subnet-0f3c7a3910f1a4f5"`}},
		{"another identifier surfaces", map[string]any{"SubnetId": "subnet-0aaaaaaaaaaaaaaa"}, []string{`undeclared SubnetId "subnet-0aaaaaaaaaaaaaaa"`}},
		{"a word equal to a declared word surfaces", map[string]any{"Other": "enabled"}, []string{`undeclared Other "enabled"`}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			// A launch template: an instance's SubnetId is a path AWS assigns.
			s := Subject{Ref: drift.ResourceRef{Type: "AWS::EC2::LaunchTemplate", PhysicalID: "lt-1"}, Declared: declared}
			live := map[string]any{"NetworkInterfaces": declared["NetworkInterfaces"], "Mode": "enabled"}
			for k, v := range tt.live {
				live[k] = v
			}
			got := brief(Resource(s, live, nil, Options{Known: &KnownTable{}}))
			if d := cmp.Diff(got, tt.want); d != "" {
				t.Errorf("findings (-got +want):\n%s", d)
			}
		})
	}
}
