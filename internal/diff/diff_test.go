package diff

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/realdrift/realdrift/internal/cfn"
	"github.com/realdrift/realdrift/internal/cfn/intrinsic"
	"github.com/realdrift/realdrift/internal/schema"
)

// tpl parses a template written as JSON; "" is no template.
func tpl(t *testing.T, body string) *cfn.Template {
	t.Helper()
	if body == "" {
		return nil
	}
	tm, err := cfn.Parse([]byte(body))
	if err != nil {
		t.Fatalf("parse: %v\n%s", err, body)
	}
	return tm
}

// res builds a Resources section body from logical id → resource JSON.
func resources(entries ...string) string {
	return `{"Resources": {` + strings.Join(entries, ",") + `}}`
}

var testFacts = map[string]*schema.Facts{
	"AWS::S3::Bucket":          {CreateOnlyPaths: []string{"BucketName"}},
	"AWS::SNS::Topic":          {CreateOnlyPaths: []string{"TopicName"}},
	"AWS::SQS::Queue":          {CreateOnlyPaths: []string{"QueueName"}},
	"AWS::Lambda::Function":    {CreateOnlyPaths: []string{"FunctionName"}},
	"AWS::Lambda::Permission":  {CreateOnlyPaths: []string{"FunctionName", "Principal", "Action"}},
	"AWS::RDS::DBInstance":     {CreateOnlyPaths: []string{"DBInstanceIdentifier"}, ConditionalCreateOnlyPaths: []string{"AllocatedStorage"}},
	"AWS::EC2::Instance":       {CreateOnlyPaths: []string{"BlockDeviceMappings.*.DeviceName"}},
	"AWS::Custom::Thing":       {},
	"AWS::SSM::Parameter":      {CreateOnlyPaths: []string{"Name"}},
	"AWS::CloudWatch::Alarm":   {CreateOnlyPaths: []string{"AlarmName"}},
	"AWS::EC2::LaunchTemplate": {CreateOnlyPaths: []string{"LaunchTemplateName"}},
}

func factsOf(typ string) (*schema.Facts, bool) { f, ok := testFacts[typ]; return f, ok }

var baseCtx = intrinsic.Context{
	AccountID: "111111111111", Region: "us-east-1", StackName: "S",
	StackID:     "arn:aws:cloudformation:us-east-1:111111111111:stack/S/1",
	PhysicalIDs: map[string]string{"B": "bucket-1", "T": "arn:aws:sns:us-east-1:111111111111:t", "Q": "https://q", "F": "fn", "P": "perm", "A": "alarm", "LT": "lt-1", "ASG": "asg", "N": "arn:aws:cloudformation:us-east-1:111111111111:stack/S-N/2", "R": "r", "C": "c", "I": "i-1", "D": "db", "X": "x", "Y": "y"},
	LiveAttrs: map[string]map[string]any{
		"F":  {"Arn": "arn:aws:lambda:us-east-1:111111111111:function:fn"},
		"LT": {"LatestVersionNumber": "1"},
		"N":  {"Outputs": []any{map[string]any{"OutputKey": "Url", "OutputValue": "https://x"}}},
	},
}

// summary is a compact view of a result for comparison.
func summary(r *Result) []string {
	var out []string
	for _, c := range r.Changes {
		s := c.LogicalID + " " + c.Action.String()
		if c.Stateful {
			s += " stateful"
		}
		if c.Action == Update && c.Replacement == Conditional {
			s += " may-replace"
		}
		for _, p := range c.Properties {
			s += " " + p.Path
			if p.Propagated != Direct {
				s += "[" + p.Propagated.String() + "]"
			}
		}
		if len(c.Undecided) > 0 {
			s += " undecided:" + strings.Join(c.Undecided, ",")
		}
		out = append(out, s)
	}
	for _, o := range r.Outputs {
		s := "output " + o.Name + " " + o.Action.String()
		if o.Export {
			s += " export"
		}
		if o.OldRedacted {
			s += " old-redacted"
		}
		out = append(out, s)
	}
	for _, u := range r.Undecided {
		out = append(out, "undecided "+u)
	}
	return out
}

func TestCompute(t *testing.T) {
	bucket := func(props string) string { return `"B": {"Type": "AWS::S3::Bucket", "Properties": ` + props + `}` }
	topic := func(props string) string { return `"T": {"Type": "AWS::SNS::Topic", "Properties": ` + props + `}` }
	cases := []struct {
		name     string
		old, new string
		// outputs are the deployed outputs (nil: from the old template).
		outputs []DeployedOutput
		newPar  map[string]string
		ctx     *intrinsic.Context
		want    []string
	}{
		{
			name: "resolved: a literal inside Fn::Join is a change",
			old:  resources(bucket(`{"Tags": [{"Key": "k", "Value": {"Fn::Join": ["-", ["a", "value"]]}}]}`)),
			new:  resources(bucket(`{"Tags": [{"Key": "k", "Value": {"Fn::Join": ["-", ["a", "value2"]]}}]}`)),
			want: []string{"B UPDATE Tags.0.Value"},
		},
		{
			name: "resolved: a rewritten intrinsic with the same value is no change",
			old:  resources(bucket(`{"Tags": [{"Key": "k", "Value": {"Fn::Join": ["", ["a", "b"]]}}]}`)),
			new:  `{"Parameters": {"Suffix": {"Type": "String"}}, "Resources": {"B": {"Type": "AWS::S3::Bucket", "Properties": {"Tags": [{"Key": "k", "Value": {"Fn::Sub": "a${Suffix}"}}]}}}}`,
			ctx:  &intrinsic.Context{Parameters: map[string]string{"Suffix": "b"}},
			want: nil,
		},
		{
			name: "unknown compares as unknown, never as a change",
			old:  resources(bucket(`{"Tags": [{"Key": "k", "Value": "literal"}]}`)),
			new:  resources(bucket(`{"Tags": [{"Key": "k", "Value": {"Fn::Select": [0, {"Fn::GetAZs": ""}]}}]}`)),
			want: []string{"undecided B.Tags.0.Value"},
		},
		{
			name: "a secret dynamic reference is unknown, not a change",
			old:  resources(`"D": {"Type": "AWS::RDS::DBInstance", "Properties": {"MasterUserPassword": "{{resolve:secretsmanager:a:SecretString:password}}"}}`),
			new:  resources(`"D": {"Type": "AWS::RDS::DBInstance", "Properties": {"MasterUserPassword": "{{resolve:secretsmanager:b:SecretString:password}}"}}`),
			want: []string{"undecided D.MasterUserPassword"},
		},
		{
			name: "a reference to a created resource is a change known after the deploy",
			old:  resources(topic(`{"DisplayName": "old"}`)),
			new:  resources(topic(`{"DisplayName": {"Fn::GetAtt": ["NewQ", "QueueName"]}}`), `"NewQ": {"Type": "AWS::SQS::Queue"}`),
			want: []string{"NewQ CREATE", "T UPDATE DisplayName"},
		},
		{
			name: "only the changed sub-properties",
			old:  resources(bucket(`{"VersioningConfiguration": {"Status": "Enabled"}, "Tags": [{"Key": "a", "Value": "1"}, {"Key": "b", "Value": "2"}]}`)),
			new:  resources(bucket(`{"VersioningConfiguration": {"Status": "Enabled"}, "Tags": [{"Key": "a", "Value": "1"}, {"Key": "b", "Value": "3"}]}`)),
			want: []string{"B UPDATE Tags.1.Value"},
		},
		{
			name: "scalars compare by their CloudFormation text",
			old:  resources(`"Q": {"Type": "AWS::SQS::Queue", "Properties": {"VisibilityTimeout": 80, "FifoQueue": true}}`),
			new:  resources(`"Q": {"Type": "AWS::SQS::Queue", "Properties": {"VisibilityTimeout": "80", "FifoQueue": "true"}}`),
			want: nil,
		},
		{
			name: "a removed key is a change",
			old:  resources(topic(`{"DisplayName": "d", "FifoTopic": false}`)),
			new:  resources(topic(`{"DisplayName": "d"}`)),
			want: []string{"T UPDATE FifoTopic"},
		},
		{
			name: "condition pruning: a condition flipped false is a DELETE",
			old:  `{"Parameters": {"Env": {"Type": "String", "Default": "prod"}}, "Conditions": {"IsProd": {"Fn::Equals": [{"Ref": "Env"}, "prod"]}}, "Resources": {"T": {"Type": "AWS::SNS::Topic", "Condition": "IsProd"}}}`,
			new:  `{"Parameters": {"Env": {"Type": "String", "Default": "prod"}}, "Conditions": {"IsProd": {"Fn::Equals": [{"Ref": "Env"}, "production"]}}, "Resources": {"T": {"Type": "AWS::SNS::Topic", "Condition": "IsProd"}}}`,
			want: []string{"T DELETE"},
		},
		{
			name: "condition pruning: a condition-false resource is never created",
			old:  resources(topic(`{}`)),
			new:  `{"Conditions": {"Never": {"Fn::Equals": ["a", "b"]}}, "Resources": {"T": {"Type": "AWS::SNS::Topic", "Properties": {}}, "Q2": {"Type": "AWS::SQS::Queue", "Condition": "Never"}}}`,
			want: nil,
		},
		{
			name: "condition pruning: the same unknown condition on both sides is undecided",
			old:  `{"Parameters": {"P": {"Type": "String"}}, "Conditions": {"C": {"Fn::Equals": [{"Ref": "P"}, "x"]}}, "Resources": {"T": {"Type": "AWS::SNS::Topic"}, "Z": {"Type": "AWS::SQS::Queue", "Condition": "C"}}}`,
			new:  `{"Parameters": {"P": {"Type": "String"}}, "Conditions": {"C": {"Fn::Equals": [{"Ref": "P"}, "x"]}}, "Resources": {"T": {"Type": "AWS::SNS::Topic"}, "Z": {"Type": "AWS::SQS::Queue", "Condition": "C"}}}`,
			want: []string{"undecided Z"},
		},
		{
			name: "replacement: a create-only property; a stateful type is flagged",
			old:  resources(bucket(`{"BucketName": "one"}`)),
			new:  resources(bucket(`{"BucketName": "two"}`)),
			want: []string{"B REPLACE stateful BucketName"},
		},
		{
			name: "replacement: a change inside a create-only item path",
			old:  resources(`"I": {"Type": "AWS::EC2::Instance", "Properties": {"BlockDeviceMappings": [{"DeviceName": "/dev/xvda"}]}}`),
			new:  resources(`"I": {"Type": "AWS::EC2::Instance", "Properties": {"BlockDeviceMappings": [{"DeviceName": "/dev/xvdb"}]}}`),
			want: []string{"I REPLACE BlockDeviceMappings.0.DeviceName"},
		},
		{
			name: "replacement: a conditionally create-only property may replace",
			old:  resources(`"D": {"Type": "AWS::RDS::DBInstance", "Properties": {"AllocatedStorage": "20"}}`),
			new:  resources(`"D": {"Type": "AWS::RDS::DBInstance", "Properties": {"AllocatedStorage": "40"}}`),
			want: []string{"D UPDATE stateful may-replace AllocatedStorage"},
		},
		{
			name: "replacement: a changed Type",
			old:  resources(`"X": {"Type": "AWS::SNS::Topic"}`),
			new:  resources(`"X": {"Type": "AWS::SQS::Queue"}`),
			want: []string{"X REPLACE stateful Type"},
		},
		{
			name: "replacement propagates through Ref, and a whole create-only reader replaces in turn",
			old: resources(topic(`{"TopicName": "a"}`),
				`"A": {"Type": "AWS::CloudWatch::Alarm", "Properties": {"AlarmActions": [{"Ref": "T"}]}}`,
				`"X": {"Type": "AWS::SSM::Parameter", "Properties": {"Name": {"Fn::Sub": "${T.TopicName}-p"}, "Value": "v"}}`,
				`"Y": {"Type": "AWS::SSM::Parameter", "Properties": {"Name": "y", "Value": {"Ref": "X"}}}`),
			new: resources(topic(`{"TopicName": "b"}`),
				`"A": {"Type": "AWS::CloudWatch::Alarm", "Properties": {"AlarmActions": [{"Ref": "T"}]}}`,
				`"X": {"Type": "AWS::SSM::Parameter", "Properties": {"Name": {"Fn::Sub": "${T.TopicName}-p"}, "Value": "v"}}`,
				`"Y": {"Type": "AWS::SSM::Parameter", "Properties": {"Name": "y", "Value": {"Ref": "X"}}}`),
			want: []string{"A UPDATE AlarmActions[replacement propagated]", "T REPLACE TopicName", "X REPLACE stateful Name[replacement propagated]", "Y UPDATE Value[replacement propagated]"},
		},
		{
			name: "a child stored inside a replaced parent is replaced with it",
			old: resources(`"F": {"Type": "AWS::Lambda::Function", "Properties": {"FunctionName": "f1"}}`,
				`"P": {"Type": "AWS::Lambda::Permission", "Properties": {"FunctionName": {"Fn::GetAtt": ["F", "Arn"]}, "Action": "lambda:InvokeFunction", "Principal": "s3.amazonaws.com"}}`),
			new: resources(`"F": {"Type": "AWS::Lambda::Function", "Properties": {"FunctionName": "f2"}}`,
				`"P": {"Type": "AWS::Lambda::Permission", "Properties": {"FunctionName": {"Fn::GetAtt": ["F", "Arn"]}, "Action": "lambda:InvokeFunction", "Principal": "s3.amazonaws.com"}}`),
			want: []string{"F REPLACE FunctionName", "P REPLACE FunctionName[recreated with its replaced parent]"},
		},
		{
			name: "in-place attribute propagation: a derived attribute moves, a Ref reader does not",
			old: resources(`"LT": {"Type": "AWS::EC2::LaunchTemplate", "Properties": {"LaunchTemplateData": {"ImageId": "ami-1"}}}`,
				`"ASG": {"Type": "AWS::AutoScaling::AutoScalingGroup", "Properties": {"LaunchTemplate": {"LaunchTemplateId": {"Ref": "LT"}, "Version": {"Fn::GetAtt": ["LT", "LatestVersionNumber"]}}}}`,
				`"R": {"Type": "AWS::SSM::Parameter", "Properties": {"Name": "r", "Value": {"Ref": "LT"}}}`),
			new: resources(`"LT": {"Type": "AWS::EC2::LaunchTemplate", "Properties": {"LaunchTemplateData": {"ImageId": "ami-2"}}}`,
				`"ASG": {"Type": "AWS::AutoScaling::AutoScalingGroup", "Properties": {"LaunchTemplate": {"LaunchTemplateId": {"Ref": "LT"}, "Version": {"Fn::GetAtt": ["LT", "LatestVersionNumber"]}}}}`,
				`"R": {"Type": "AWS::SSM::Parameter", "Properties": {"Name": "r", "Value": {"Ref": "LT"}}}`),
			want: []string{"ASG UPDATE LaunchTemplate[attribute propagated]", "LT UPDATE LaunchTemplateData.ImageId"},
		},
		{
			name: "in-place attribute propagation: a nested stack's outputs",
			old: resources(`"N": {"Type": "AWS::CloudFormation::Stack", "Properties": {"TemplateURL": "https://a"}}`,
				`"R": {"Type": "AWS::SSM::Parameter", "Properties": {"Name": "r", "Value": {"Fn::GetAtt": ["N", "Outputs.Url"]}}}`),
			new: resources(`"N": {"Type": "AWS::CloudFormation::Stack", "Properties": {"TemplateURL": "https://b"}}`,
				`"R": {"Type": "AWS::SSM::Parameter", "Properties": {"Name": "r", "Value": {"Fn::GetAtt": ["N", "Outputs.Url"]}}}`),
			want: []string{"N UPDATE TemplateURL", "R UPDATE Value[attribute propagated]"},
		},
		{
			name: "in-place attribute propagation: a custom resource's Ref",
			old: resources(`"C": {"Type": "Custom::Thing", "Properties": {"ServiceToken": "arn:t", "V": "1"}}`,
				`"R": {"Type": "AWS::SSM::Parameter", "Properties": {"Name": "r", "Value": {"Ref": "C"}}}`),
			new: resources(`"C": {"Type": "Custom::Thing", "Properties": {"ServiceToken": "arn:t", "V": "2"}}`,
				`"R": {"Type": "AWS::SSM::Parameter", "Properties": {"Name": "r", "Value": {"Ref": "C"}}}`),
			want: []string{"C UPDATE V", "R UPDATE Value[attribute propagated]"},
		},
		{
			name:    "an outputs-only change is a change",
			old:     `{"Resources": {"T": {"Type": "AWS::SNS::Topic"}}, "Outputs": {"Name": {"Value": "a"}}}`,
			new:     `{"Resources": {"T": {"Type": "AWS::SNS::Topic"}}, "Outputs": {"Name": {"Value": "b"}}}`,
			outputs: []DeployedOutput{{Key: "Name", Value: "a"}},
			want:    []string{"output Name MODIFY"},
		},
		{
			name:    "outputs: a new Export.Name is a second key; a removed output is a REMOVE",
			old:     `{"Resources": {"T": {"Type": "AWS::SNS::Topic"}}, "Outputs": {"Arn": {"Value": {"Ref": "T"}}, "Gone": {"Value": "g"}}}`,
			new:     `{"Resources": {"T": {"Type": "AWS::SNS::Topic"}}, "Outputs": {"Arn": {"Value": {"Ref": "T"}, "Export": {"Name": {"Fn::Sub": "${AWS::StackName}-Arn"}}}}}`,
			outputs: []DeployedOutput{{Key: "Arn", Value: "arn:aws:sns:us-east-1:111111111111:t"}, {Key: "Gone", Value: "g"}},
			want:    []string{"output Gone REMOVE", "output S-Arn ADD export"},
		},
		{
			name:    "outputs: a condition-false output is skipped; an unresolved one is not compared",
			old:     `{"Resources": {"T": {"Type": "AWS::SNS::Topic"}}, "Outputs": {"Off": {"Value": "x"}, "Azs": {"Value": "a"}}}`,
			new:     `{"Conditions": {"No": {"Fn::Equals": ["a", "b"]}}, "Resources": {"T": {"Type": "AWS::SNS::Topic"}}, "Outputs": {"Off": {"Value": "x", "Condition": "No"}, "Azs": {"Value": {"Fn::Select": [0, {"Fn::GetAZs": ""}]}}}}`,
			outputs: []DeployedOutput{{Key: "Off", Value: "x"}, {Key: "Azs", Value: "a"}},
			want:    []string{"output Off REMOVE"},
		},
		{
			name:    "outputs: an old value beside a secret new one is withheld",
			old:     `{"Parameters": {"Pw": {"Type": "String", "NoEcho": true}}, "Resources": {"T": {"Type": "AWS::SNS::Topic"}}, "Outputs": {"Pw": {"Value": "plain"}}}`,
			new:     `{"Parameters": {"Pw": {"Type": "String", "NoEcho": true}}, "Resources": {"T": {"Type": "AWS::SNS::Topic"}}, "Outputs": {"Pw": {"Value": {"Ref": "Pw"}}}}`,
			outputs: []DeployedOutput{{Key: "Pw", Value: "plain"}},
			ctx:     &intrinsic.Context{Parameters: map[string]string{"Pw": "s3cret"}},
			want:    []string{"output Pw MODIFY old-redacted"},
		},
		{
			name: "nested: a new nested stack is all CREATE",
			old:  "",
			new:  resources(topic(`{}`), `"Q": {"Type": "AWS::SQS::Queue"}`),
			want: []string{"Q CREATE", "T CREATE"},
		},
		{
			name: "nested: a removed nested stack is all DELETE",
			old:  resources(topic(`{}`), `"Q": {"Type": "AWS::SQS::Queue"}`),
			new:  "",
			want: []string{"Q DELETE stateful", "T DELETE"},
		},
		{
			name:   "nested: a parameter carried as a secret expression compares expression with expression",
			old:    `{"Parameters": {"Pw": {"Type": "String"}}, "Resources": {"T": {"Type": "AWS::SNS::Topic", "Properties": {"DisplayName": {"Ref": "Pw"}}}}}`,
			new:    `{"Parameters": {"Pw": {"Type": "String"}}, "Resources": {"T": {"Type": "AWS::SNS::Topic", "Properties": {"DisplayName": {"Ref": "Pw"}}}}}`,
			ctx:    &intrinsic.Context{Parameters: map[string]string{"Pw": "{{resolve:secretsmanager:db:SecretString:pw}}"}},
			newPar: map[string]string{"Pw": "{{resolve:secretsmanager:db:SecretString:pw}}"},
			want:   nil,
		},
		{
			name:   "nested: a changed parameter reaches the child's resources",
			old:    `{"Parameters": {"Stage": {"Type": "String"}}, "Resources": {"T": {"Type": "AWS::SNS::Topic", "Properties": {"DisplayName": {"Ref": "Stage"}}}}}`,
			new:    `{"Parameters": {"Stage": {"Type": "String"}}, "Resources": {"T": {"Type": "AWS::SNS::Topic", "Properties": {"DisplayName": {"Ref": "Stage"}}}}}`,
			ctx:    &intrinsic.Context{Parameters: map[string]string{"Stage": "dev"}},
			newPar: map[string]string{"Stage": "prod"},
			want:   []string{"T UPDATE DisplayName"},
		},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			ctx := baseCtx
			if c.ctx != nil {
				ctx.Parameters = c.ctx.Parameters
			}
			in := Input{Old: tpl(t, c.old), New: tpl(t, c.new), Context: ctx, Facts: factsOf, NewParameters: c.newPar}
			if c.outputs != nil {
				in.Outputs, in.HasOutputs = c.outputs, true
			}
			got := summary(Compute(in))
			if d := cmp.Diff(got, c.want); d != "" {
				t.Errorf("(-got +want):\n%s", d)
			}
		})
	}
}

// TestSecretsNeverPlaintext: a NoEcho parameter's value compared inside a
// drift.Secret writes only as redacted in the JSON form.
func TestSecretsNeverPlaintext(t *testing.T) {
	old := `{"Parameters": {"Pw": {"Type": "String", "NoEcho": true}}, "Resources": {"T": {"Type": "AWS::SNS::Topic", "Properties": {"DisplayName": {"Fn::Sub": "a-${Pw}"}}}}}`
	neu := `{"Parameters": {"Pw": {"Type": "String", "NoEcho": true}}, "Resources": {"T": {"Type": "AWS::SNS::Topic", "Properties": {"DisplayName": {"Fn::Sub": "b-${Pw}"}}}}}`
	ctx := baseCtx
	ctx.Parameters = map[string]string{"Pw": "s3cret"}
	r := Compute(Input{Old: tpl(t, old), New: tpl(t, neu), Context: ctx})
	if len(r.Changes) != 1 || r.Changes[0].Action != Update {
		t.Fatalf("changes = %v, want one UPDATE", summary(r))
	}
	b, err := json.Marshal(r)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(b), "s3cret") {
		t.Errorf("plaintext in %s", b)
	}
}

// TestSelfDiff: a template diffed against itself has no change.
func TestSelfDiff(t *testing.T) {
	body := `{"Parameters": {"Env": {"Type": "String", "Default": "x"}}, "Resources": {"B": {"Type": "AWS::S3::Bucket", "Properties": {"BucketName": {"Fn::Sub": "${Env}-b"}, "Tags": [{"Key": "a", "Value": {"Fn::GetAtt": ["F", "Arn"]}}]}}, "F": {"Type": "AWS::Lambda::Function", "Properties": {"Role": {"Fn::GetAZs": ""}}}}, "Outputs": {"O": {"Value": {"Ref": "B"}, "Export": {"Name": "e"}}}}`
	r := Compute(Input{Old: tpl(t, body), New: tpl(t, body), Context: baseCtx, Facts: factsOf})
	if r.HasChanges() || len(r.Undecided) > 0 {
		t.Errorf("self diff: %v", summary(r))
	}
}
