package intrinsic

import (
	"testing"

	"github.com/realdrift/realdrift/internal/cfn"
)

// FuzzResolve resolves whatever template Parse accepts: resolution must
// never panic, and every resource it keeps must have non-nil properties.
// Seeds stay small so that the fuzzer's minimisation stays quick.
func FuzzResolve(f *testing.F) {
	for _, s := range []string{
		"Parameters: {Env: {Type: String, Default: dev}}\nResources: {B: {Type: T}}\nOutputs:\n  O: {Value: !Sub '${B.Arn}-${Env}', Export: {Name: !Join ['-', [a, !Ref Env]]}}\n",
		"Conditions: {C: !And [!Equals [a, a], !Not [!Condition D]], D: !Or [!Condition C, !Equals [!Ref AWS::Region, x]]}\nResources: {B: {Type: T, Condition: C}}\n",
		"Resources:\n  R: {Type: T, Properties: {A: !Select [0, !Cidr ['10.0.0.0/16', 4, 8]], B: !FindInMap [M, a, b, {DefaultValue: x}]}}\n",
		"Resources:\n  R: {Type: T, Properties: {A: !If [C, !Ref AWS::NoValue, [!GetAtt X.Y, !Base64 '{{resolve:ssm:/p}}']]}}\n",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		tpl, err := cfn.Parse(data)
		if err != nil {
			return
		}
		c := baseContext()
		c.LiveAttrs = map[string]map[string]any{}
		for id := range tpl.Resources {
			c.LiveAttrs[id] = map[string]any{"Arn": "arn:" + id, "CidrBlock": "10.0.0.0/16", "List": []any{"a", "b"}}
		}
		r := New(tpl, c)
		for _, res := range r.Resources() {
			if res.Properties == nil {
				t.Fatalf("%s: nil properties", res.LogicalID)
			}
			_ = CountUnknown(res.Properties)
			_ = GetAttTargets(tpl.Resources[res.LogicalID].Properties)
		}
		_ = r.Outputs()
		_ = UsesImportValue(tpl)
		_ = StackOutputRefs(tpl)
	})
}
