package cfn

import (
	"testing"
	"time"

	"github.com/realdrift/realdrift/internal/deadlinetest"
)

// FuzzParse feeds arbitrary bytes to Parse: it must return a template or an
// *Error, never panic or stall, and a template it returns must be well
// formed. The seeds are small on purpose: the fuzzer minimises every new
// input, and minimising a 10 KB template takes minutes.
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
	f.Fuzz(func(t *testing.T, data []byte) {
		start := time.Now()
		tpl, err := Parse(data)
		if d := time.Since(start); d > deadlinetest.Scale(t, 3*time.Second) {
			t.Fatalf("Parse took %v on %d bytes", d, len(data))
		}
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
