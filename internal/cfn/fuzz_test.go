package cfn

import (
	"os"
	"testing"
)

// FuzzParse feeds arbitrary bytes to Parse: it must return a template or an
// *Error, never panic, and a template it returns must be well formed.
func FuzzParse(f *testing.F) {
	seeds := []string{
		`{"Resources": {"B": {"Type": "AWS::S3::Bucket", "Properties": {"BucketName": {"Fn::Sub": "${AWS::StackName}-b"}}}}}`,
		"Resources:\n  B:\n    Type: AWS::S3::Bucket\n    Properties:\n      BucketName: !Sub '${Env}-b'\n",
		"Parameters:\n  P: {Type: CommaDelimitedList, Default: [a, b], NoEcho: true}\nResources: {}\n",
		"Conditions:\n  C: !And [!Condition A, !Not [!Equals [!Ref P, x]]]\nResources:\n  R: {Type: T, Condition: C, DependsOn: [X]}\n",
		"Outputs:\n  O: {Value: !GetAtt R.Arn, Export: {Name: !Sub '${AWS::StackName}-o'}}\nResources: {}\n",
		"a: &a [1, 2]\nb: *a\nResources: {}\n",
		`{"Resources": [1, 2.5e3, true, null, "x"]}`,
		"!Ref x",
	}
	for _, s := range seeds {
		f.Add([]byte(s))
	}
	for _, path := range []string{"../../../shared/templates/hand-written/web-tier.yaml", "../../../shared/templates/cross-stack/CrossStackConsumer.template.json"} {
		if data, err := os.ReadFile(path); err == nil {
			f.Add(data)
		}
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		tpl, err := Parse(data)
		if err != nil {
			if _, ok := err.(*Error); !ok {
				t.Fatalf("error %v is a %T, want *cfn.Error", err, err)
			}
			if err.Error() == "" {
				t.Fatal("empty error message")
			}
			return
		}
		if tpl.Resources == nil || tpl.Parameters == nil || tpl.Outputs == nil || tpl.Mappings == nil || tpl.Conditions == nil {
			t.Fatal("nil section map")
		}
		for id, r := range tpl.Resources {
			if r == nil || r.LogicalID != id || r.Properties == nil || r.Metadata == nil {
				t.Fatalf("resource %q malformed: %#v", id, r)
			}
		}
		for n, o := range tpl.Outputs {
			if o == nil || o.Name != n {
				t.Fatalf("output %q malformed", n)
			}
		}
	})
}
