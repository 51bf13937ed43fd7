package cfn

import (
	"errors"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestYAMLShortTags(t *testing.T) {
	tests := []struct {
		name string
		yaml string
		want any
	}{
		{"Ref", `!Ref Bucket`, map[string]any{"Ref": "Bucket"}},
		{"Ref pseudo quoted", `!Ref 'AWS::Region'`, map[string]any{"Ref": "AWS::Region"}},
		{"Sub string", `!Sub '${AWS::StackName}-x'`, map[string]any{"Fn::Sub": "${AWS::StackName}-x"}},
		{"Sub list", "!Sub\n  - '${A}'\n  - A: !Ref P", map[string]any{"Fn::Sub": []any{"${A}", map[string]any{"A": map[string]any{"Ref": "P"}}}}},
		{"GetAtt dotted", `!GetAtt Vpc.CidrBlock`, map[string]any{"Fn::GetAtt": []any{"Vpc", "CidrBlock"}}},
		{"GetAtt dotted path", `!GetAtt Child.Outputs.TopicArn`, map[string]any{"Fn::GetAtt": []any{"Child", "Outputs.TopicArn"}}},
		{"GetAtt list", `!GetAtt [Vpc, CidrBlock]`, map[string]any{"Fn::GetAtt": []any{"Vpc", "CidrBlock"}}},
		{"GetAtt no dot", `!GetAtt Vpc`, map[string]any{"Fn::GetAtt": "Vpc"}},
		{"Join", `!Join ['-', [a, !Ref B]]`, map[string]any{"Fn::Join": []any{"-", []any{"a", map[string]any{"Ref": "B"}}}}},
		{"Select GetAZs", `!Select [0, !GetAZs '']`, map[string]any{"Fn::Select": []any{0.0, map[string]any{"Fn::GetAZs": ""}}}},
		{"GetAZs map", `!GetAZs {Ref: 'AWS::Region'}`, map[string]any{"Fn::GetAZs": map[string]any{"Ref": "AWS::Region"}}},
		{"Split", `!Split [',', !Ref L]`, map[string]any{"Fn::Split": []any{",", map[string]any{"Ref": "L"}}}},
		{"If", `!If [C, 443, 80]`, map[string]any{"Fn::If": []any{"C", 443.0, 80.0}}},
		{"Equals", `!Equals [!Ref E, prod]`, map[string]any{"Fn::Equals": []any{map[string]any{"Ref": "E"}, "prod"}}},
		{"And Condition", "!And\n  - !Condition A\n  - !Condition B", map[string]any{"Fn::And": []any{map[string]any{"Condition": "A"}, map[string]any{"Condition": "B"}}}},
		{"Or", `!Or [!Condition A, !Equals [a, b]]`, map[string]any{"Fn::Or": []any{map[string]any{"Condition": "A"}, map[string]any{"Fn::Equals": []any{"a", "b"}}}}},
		{"Not", `!Not [!Condition A]`, map[string]any{"Fn::Not": []any{map[string]any{"Condition": "A"}}}},
		{"FindInMap", `!FindInMap [M, !Ref 'AWS::Region', K]`, map[string]any{"Fn::FindInMap": []any{"M", map[string]any{"Ref": "AWS::Region"}, "K"}}},
		{"ImportValue", `!ImportValue shared-queue`, map[string]any{"Fn::ImportValue": "shared-queue"}},
		{"ImportValue Sub", "!ImportValue\n  Fn::Sub: '${S}-x'", map[string]any{"Fn::ImportValue": map[string]any{"Fn::Sub": "${S}-x"}}},
		{"Base64", `!Base64 hello`, map[string]any{"Fn::Base64": "hello"}},
		{"Cidr", `!Cidr [!GetAtt Vpc.CidrBlock, 4, 8]`, map[string]any{"Fn::Cidr": []any{map[string]any{"Fn::GetAtt": []any{"Vpc", "CidrBlock"}}, 4.0, 8.0}}},
		{"Transform", "!Transform\n  Name: AWS::Include\n  Parameters: {Location: s3://b/k}", map[string]any{"Fn::Transform": map[string]any{"Name": "AWS::Include", "Parameters": map[string]any{"Location": "s3://b/k"}}}},
		{"GetStackOutput", "!GetStackOutput {StackName: p, OutputName: o}", map[string]any{"Fn::GetStackOutput": map[string]any{"StackName": "p", "OutputName": "o"}}},
		{"Condition", `!Condition IsProd`, map[string]any{"Condition": "IsProd"}},
		{"tagged scalar is text", `!Ref 123`, map[string]any{"Ref": "123"}},
		{"explicit document markers", "---\n!Ref x\n...\n", map[string]any{"Ref": "x"}},
		{"ints are float64", `{a: 1, b: 0x10, c: 2.5, d: true, e: ~, f: '7'}`, map[string]any{"a": 1.0, "b": 16.0, "c": 2.5, "d": true, "e": nil, "f": "7"}},
		{"numeric key stays text", `{123456789012: {k: v}}`, map[string]any{"123456789012": map[string]any{"k": "v"}}},
		{"timestamp stays text", `2010-09-09`, "2010-09-09"},
		{"alias", "a: &x [1, 2]\nb: *x", map[string]any{"a": []any{1.0, 2.0}, "b": []any{1.0, 2.0}}},
		{"block scalar", "!Sub |\n  echo ${A}\n  echo ${!B}\n", map[string]any{"Fn::Sub": "echo ${A}\necho ${!B}\n"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := parseYAML([]byte(tc.yaml))
			if err != nil {
				t.Fatalf("parseYAML: %v", err)
			}
			if diff := cmp.Diff(got, tc.want); diff != "" {
				t.Errorf("(-got +want)\n%s", diff)
			}
		})
	}
}

func TestParseErrorsNameTheLocation(t *testing.T) {
	tests := []struct {
		name string
		in   string
		want string
	}{
		{"json syntax", "{\n  \"Resources\": {\n    \"A\": x\n  }\n}", "json: line 3, column 10 (byte 28): invalid character 'x' looking for beginning of value"},
		{"json truncated", `{"Resources": {`, "json: line 1, column 16 (byte 15): unexpected end of input"},
		{"json duplicate key", "{\"Resources\": {}, \"Resources\": {}}", "json: line 1, column 30 (byte 29): duplicate key \"Resources\""},
		{"json trailing", `{"Resources": {}} {}`, "json: line 1, column 20 (byte 19): unexpected data after the top-level value"},
		{"json invalid UTF-8", "{\"Resources\": {\"A\": {\"Type\": \"T\",\n \"Properties\": {\"N\": \"a\xffb\"}}}}", "json: line 2, column 24 (byte 57): invalid UTF-8"},
		{"json huge number", `{"Resources": {"A": {"Type": "T", "Properties": {"N": 1e999}}}}`, "number 1e999 is out of range"},
		{"yaml syntax", "Resources:\n  A: [\n", "yaml: line 2: did not find expected node content"},
		{"yaml syntax without a library line", "Resources:\n  A: {Type: T}\nx: y: z\nmore: 1\n", "yaml: line 3: mapping values are not allowed in this context"},
		{"yaml tab indent", "Resources:\n\t- b\n", "yaml: line 2: found character that cannot start any token"},
		{"yaml unknown tag", "Resources:\n  A:\n    Type: !Bogus x\n", "yaml: 3:11: unknown tag !Bogus"},
		{"yaml duplicate key", "Resources:\n  A: {Type: T}\n  A: {Type: U}\n", "yaml: 3:3: duplicate key \"A\""},
		{"yaml merge key", "x: &a {k: v}\nResources:\n  <<: *a\n", "yaml: 3:3: merge keys (<<) are not supported in templates"},
		{"yaml nan", "Resources:\n  A: {Type: T, Properties: {N: .nan}}\n", "yaml: 2:32: number \".nan\" is not a finite value"},
		{"yaml empty", "", "yaml: empty template"},
		{"yaml comment only", "# nothing\n", "yaml: empty template"},
		{"yaml second document", "Resources: {}\n---\nfoo: bar\n", "yaml: line 3: a template is one YAML document"},
		{"yaml malformed second document", "Resources: {}\n---\n- [\n", "yaml: line 3: did not find expected node content"},
		{"not a mapping", "[1, 2]", "(template): template must be a mapping, got a list"},
		{"no resources", "Description: x\n", "Resources: section is missing"},
		{"resources not a mapping", "Resources: [a]\n", "Resources: must be a mapping, got a list"},
		{"resource type missing", "Resources:\n  B: {Properties: {}}\n", "Resources.B.Type: is missing"},
		{"resource type not string", "Resources:\n  B: {Type: [x]}\n", "Resources.B.Type: must be a string, got a list"},
		{"properties not mapping", "Resources:\n  B: {Type: T, Properties: [1]}\n", "Resources.B.Properties: must be a mapping, got a list"},
		{"depends on bad", "Resources:\n  B: {Type: T, DependsOn: [1]}\n", "Resources.B.DependsOn.0: must be a string, got a number"},
		{"condition not string", "Resources:\n  B: {Type: T, Condition: {a: b}}\n", "Resources.B.Condition: must be a string, got a mapping"},
		{"parameter type missing", "Parameters:\n  P: {Default: x}\nResources: {}\n", "Parameters.P.Type: is missing"},
		{"parameter noecho bad", "Parameters:\n  P: {Type: String, NoEcho: maybe}\nResources: {}\n", "Parameters.P.NoEcho: must be true or false, got \"maybe\""},
		{"parameter default map", "Parameters:\n  P: {Type: String, Default: {a: b}}\nResources: {}\n", "Parameters.P.Default: must be a string, got a mapping"},
		{"mapping shape", "Mappings:\n  M: {k: v}\nResources: {}\n", "Mappings.M.k: must be a mapping, got a string"},
		{"output without value", "Resources: {}\nOutputs:\n  O: {Description: d}\n", "Outputs.O.Value: is missing"},
		{"export without name", "Resources: {}\nOutputs:\n  O: {Value: v, Export: {}}\n", "Outputs.O.Export.Name: is missing"},
		{"transform bad", "Transform: 5\nResources: {}\n", "Transform: must be a string or a list of strings, got a number"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Parse([]byte(tc.in))
			if err == nil {
				t.Fatal("Parse succeeded, want an error")
			}
			var perr *Error
			if !errors.As(err, &perr) {
				t.Fatalf("error %v is a %T, want *cfn.Error", err, err)
			}
			if !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error %q does not contain %q", err.Error(), tc.want)
			}
		})
	}
}

func TestDeepNestingIsAnError(t *testing.T) {
	for _, tc := range []struct{ name, in string }{
		{"json", `{"Resources":` + strings.Repeat("[", 2000) + strings.Repeat("]", 2000) + "}"},
		{"yaml", "Resources: " + strings.Repeat("[", 2000) + strings.Repeat("]", 2000)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if _, err := Parse([]byte(tc.in)); err == nil {
				t.Fatal("Parse accepted nesting beyond the limit")
			}
		})
	}
}

func TestAliasBombIsAnError(t *testing.T) {
	var b strings.Builder
	b.WriteString("a0: &a0 [x, x, x, x, x, x, x, x, x, x]\n")
	for i := 1; i < 9; i++ {
		prev := "*a" + string(rune('0'+i-1))
		b.WriteString("a" + string(rune('0'+i)) + ": &a" + string(rune('0'+i)) + " [" + strings.Repeat(prev+", ", 9) + prev + "]\n")
	}
	b.WriteString("Resources: {}\n")
	_, err := Parse([]byte(b.String()))
	if err == nil {
		t.Fatal("Parse expanded an alias bomb")
	}
}

func TestParseModel(t *testing.T) {
	const yamlDoc = `
AWSTemplateFormatVersion: 2010-09-09
Description: demo
Transform: AWS::Serverless-2016-10-31
Parameters:
  Env:
    Type: String
    Default: dev
    AllowedValues: [dev, prod]
  Size:
    Type: Number
    Default: 10
  Token:
    Type: String
    NoEcho: 'true'
  Cidrs:
    Type: CommaDelimitedList
  Ami:
    Type: AWS::SSM::Parameter::Value<AWS::EC2::Image::Id>
    Default: /aws/ami
  Subnets:
    Type: List<AWS::EC2::Subnet::Id>
Mappings:
  M:
    dev: {Size: 1}
Conditions:
  IsProd: !Equals [!Ref Env, prod]
Resources:
  B:
    Type: AWS::S3::Bucket
    Condition: IsProd
    DependsOn: Q
    DeletionPolicy: Retain
    UpdateReplacePolicy: Snapshot
    Metadata:
      aws:cdk:path: Stack/B/Resource
    Properties:
      BucketName: !Sub '${Env}-b'
  Q:
    Type: AWS::SQS::Queue
    Properties:
Outputs:
  BucketName:
    Value: !Ref B
    Export:
      Name: !Sub '${AWS::StackName}-b'
    Condition: IsProd
`
	tpl, err := Parse([]byte(yamlDoc))
	if err != nil {
		t.Fatalf("Parse: %v", err)
	}
	if tpl.FormatVersion != "2010-09-09" || tpl.Description != "demo" {
		t.Errorf("header: got %q %q", tpl.FormatVersion, tpl.Description)
	}
	if diff := cmp.Diff(tpl.Transform, []string{"AWS::Serverless-2016-10-31"}); diff != "" {
		t.Errorf("Transform (-got +want)\n%s", diff)
	}
	type param struct {
		Type, Default      string
		HasDefault, NoEcho bool
		Allowed            []string
		List, SSM          bool
	}
	gotParams := map[string]param{}
	for n, p := range tpl.Parameters {
		gotParams[n] = param{p.Type, p.Default, p.HasDefault, p.NoEcho, p.AllowedValues, p.IsList(), p.IsSSM()}
	}
	wantParams := map[string]param{
		"Env":     {"String", "dev", true, false, []string{"dev", "prod"}, false, false},
		"Size":    {"Number", "10", true, false, nil, false, false},
		"Token":   {"String", "", false, true, nil, false, false},
		"Cidrs":   {"CommaDelimitedList", "", false, false, nil, true, false},
		"Ami":     {"AWS::SSM::Parameter::Value<AWS::EC2::Image::Id>", "/aws/ami", true, false, nil, false, true},
		"Subnets": {"List<AWS::EC2::Subnet::Id>", "", false, false, nil, true, false},
	}
	if diff := cmp.Diff(gotParams, wantParams); diff != "" {
		t.Errorf("Parameters (-got +want)\n%s", diff)
	}
	b := tpl.Resources["B"]
	gotB := []any{b.LogicalID, b.Type, b.Condition, b.DependsOn, b.DeletionPolicy, b.UpdateReplacePolicy, b.ConstructPath, b.Properties}
	wantB := []any{"B", "AWS::S3::Bucket", "IsProd", []string{"Q"}, "Retain", "Snapshot", "Stack/B/Resource",
		map[string]any{"BucketName": map[string]any{"Fn::Sub": "${Env}-b"}}}
	if diff := cmp.Diff(gotB, wantB); diff != "" {
		t.Errorf("resource B (-got +want)\n%s", diff)
	}
	if q := tpl.Resources["Q"]; q.Properties == nil || len(q.Properties) != 0 {
		t.Errorf("resource Q: empty Properties should be an empty map, got %#v", q.Properties)
	}
	o := tpl.Outputs["BucketName"]
	gotO := []any{o.Value, o.ExportName, o.Condition}
	wantO := []any{map[string]any{"Ref": "B"}, map[string]any{"Fn::Sub": "${AWS::StackName}-b"}, "IsProd"}
	if diff := cmp.Diff(gotO, wantO); diff != "" {
		t.Errorf("output (-got +want)\n%s", diff)
	}
	if diff := cmp.Diff(tpl.Mappings, map[string]map[string]map[string]any{"M": {"dev": {"Size": 1.0}}}); diff != "" {
		t.Errorf("Mappings (-got +want)\n%s", diff)
	}
	if diff := cmp.Diff(tpl.Conditions["IsProd"], any(map[string]any{"Fn::Equals": []any{map[string]any{"Ref": "Env"}, "prod"}})); diff != "" {
		t.Errorf("Conditions (-got +want)\n%s", diff)
	}
	if diff := cmp.Diff(tpl.ResourceIDs(), []string{"B", "Q"}); diff != "" {
		t.Errorf("ResourceIDs (-got +want)\n%s", diff)
	}
}

func TestJSONAndYAMLGiveOneModel(t *testing.T) {
	const jsonDoc = `{"Resources": {"V": {"Type": "AWS::EC2::VPC", "Properties": {
	  "CidrBlock": {"Fn::Select": [0, {"Fn::Cidr": [{"Fn::GetAtt": ["Vpc", "CidrBlock"]}, 4, 8]}]},
	  "Tags": [{"Key": "Name", "Value": {"Fn::Join": ["-", [{"Ref": "Env"}, "vpc"]]}}],
	  "Enabled": true}}}}`
	const yamlDoc = `
Resources:
  V:
    Type: AWS::EC2::VPC
    Properties:
      CidrBlock: !Select [0, !Cidr [!GetAtt Vpc.CidrBlock, 4, 8]]
      Tags:
        - Key: Name
          Value: !Join ['-', [!Ref Env, vpc]]
      Enabled: true
`
	j, err := Parse([]byte(jsonDoc))
	if err != nil {
		t.Fatalf("json: %v", err)
	}
	y, err := Parse([]byte(yamlDoc))
	if err != nil {
		t.Fatalf("yaml: %v", err)
	}
	if diff := cmp.Diff(y.Resources["V"].Properties, j.Resources["V"].Properties); diff != "" {
		t.Errorf("(-yaml +json)\n%s", diff)
	}
}

func TestJSONFlowMappingFallsBackToYAML(t *testing.T) {
	tpl, err := Parse([]byte(`{Resources: {A: {Type: T}}}`))
	if err != nil {
		t.Fatalf("Parse: %v", err)
	}
	if tpl.Resources["A"].Type != "T" {
		t.Errorf("got %#v", tpl.Resources["A"])
	}
}
