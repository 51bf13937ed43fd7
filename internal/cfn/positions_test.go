package cfn

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestResourceLines(t *testing.T) {
	for _, tc := range []struct {
		name, body string
		want       map[string]int
	}{
		{"json", `{
  "Parameters": {"Resources": {"Type": "String"}},
  "Resources": {
    "Queue": {"Type": "AWS::SQS::Queue", "Properties": {"Tags": [{"Key": "a", "Value": "b"}]}},

    "Topic": {
      "Type": "AWS::SNS::Topic"
    }
  },
  "Outputs": {"Out": {"Value": {"Ref": "Queue"}}}
}`, map[string]int{"Queue": 4, "Topic": 6}},
		{"yaml", `Parameters:
  Resources:
    Type: String
Resources:
  Queue:
    Type: AWS::SQS::Queue
  Topic:
    Type: AWS::SNS::Topic
    Properties:
      DisplayName: !Ref AWS::StackName
`, map[string]int{"Queue": 5, "Topic": 7}},
		{"no resources", `{"Outputs": {}}`, map[string]int{}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := ResourceLines([]byte(tc.body))
			if err != nil {
				t.Fatal(err)
			}
			if d := cmp.Diff(got, tc.want); d != "" {
				t.Errorf("ResourceLines (-got +want):\n%s", d)
			}
		})
	}
	if _, err := ResourceLines([]byte(`{"Resources": {`)); err == nil {
		t.Error("truncated JSON: no error")
	}
}
