package intrinsic

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/realdrift/realdrift/internal/cfn"
	"github.com/realdrift/realdrift/internal/drift"
)

func mustParse(t *testing.T, doc string) *cfn.Template {
	t.Helper()
	tpl, err := cfn.Parse([]byte(doc))
	if err != nil {
		t.Fatalf("parse: %v", err)
	}
	return tpl
}

const conditionsTemplate = `
Parameters:
  Env: {Type: String, Default: prod}
  Size: {Type: Number, Default: 10}
  Token: {Type: String, NoEcho: true}
  Free: {Type: String}
  Cidrs: {Type: CommaDelimitedList, Default: 'a,b'}
Mappings:
  M:
    prod: {Big: 'yes'}
Conditions:
  T: !Equals [!Ref Env, prod]
  F: !Equals [!Ref Env, dev]
  U: !Equals [!Ref Free, x]
  AndFU: !And [!Condition F, !Condition U]
  AndTU: !And [!Condition T, !Condition U]
  AndTT: !And [!Condition T, !Condition T]
  OrTU: !Or [!Condition T, !Condition U]
  OrFU: !Or [!Condition F, !Condition U]
  OrFF: !Or [!Condition F, !Condition F]
  NotU: !Not [!Condition U]
  NotF: !Not [!Condition F]
  Alias: {Condition: T}
  Cycle1: !Not [!Condition Cycle2]
  Cycle2: !Not [!Condition Cycle1]
  Dangling: !Not [!Condition Nope]
  NumberEqualsText: !Equals [!Ref Size, '10']
  NumberEqualsNumber: !Equals [10, !Ref Size]
  RegionFolded: !Equals [!Ref 'AWS::Region', us-east-1]
  SecretEquals: !Equals [!Ref Token, hunter2]
  MapLookup: !Equals [!FindInMap [M, !Ref Env, Big], 'yes']
  ListSelect: !Equals [!Select [1, !Ref Cidrs], b]
  GetAZs: !Equals [!Select [0, !GetAZs ''], us-east-1a]
  Malformed: !Equals [a]
  NotAFunction: prod
  AndTooShort: !And [!Condition T]
Resources:
  Always: {Type: AWS::SNS::Topic}
  WhenT: {Type: AWS::SNS::Topic, Condition: T}
  WhenF: {Type: AWS::SNS::Topic, Condition: F}
  WhenU: {Type: AWS::SNS::Topic, Condition: U}
  WhenUndeclared: {Type: AWS::SNS::Topic, Condition: Nope}
Outputs:
  OutT: {Value: t, Condition: T}
  OutF: {Value: f, Condition: F}
  OutU: {Value: u, Condition: U}
  Plain:
    Value: !Ref Env
    Export: {Name: !Sub '${AWS::StackName}-env'}
`

func conditionsContext() Context {
	return Context{Region: "US-EAST-1", StackName: "s", Parameters: map[string]string{"Token": "hunter2"}}
}

func TestConditions(t *testing.T) {
	r := New(mustParse(t, conditionsTemplate), conditionsContext())
	type verdict struct{ Value, Known bool }
	tests := map[string]verdict{
		"T":                  {true, true},
		"F":                  {false, true},
		"U":                  {false, false},
		"AndFU":              {false, true},
		"AndTU":              {false, false},
		"AndTT":              {true, true},
		"OrTU":               {true, true},
		"OrFU":               {false, false},
		"OrFF":               {false, true},
		"NotU":               {false, false},
		"NotF":               {true, true},
		"Alias":              {true, true},
		"Cycle1":             {false, false},
		"Cycle2":             {false, false},
		"Dangling":           {false, false},
		"NumberEqualsText":   {true, true},
		"NumberEqualsNumber": {true, true},
		"RegionFolded":       {true, true},
		"SecretEquals":       {true, true},
		"MapLookup":          {true, true},
		"ListSelect":         {true, true},
		"GetAZs":             {false, false},
		"Malformed":          {false, false},
		"NotAFunction":       {false, false},
		"AndTooShort":        {false, false},
		"Undeclared":         {false, false},
	}
	for name, want := range tests {
		t.Run(name, func(t *testing.T) {
			v, known := r.Condition(name)
			if diff := cmp.Diff(verdict{v, known}, want); diff != "" {
				t.Errorf("(-got +want)\n%s", diff)
			}
		})
	}
}

func TestConditionPruning(t *testing.T) {
	r := New(mustParse(t, conditionsTemplate), conditionsContext())
	type kept struct {
		ID               string
		ConditionUnknown bool
	}
	var gotRes []kept
	for _, res := range r.Resources() {
		gotRes = append(gotRes, kept{res.LogicalID, res.ConditionUnknown})
	}
	wantRes := []kept{{"Always", false}, {"WhenT", false}, {"WhenU", true}, {"WhenUndeclared", true}}
	if diff := cmp.Diff(gotRes, wantRes); diff != "" {
		t.Errorf("resources (-got +want)\n%s", diff)
	}
	if _, ok := r.Resource("WhenF"); ok {
		t.Error("Resource(WhenF) should report a pruned resource as absent")
	}
	gotOut := r.Outputs()
	wantOut := []Output{
		{Name: "OutT", Value: "t", Condition: "T"},
		{Name: "OutU", Value: "u", Condition: "U", ConditionUnknown: true},
		{Name: "Plain", Value: "prod", ExportName: "s-env"},
	}
	if diff := cmp.Diff(gotOut, wantOut); diff != "" {
		t.Errorf("outputs (-got +want)\n%s", diff)
	}
}

func TestResourcesAndPasses(t *testing.T) {
	tpl := mustParse(t, `
Parameters:
  Env: {Type: String, Default: dev}
  Password: {Type: String, NoEcho: true}
  Free: {Type: String}
Conditions:
  U: !Equals [!Ref Free, x]
Resources:
  Key: {Type: AWS::KMS::Key}
  Topic:
    Type: AWS::SNS::Topic
    Metadata: {aws:cdk:path: App/Topic/Resource}
    Properties:
      TopicName: !Sub '${Env}-topic'
      KmsMasterKeyId: !GetAtt Key.Arn
      Tags:
        - {Key: keyref, Value: !Sub '${Key.KeyId}'}
        - {Key: maybe, Value: !If [U, a, !Ref 'AWS::NoValue']}
  Secret:
    Type: AWS::SecretsManager::Secret
    Properties:
      SecretString: !Sub '{"password":"${Password}"}'
  Whole:
    Type: AWS::SNS::Topic
    Properties:
      Fn::If: [U, {TopicName: a}, {TopicName: b}]
`)
	c := Context{Region: "us-east-1", Parameters: map[string]string{"Password": "pw-plain"}}
	r := New(tpl, c)

	topic, ok := r.Resource("Topic")
	if !ok {
		t.Fatal("Topic missing")
	}
	wantPass1 := Resource{
		LogicalID: "Topic", Type: "AWS::SNS::Topic", ConstructPath: "App/Topic/Resource",
		Properties: map[string]any{
			"TopicName":      "dev-topic",
			"KmsMasterKeyId": unk,
			"Tags": []any{
				map[string]any{"Key": "keyref", "Value": unk},
				map[string]any{"Key": "maybe", "Value": unk},
			},
		},
	}
	if diff := cmp.Diff(topic, wantPass1, sameUnknown); diff != "" {
		t.Errorf("pass 1 (-got +want)\n%s", diff)
	}

	if diff := cmp.Diff(GetAttTargets(tpl.Resources["Topic"].Properties), []string{"Key"}); diff != "" {
		t.Errorf("GetAttTargets (-got +want)\n%s", diff)
	}

	r2 := r.WithLiveAttrs(map[string]map[string]any{"Key": {"Arn": "arn:key", "KeyId": "k-1"}})
	topic2, _ := r2.Resource("Topic")
	wantPass2 := map[string]any{
		"TopicName":      "dev-topic",
		"KmsMasterKeyId": "arn:key",
		"Tags": []any{
			map[string]any{"Key": "keyref", "Value": "k-1"},
			map[string]any{"Key": "maybe", "Value": unk},
		},
	}
	if diff := cmp.Diff(topic2.Properties, wantPass2, sameUnknown); diff != "" {
		t.Errorf("pass 2 (-got +want)\n%s", diff)
	}
	if _, still := findUnknown(topic.Properties["KmsMasterKeyId"]); !still {
		t.Error("WithLiveAttrs changed the pass-1 resolver")
	}

	whole, _ := r.Resource("Whole")
	if whole.Unresolved == nil || len(whole.Properties) != 0 {
		t.Errorf("Whole: got Unresolved %v, Properties %v; want an unresolved bag", whole.Unresolved, whole.Properties)
	}

	secret, _ := r.Resource("Secret")
	want := drift.Secret{Value: `{"password":"pw-plain"}`}
	if diff := cmp.Diff(secret.Properties["SecretString"], any(want)); diff != "" {
		t.Errorf("SecretString (-got +want)\n%s", diff)
	}
	b, err := json.Marshal(r.Resources())
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(b), "pw-plain") {
		t.Errorf("resolved resources leak the NoEcho value in JSON: %s", b)
	}
	if !strings.Contains(string(b), drift.Redacted) {
		t.Errorf("resolved resources JSON has no redaction marker: %s", b)
	}
}

func TestGetAttTargets(t *testing.T) {
	raw := map[string]any{
		"A": map[string]any{"Fn::GetAtt": []any{"Role", "Arn"}},
		"B": map[string]any{"Fn::GetAtt": "Queue.QueueName"},
		"C": map[string]any{"Fn::Sub": "${Bucket.Arn}/${Env}/${!Lit.eral}"},
		"D": map[string]any{"Fn::Sub": []any{"${Local.Name}-${Fn.Arn}", map[string]any{
			"Local.Name": "x",
			"Other":      map[string]any{"Fn::GetAtt": []any{"Inner", "Id"}},
		}}},
		"E": []any{map[string]any{"Fn::GetAtt": []any{"Role", "RoleId"}}},
		"F": map[string]any{"Ref": "NotAGetAtt"},
	}
	want := []string{"Bucket", "Fn", "Inner", "Queue", "Role"}
	if diff := cmp.Diff(GetAttTargets(raw), want); diff != "" {
		t.Errorf("(-got +want)\n%s", diff)
	}
}

func TestUsesImportValueAndStackOutputRefs(t *testing.T) {
	with := mustParse(t, `
Resources:
  S:
    Type: AWS::SNS::Subscription
    Properties:
      TopicArn: !ImportValue {Fn::Sub: '${Shared}-Topic'}
      Endpoint: {Fn::GetStackOutput: {StackName: producer, OutputName: Queue}}
      Other: {Fn::GetStackOutput: {StackName: producer, OutputName: Key, Region: EU-WEST-1}}
      Dup: {Fn::GetStackOutput: {StackName: producer, OutputName: Queue}}
      Built: {Fn::GetStackOutput: {StackName: !Ref AWS::StackName, OutputName: X}}
`)
	without := mustParse(t, `
Resources:
  S: {Type: AWS::SNS::Topic, Properties: {TopicName: '!ImportValue is text here'}}
`)
	if !UsesImportValue(with) {
		t.Error("UsesImportValue missed !ImportValue")
	}
	if UsesImportValue(without) {
		t.Error("UsesImportValue matched plain text")
	}
	got := StackOutputRefs(with)
	want := []StackOutputRef{{StackName: "producer", OutputName: "Key", Region: "eu-west-1"}, {StackName: "producer", OutputName: "Queue"}}
	sortRefs := cmp.Transformer("sort", func(in []StackOutputRef) []StackOutputRef {
		out := append([]StackOutputRef(nil), in...)
		for i := range out {
			for j := i + 1; j < len(out); j++ {
				if out[j].OutputName < out[i].OutputName {
					out[i], out[j] = out[j], out[i]
				}
			}
		}
		return out
	})
	if diff := cmp.Diff(got, want, sortRefs); diff != "" {
		t.Errorf("StackOutputRefs (-got +want)\n%s", diff)
	}
}
