package classify

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/realdrift/realdrift/internal/drift"
	"github.com/realdrift/realdrift/internal/normalize"
	"github.com/realdrift/realdrift/internal/schema"
)

// brief renders findings as "tier path actual" lines for compact diffs.
func brief(fs []drift.Finding) []string {
	out := make([]string, 0, len(fs))
	for _, f := range fs {
		s := f.Tier.String() + " " + f.Path
		if f.Actual != nil {
			b, _ := json.Marshal(f.Actual)
			s += " " + string(b)
		}
		if f.Desired != nil {
			b, _ := json.Marshal(f.Desired)
			s += " want " + string(b)
		}
		if f.AttributeKey != "" {
			s += " key " + f.AttributeKey
		}
		out = append(out, s)
	}
	return out
}

func TestTiers(t *testing.T) {
	empty := &KnownTable{}
	tests := []struct {
		name     string
		typ      string
		pid      string
		declared map[string]any
		live     map[string]any
		facts    schema.Facts
		want     []string
	}{
		{
			name:     "declared scalar contradicted",
			typ:      "AWS::Lambda::Function",
			declared: map[string]any{"MemorySize": 256.0},
			live:     map[string]any{"MemorySize": 512.0},
			want:     []string{"declared MemorySize 512 want 256"},
		},
		{
			name:     "stringly-typed scalar folds",
			typ:      "AWS::Lambda::Function",
			declared: map[string]any{"MemorySize": 256.0},
			live:     map[string]any{"MemorySize": "256"},
			want:     []string{},
		},
		{
			name:     "declared collection absent from live is drift",
			typ:      "AWS::Lambda::Function",
			declared: map[string]any{"Environment": map[string]any{"Variables": map[string]any{"A": "b"}}},
			live:     map[string]any{},
			want:     []string{`declared Environment want {"Variables":{"A":"b"}}`},
		},
		{
			name:     "declared scalar not echoed is a read gap",
			typ:      "AWS::Redshift::Cluster",
			declared: map[string]any{"Port": 5439.0},
			live:     map[string]any{},
			want:     []string{"readGap Port"},
		},
		{
			name:     "write-only declared value is a read gap",
			typ:      "AWS::RDS::DBInstance",
			declared: map[string]any{"MasterUserPassword": "x"},
			live:     map[string]any{},
			facts:    schema.Facts{WriteOnly: []string{"MasterUserPassword"}},
			want:     []string{"readGap MasterUserPassword"},
		},
		{
			name:     "unresolved declared value",
			typ:      "AWS::EC2::Instance",
			declared: map[string]any{"AvailabilityZone": drift.Unknown{Reason: "Fn::GetAZs"}},
			live:     map[string]any{"AvailabilityZone": "us-east-1a"},
			want:     []string{"unresolved AvailabilityZone"},
		},
		{
			name:  "schema default folds, equality-gated",
			typ:   "AWS::IAM::Role",
			live:  map[string]any{"Path": "/", "MaxSessionDuration": 7200.0},
			facts: schema.Facts{Defaults: map[string]any{"Path": "/"}},
			want:  []string{"undeclared MaxSessionDuration 7200", `atDefault Path "/"`},
		},
		{
			name:  "value moved off its schema default surfaces",
			typ:   "AWS::IAM::Role",
			live:  map[string]any{"Path": "/ops/"},
			facts: schema.Facts{Defaults: map[string]any{"Path": "/"}},
			want:  []string{`undeclared Path "/ops/"`},
		},
		{
			name: "noise is dropped: empties, physical-id echo, aws tags",
			typ:  "AWS::SQS::Queue",
			pid:  "q-1",
			live: map[string]any{"Empty": "", "Off": false, "None": []any{}, "Url": "q-1",
				"Tags": []any{map[string]any{"Key": "aws:cloudformation:stack-name", "Value": "S"}}},
			want: []string{},
		},
		{
			name: "auto-name and ARN name segment are generated",
			typ:  "AWS::SNS::Topic",
			pid:  "arn:aws:sns:us-east-1:111111111111:Stack-TopicABC12345-AbCdEfGh1234",
			live: map[string]any{"TopicName": "Stack-TopicABC12345-AbCdEfGh1234",
				"Tags": []any{map[string]any{"Key": "aws:cloudformation:stack-name", "Value": "Stack"}}},
			want: []string{`generated TopicName "Stack-TopicABC12345-AbCdEfGh1234"`},
		},
		{
			name: "a name that is not minted for this resource surfaces",
			typ:  "AWS::SNS::Topic",
			pid:  "arn:aws:sns:us-east-1:111111111111:Stack-TopicABC12345-AbCdEfGh1234",
			live: map[string]any{"DisplayName": "Other-Name-AbCdEfGh1234"},
			want: []string{`undeclared DisplayName "Other-Name-AbCdEfGh1234"`},
		},
		{
			name:     "nested sub-key inside a declared object",
			typ:      "AWS::ApiGateway::Method",
			declared: map[string]any{"Integration": map[string]any{"Type": "AWS"}},
			live:     map[string]any{"Integration": map[string]any{"Type": "AWS", "PassthroughBehavior": "NEVER"}},
			want:     []string{`undeclared Integration.PassthroughBehavior "NEVER"`},
		},
		{
			name:     "attribute bag: declared key compared, live-only keys per key",
			typ:      "AWS::ElasticLoadBalancingV2::LoadBalancer",
			declared: map[string]any{"LoadBalancerAttributes": []any{map[string]any{"Key": "idle_timeout.timeout_seconds", "Value": "120"}}},
			live: map[string]any{"LoadBalancerAttributes": []any{
				map[string]any{"Key": "idle_timeout.timeout_seconds", "Value": "300"},
				map[string]any{"Key": "routing.http2.enabled", "Value": "false"},
			}},
			want: []string{`declared LoadBalancerAttributes "300" want "120" key idle_timeout.timeout_seconds`,
				`undeclared LoadBalancerAttributes[routing.http2.enabled] "false"`},
		},
		{
			name:     "identity-keyed element sub-key",
			typ:      "AWS::CloudFront::Distribution",
			declared: map[string]any{"Origins": []any{map[string]any{"Id": "o1", "DomainName": "a"}, map[string]any{"Id": "o2", "DomainName": "b"}}},
			live: map[string]any{"Origins": []any{map[string]any{"Id": "o2", "DomainName": "b"},
				map[string]any{"Id": "o1", "DomainName": "a", "OriginPath": "/x"}}},
			want: []string{`undeclared Origins[o1].OriginPath "/x"`},
		},
		{
			name:     "identity-less object set in another order folds",
			typ:      "AWS::EC2::SecurityGroup",
			declared: map[string]any{"SecurityGroupIngress": []any{map[string]any{"CidrIp": "10.0.0.0/8", "FromPort": 22.0}, map[string]any{"CidrIp": "0.0.0.0/0", "FromPort": 443.0}}},
			live:     map[string]any{"SecurityGroupIngress": []any{map[string]any{"CidrIp": "0.0.0.0/0", "FromPort": 443.0, "ToPort": 443.0}, map[string]any{"CidrIp": "10.0.0.0/8", "FromPort": 22.0}}},
			want:     []string{},
		},
		{
			name:     "identity-less object set with a changed rule surfaces",
			typ:      "AWS::EC2::SecurityGroup",
			declared: map[string]any{"SecurityGroupIngress": []any{map[string]any{"CidrIp": "10.0.0.0/8", "FromPort": 22.0}}},
			live:     map[string]any{"SecurityGroupIngress": []any{map[string]any{"CidrIp": "0.0.0.0/0", "FromPort": 22.0}}},
			want:     []string{`declared SecurityGroupIngress [{"CidrIp":"0.0.0.0/0","FromPort":22}] want [{"CidrIp":"10.0.0.0/8","FromPort":22}]`},
		},
		{
			name: "re-cased free-form map keys fold",
			typ:  "AWS::DataBrew::Recipe",
			declared: map[string]any{"Steps": []any{map[string]any{"Action": map[string]any{
				"Operation": "UPPER_CASE", "Parameters": map[string]any{"sourceColumn": "name"}}}}},
			live: map[string]any{"Steps": []any{map[string]any{"Action": map[string]any{
				"Operation": "UPPER_CASE", "Parameters": map[string]any{"SourceColumn": "name"}}}}},
			want: []string{},
		},
		{
			name: "re-cased key with a changed value surfaces",
			typ:  "AWS::DataBrew::Recipe",
			declared: map[string]any{"Steps": []any{map[string]any{"Action": map[string]any{
				"Operation": "UPPER_CASE", "Parameters": map[string]any{"sourceColumn": "name"}}}}},
			live: map[string]any{"Steps": []any{map[string]any{"Action": map[string]any{
				"Operation": "UPPER_CASE", "Parameters": map[string]any{"SourceColumn": "email"}}}}},
			want: []string{`declared Steps [{"Action":{"Operation":"UPPER_CASE","Parameters":{"SourceColumn":"email"}}}] want [{"Action":{"Operation":"UPPER_CASE","Parameters":{"sourceColumn":"name"}}}]`},
		},
		{
			name:     "name/value subset: live-only pairs are inventory by name",
			typ:      "AWS::Redshift::ClusterParameterGroup",
			declared: map[string]any{"Parameters": []any{map[string]any{"ParameterName": "require_ssl", "ParameterValue": "true"}}},
			live: map[string]any{"Parameters": []any{
				map[string]any{"ParameterName": "max_connections", "ParameterValue": "500"},
				map[string]any{"ParameterName": "require_ssl", "ParameterValue": "true"},
			}},
			want: []string{`undeclared Parameters[max_connections] {"ParameterName":"max_connections","ParameterValue":"500"}`},
		},
		{
			name:     "name/value subset: a changed declared pair surfaces",
			typ:      "AWS::Redshift::ClusterParameterGroup",
			declared: map[string]any{"Parameters": []any{map[string]any{"ParameterName": "require_ssl", "ParameterValue": "true"}}},
			live:     map[string]any{"Parameters": []any{map[string]any{"ParameterName": "require_ssl", "ParameterValue": "false"}}},
			want:     []string{`declared Parameters.0.ParameterValue "false" want "true"`},
		},
		{
			name:     "name declared, ARN read back",
			typ:      "AWS::Lambda::EventSourceMapping",
			declared: map[string]any{"FunctionName": "fn"},
			live:     map[string]any{"FunctionName": "arn:aws:lambda:us-east-1:111111111111:function:fn"},
			want:     []string{},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			pid := tt.pid
			if pid == "" {
				pid = "pid-1"
			}
			s := Subject{Ref: drift.ResourceRef{LogicalID: "R", Type: tt.typ, PhysicalID: pid}, Declared: tt.declared}
			got := brief(Resource(s, tt.live, &tt.facts, Options{AccountID: "111111111111", Region: "us-east-1", Known: empty}))
			if d := cmp.Diff(got, tt.want); d != "" {
				t.Errorf("findings (-got +want):\n%s", d)
			}
		})
	}
}

func TestKnownValuesAreEqualityGated(t *testing.T) {
	table, err := NewKnownTable([]KnownValue{
		{Type: "AWS::SQS::Queue", Path: "VisibilityTimeout", Tier: "atDefault", Value: "30"},
		{Type: "AWS::Lambda::Function", Path: "LoggingConfig", Tier: "generated", Value: `{"LogFormat":"Text","LogGroup":"/aws/lambda/⟨pid⟩"}`},
	})
	if err != nil {
		t.Fatal(err)
	}
	opts := Options{Known: table}
	q := Subject{Ref: drift.ResourceRef{Type: "AWS::SQS::Queue", PhysicalID: "q"}}
	if got := brief(Resource(q, map[string]any{"VisibilityTimeout": 30.0}, nil, opts)); !cmp.Equal(got, []string{"atDefault VisibilityTimeout 30"}) {
		t.Errorf("default not folded: %v", got)
	}
	if got := brief(Resource(q, map[string]any{"VisibilityTimeout": 31.0}, nil, opts)); !cmp.Equal(got, []string{"undeclared VisibilityTimeout 31"}) {
		t.Errorf("moved default not surfaced: %v", got)
	}
	fn := Subject{Ref: drift.ResourceRef{Type: "AWS::Lambda::Function", PhysicalID: "Stack-Fn-AbC"}}
	own := map[string]any{"LoggingConfig": map[string]any{"LogFormat": "Text", "LogGroup": "/aws/lambda/Stack-Fn-AbC"}}
	if got := brief(Resource(fn, own, nil, opts)); len(got) != 1 || !strings.HasPrefix(got[0], "generated LoggingConfig") {
		t.Errorf("own log group not generated: %v", got)
	}
	other := map[string]any{"LoggingConfig": map[string]any{"LogFormat": "Text", "LogGroup": "/aws/lambda/shared"}}
	if got := brief(Resource(fn, other, nil, opts)); len(got) != 1 || !strings.HasPrefix(got[0], "undeclared LoggingConfig") {
		t.Errorf("redirected log group not surfaced: %v", got)
	}
}

func TestSiblingSgRules(t *testing.T) {
	s := Subject{Ref: drift.ResourceRef{Type: "AWS::EC2::SecurityGroup", PhysicalID: "sg-1"},
		Declared: map[string]any{"SecurityGroupIngress": []any{map[string]any{"CidrIp": "10.0.0.0/8", "IpProtocol": "tcp", "FromPort": 22.0, "ToPort": 22.0}}}}
	live := map[string]any{"SecurityGroupIngress": []any{
		map[string]any{"CidrIp": "10.0.0.0/8", "IpProtocol": "tcp", "FromPort": 22.0, "ToPort": 22.0},
		map[string]any{"SourceSecurityGroupId": "sg-2", "IpProtocol": "tcp", "FromPort": 5432.0, "ToPort": 5432.0},
	}}
	sib := map[string]any{"siblingSgRules": map[string]any{"sg-1": []any{
		map[string]any{"SourceSecurityGroupId": "sg-2", "IpProtocol": "tcp", "FromPort": "5432", "ToPort": "5432"}}}}
	opts := OptionsFromMap(sib)
	opts.Known = &KnownTable{}
	if got := brief(Resource(s, live, nil, opts)); len(got) != 0 {
		t.Errorf("a sibling-owned rule surfaced: %v", got)
	}
	rogue := normalize.Clone(live).(map[string]any)
	rogue["SecurityGroupIngress"] = append(rogue["SecurityGroupIngress"].([]any),
		map[string]any{"CidrIp": "0.0.0.0/0", "IpProtocol": "tcp", "FromPort": 22.0, "ToPort": 22.0})
	if got := brief(Resource(s, rogue, nil, opts)); len(got) != 1 || !strings.HasPrefix(got[0], "declared SecurityGroupIngress") {
		t.Errorf("a rogue rule next to sibling rules must surface: %v", got)
	}
}

func TestKMSKeyTemplatesStayLiteral(t *testing.T) {
	ctx := TemplateContext{AccountID: "111111111111", Region: "us-east-1"}
	managed := "arn:aws:kms:us-east-1:111111111111:key/9ee8feba-0000-4000-8000-000000000001"
	swapped := "arn:aws:kms:us-east-1:111111111111:key/1234abcd-0000-4000-8000-000000000002"
	if Template(managed, ctx) == Template(swapped, ctx) {
		t.Error("two different KMS keys render to one template: a key swap would fold")
	}
	subnetA, subnetB := []any{"subnet-0aaaaaaaaaaaaaaaa"}, []any{"subnet-0bbbbbbbbbbbbbbbb"}
	if Template(subnetA, ctx) == Template(subnetB, ctx) {
		t.Error("two subnets render to one template: a swap would fold")
	}
}

func TestDefaultObjectFieldsFoldOneByOne(t *testing.T) {
	table, err := NewKnownTable([]KnownValue{{Type: "AWS::ECS::Service", Path: "DeploymentConfiguration", Tier: "atDefault",
		Value: `{"MaximumPercent":200,"MinimumHealthyPercent":100}`}})
	if err != nil {
		t.Fatal(err)
	}
	s := Subject{Ref: drift.ResourceRef{Type: "AWS::ECS::Service", PhysicalID: "svc"},
		Declared: map[string]any{"DeploymentConfiguration": map[string]any{"MinimumHealthyPercent": 50.0}}}
	opts := Options{Known: table}
	live := map[string]any{"DeploymentConfiguration": map[string]any{"MinimumHealthyPercent": 50.0, "MaximumPercent": 200.0}}
	if got := brief(Resource(s, live, nil, opts)); !cmp.Equal(got, []string{"atDefault DeploymentConfiguration.MaximumPercent 200"}) {
		t.Errorf("default field not folded: %v", got)
	}
	live["DeploymentConfiguration"].(map[string]any)["MaximumPercent"] = 400.0
	if got := brief(Resource(s, live, nil, opts)); !cmp.Equal(got, []string{"undeclared DeploymentConfiguration.MaximumPercent 400"}) {
		t.Errorf("changed field not surfaced: %v", got)
	}
}

func TestSwitchedOffSurfaces(t *testing.T) {
	table, err := NewKnownTable([]KnownValue{
		{Type: "AWS::ECS::Service", Path: "EnableECSManagedTags", Tier: "atDefault", Value: "true"},
		{Type: "AWS::Lambda::EventSourceMapping", Path: "Enabled", Tier: "atDefault", Value: "true"},
		{Type: "AWS::Lambda::EventSourceMapping", Path: "Enabled", Tier: "silent", Value: "false"},
	})
	if err != nil {
		t.Fatal(err)
	}
	opts := Options{Known: table}
	svc := Subject{Ref: drift.ResourceRef{Type: "AWS::ECS::Service", PhysicalID: "svc"}}
	if got := brief(Resource(svc, map[string]any{"EnableECSManagedTags": false}, nil, opts)); !cmp.Equal(got, []string{"undeclared EnableECSManagedTags false"}) {
		t.Errorf("a default switched off must surface: %v", got)
	}
	esm := Subject{Ref: drift.ResourceRef{Type: "AWS::Lambda::EventSourceMapping", PhysicalID: "esm"}}
	if got := brief(Resource(esm, map[string]any{"Enabled": false}, nil, opts)); len(got) != 0 {
		t.Errorf("an off the corpus shows legitimate must stay silent: %v", got)
	}
}

func TestMintedNameInPhysicalIDIsExact(t *testing.T) {
	q := Subject{Ref: drift.ResourceRef{Type: "AWS::SQS::Queue", LogicalID: "Dlq",
		PhysicalID: "https://sqs.us-east-1.amazonaws.com/111111111111/Stack-Dlq-JVro9NWZxliC"}}
	opts := Options{Known: &KnownTable{}, StackName: "Stack"}
	if got := brief(Resource(q, map[string]any{"QueueName": "Stack-Dlq-JVro9NWZxliC"}, nil, opts)); len(got) != 1 || !strings.HasPrefix(got[0], "generated") {
		t.Errorf("own name not generated: %v", got)
	}
	if got := brief(Resource(q, map[string]any{"QueueName": "Stack-Dlq-JVro9NWZxliD"}, nil, opts)); len(got) != 1 || !strings.HasPrefix(got[0], "undeclared") {
		t.Errorf("a different name of the same shape must surface: %v", got)
	}
}

func TestSecretsNeverInFindings(t *testing.T) {
	s := Subject{
		Ref: drift.ResourceRef{Type: "AWS::RDS::DBInstance", PhysicalID: "db"},
		Declared: map[string]any{
			"MasterUsername": drift.Secret{Value: "admin"},
			"Settings":       map[string]any{"Password": drift.Secret{Value: "hunter2"}},
			"Token":          drift.Unknown{Secret: true},
		},
	}
	live := map[string]any{"MasterUsername": "root", "Settings": map[string]any{"Password": "other"}}
	fs := Resource(s, live, nil, Options{Known: &KnownTable{}})
	b, err := json.Marshal(fs)
	if err != nil {
		t.Fatal(err)
	}
	for _, secret := range []string{"admin", "hunter2"} {
		if strings.Contains(string(b), secret) {
			t.Errorf("secret %q leaked: %s", secret, b)
		}
	}
	if !strings.Contains(string(b), drift.Redacted) {
		t.Errorf("no redacted value in %s", b)
	}
}

func TestInputsNotModified(t *testing.T) {
	declared := map[string]any{
		"Tags":  []any{map[string]any{"Key": "b", "Value": "1"}, map[string]any{"Key": "a", "Value": "2"}},
		"Rules": []any{map[string]any{"Secret": "s", "Set": []any{"z", "a"}}},
	}
	live := map[string]any{
		"Tags":         []any{map[string]any{"Key": "aws:cloudformation:stack-name", "Value": "S"}},
		"CreationTime": "t",
		"Rules":        []any{map[string]any{"Secret": "s", "Set": []any{"z", "a"}, "Id": "r"}},
		"Status":       map[string]any{"State": "ok", "Keep": "k"},
	}
	facts := &schema.Facts{
		ReadOnlyPaths:        []string{"Status.State"},
		WriteOnlyPaths:       []string{"Rules.*.Secret"},
		UnorderedScalarPaths: []string{"Rules.*.Set"},
	}
	d0, _ := json.Marshal(declared)
	l0, _ := json.Marshal(live)
	Resource(Subject{Ref: drift.ResourceRef{Type: "AWS::SQS::Queue"}, Declared: declared}, live, facts, Options{})
	d1, _ := json.Marshal(declared)
	l1, _ := json.Marshal(live)
	if string(d0) != string(d1) || string(l0) != string(l1) {
		t.Error("Resource modified its inputs")
	}
}

// FuzzResource feeds random live and declared models: the classifier must
// never panic, and every finding must marshal.
func FuzzResource(f *testing.F) {
	f.Add([]byte(`{"A":1,"Tags":[{"Key":"aws:x","Value":"y"}]}`), []byte(`{"A":2}`))
	f.Add([]byte(`{"LoadBalancerAttributes":[{"Key":"k","Value":"v"}],"P":{"Statement":[{"Effect":"Allow"}]}}`), []byte(`{"LoadBalancerAttributes":[]}`))
	f.Add([]byte(`{"X":[null,{"Id":"a"},{"Id":"a"}],"Y":"{\"a\":1}"}`), []byte(`{"X":[{"Id":"a","B":[1,2]}],"Y":{"a":"1"}}`))
	f.Fuzz(func(t *testing.T, liveJSON, declJSON []byte) {
		var live, decl map[string]any
		if json.Unmarshal(liveJSON, &live) != nil || json.Unmarshal(declJSON, &decl) != nil {
			return
		}
		l0, _ := json.Marshal(live)
		d0, _ := json.Marshal(decl)
		for _, typ := range []string{"AWS::IAM::Role", "AWS::ElasticLoadBalancingV2::TargetGroup", "AWS::Cognito::UserPool", "AWS::Unknown::Type"} {
			s := Subject{Ref: drift.ResourceRef{Type: typ, PhysicalID: "p"}, Declared: decl, SiblingPolicyNames: []string{"p"}}
			facts := &schema.Facts{ReadOnly: []string{"A"}, ReadOnlyPaths: []string{"Y.Z", "X.*.C"}, WriteOnlyPaths: []string{"X.*.B"},
				UnorderedScalarPaths: []string{"X", "Y.S"}, UnorderedObjectArrayPaths: []string{"X.*.O"}}
			fs := Resource(s, live, facts, OptionsFromMap(map[string]any{"accountId": "111111111111", "stackTags": map[string]any{"a": "b"}}))
			if _, err := json.Marshal(fs); err != nil {
				t.Fatalf("finding does not marshal: %v", err)
			}
		}
		l1, _ := json.Marshal(live)
		d1, _ := json.Marshal(decl)
		if string(l0) != string(l1) || string(d0) != string(d1) {
			t.Fatalf("inputs modified:\nlive %s\n  -> %s\ndecl %s\n  -> %s", l0, l1, d0, d1)
		}
	})
}

func TestServiceRowsHoldForTypesWithoutTheirOwn(t *testing.T) {
	// A service the imported facts do not cover, so only this table speaks.
	table, err := NewKnownTable([]KnownValue{
		{Type: "AWS::Example::*", Path: "PricingPlan", Tier: "atDefault", Value: `"RequestBasedUsage"`},
		{Type: "AWS::Example::Tracker", Path: "PricingPlan", Tier: "atDefault", Value: `"MobileAssetTracking"`},
	})
	if err != nil {
		t.Fatal(err)
	}
	opts := Options{Known: table}
	tests := []struct {
		name, typ, value string
		want             []string
	}{
		{"service default on a type without its own", "AWS::Example::Map", "RequestBasedUsage", []string{`atDefault PricingPlan "RequestBasedUsage"`}},
		{"moved away from the service default", "AWS::Example::Map", "MobileAssetTracking", []string{`undeclared PricingPlan "MobileAssetTracking"`}},
		{"the type's own default wins", "AWS::Example::Tracker", "RequestBasedUsage", []string{`undeclared PricingPlan "RequestBasedUsage"`}},
		{"another service", "AWS::MediaConvert::Queue", "RequestBasedUsage", []string{`undeclared PricingPlan "RequestBasedUsage"`}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := Subject{Ref: drift.ResourceRef{Type: tt.typ, PhysicalID: "x"}}
			got := brief(Resource(s, map[string]any{"PricingPlan": tt.value}, nil, opts))
			if d := cmp.Diff(got, tt.want); d != "" {
				t.Errorf("findings (-got +want):\n%s", d)
			}
		})
	}
}

func TestServiceOf(t *testing.T) {
	for in, want := range map[string]string{"AWS::RDS::DBInstance": "AWS::RDS::*", "Custom::Thing": "Custom::*", "x": "x"} {
		if got := ServiceOf(in); got != want {
			t.Errorf("ServiceOf(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestNestedServiceRows(t *testing.T) {
	table, err := NewKnownTable([]KnownValue{
		{Type: "AWS::SageMaker::*", Path: "PrimaryContainer.Mode", Tier: "atDefault", Value: `"SingleModel"`},
	})
	if err != nil {
		t.Fatal(err)
	}
	s := Subject{Ref: drift.ResourceRef{Type: "AWS::SageMaker::Model", PhysicalID: "m"},
		Declared: map[string]any{"PrimaryContainer": map[string]any{"Image": "img"}}}
	for _, tt := range []struct {
		mode string
		want []string
	}{
		{"SingleModel", []string{`atDefault PrimaryContainer.Mode "SingleModel"`}},
		{"MultiModel", []string{`undeclared PrimaryContainer.Mode "MultiModel"`}},
	} {
		t.Run(tt.mode, func(t *testing.T) {
			live := map[string]any{"PrimaryContainer": map[string]any{"Image": "img", "Mode": tt.mode}}
			got := brief(Resource(s, live, nil, Options{Known: table}))
			if d := cmp.Diff(got, tt.want); d != "" {
				t.Errorf("findings (-got +want):\n%s", d)
			}
		})
	}
}

// TestSecretInMap holds the pair for an object holding a secret: the
// secret stays unresolved (never drift, never plaintext), and a changed
// sibling key surfaces as declared drift.
func TestSecretInMap(t *testing.T) {
	token := drift.Unknown{Reason: "secret-bearing dynamic reference is resolved only at deploy time", Secret: true}
	withheld := drift.Unknown{Reason: "withheld from storage", Secret: true}
	env := func(vars map[string]any) map[string]any {
		return map[string]any{"Environment": map[string]any{"Variables": vars}, "MemorySize": 128.0}
	}
	const plaintext = "tok-PLANTED-0123456789"
	tests := []struct {
		name     string
		declared map[string]any
		live     map[string]any
		want     []string
	}{{
		name:     "the secret stays quiet",
		declared: env(map[string]any{"TOKEN": token, "LEVEL": "info"}),
		live:     env(map[string]any{"TOKEN": plaintext, "LEVEL": "info"}),
		want:     []string{"unresolved Environment.Variables.TOKEN"},
	}, {
		name:     "a changed sibling surfaces",
		declared: env(map[string]any{"TOKEN": token, "LEVEL": "info"}),
		live:     env(map[string]any{"TOKEN": plaintext, "LEVEL": "debug"}),
		want:     []string{`declared Environment.Variables.LEVEL "debug" want "info"`, "unresolved Environment.Variables.TOKEN"},
	}, {
		name:     "a changed sibling surfaces against a withheld live secret",
		declared: env(map[string]any{"TOKEN": token, "LEVEL": "info"}),
		live:     env(map[string]any{"TOKEN": withheld, "LEVEL": "debug"}),
		want:     []string{`declared Environment.Variables.LEVEL "debug" want "info"`, "unresolved Environment.Variables.TOKEN"},
	}, {
		name:     "a live-only sibling is inventory",
		declared: env(map[string]any{"TOKEN": token}),
		live:     env(map[string]any{"TOKEN": plaintext, "EXTRA": "x"}),
		want:     []string{"undeclared Environment.Variables.EXTRA \"x\"", "unresolved Environment.Variables.TOKEN"},
	}, {
		name:     "a secret absent from live stays unresolved",
		declared: env(map[string]any{"TOKEN": token, "LEVEL": "info"}),
		live:     env(map[string]any{"LEVEL": "info"}),
		want:     []string{"unresolved Environment.Variables.TOKEN"},
	}, {
		name: "a non-secret unknown beside the secret is unresolved at its own path",
		declared: env(map[string]any{"TOKEN": token, "AZ": drift.Unknown{Reason: "Fn::GetAZs is environment-dependent"},
			"LEVEL": "info"}),
		live: env(map[string]any{"TOKEN": plaintext, "AZ": "us-east-1a", "LEVEL": "debug"}),
		want: []string{`declared Environment.Variables.LEVEL "debug" want "info"`,
			"unresolved Environment.Variables.AZ", "unresolved Environment.Variables.TOKEN"},
	}, {
		name:     "a supplied NoEcho value that differs is drift, both sides redacted",
		declared: env(map[string]any{"TOKEN": drift.Secret{Value: "old-" + plaintext}, "LEVEL": "info"}),
		live:     env(map[string]any{"TOKEN": plaintext, "LEVEL": "info"}),
		want:     []string{`declared Environment.Variables.TOKEN "****REDACTED****" want "****REDACTED****"`},
	}, {
		name:     "a map without a secret is still unresolved as a whole",
		declared: env(map[string]any{"AZ": drift.Unknown{Reason: "Fn::GetAZs is environment-dependent"}, "LEVEL": "info"}),
		live:     env(map[string]any{"AZ": "us-east-1a", "LEVEL": "debug"}),
		want:     []string{"unresolved Environment"},
	}}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s := Subject{Ref: drift.ResourceRef{LogicalID: "Fn", Type: "AWS::Lambda::Function", PhysicalID: "fn"}, Declared: tc.declared}
			fs := Resource(s, tc.live, &schema.Facts{}, Options{Known: &KnownTable{}})
			if diff := cmp.Diff(brief(fs), tc.want); diff != "" {
				t.Errorf("findings (-got +want):\n%s", diff)
			}
			b, err := json.Marshal(fs)
			if err != nil {
				t.Fatal(err)
			}
			if strings.Contains(string(b), plaintext) {
				t.Errorf("plaintext in findings: %s", b)
			}
		})
	}
}

// TestSecretPlaintextScrubbed holds that the plaintext a live model holds at
// a secret's place never reaches a finding from another path of the
// resource, and that a withheld live value reads as the report's string.
func TestSecretPlaintextScrubbed(t *testing.T) {
	const plaintext = "nOeChO-PLANTED-424242"
	s := Subject{
		Ref: drift.ResourceRef{LogicalID: "Fn", Type: "AWS::Lambda::Function", PhysicalID: "fn"},
		Declared: map[string]any{"Environment": map[string]any{"Variables": map[string]any{
			"DB_PASSWORD": drift.Unknown{Reason: "NoEcho parameter DbPassword has no supplied value", Secret: true}}}},
	}
	tests := []struct {
		name string
		live map[string]any
		want []string
	}{{
		name: "an undeclared copy of the plaintext",
		live: map[string]any{"Environment": map[string]any{"Variables": map[string]any{"DB_PASSWORD": plaintext}},
			"Description": "rotated from " + plaintext},
		want: []string{`undeclared Description "****REDACTED****"`, "unresolved Environment.Variables.DB_PASSWORD"},
	}, {
		name: "a withheld live value",
		live: map[string]any{"Environment": map[string]any{"Variables": map[string]any{
			"DB_PASSWORD": drift.Unknown{Reason: "withheld from storage", Secret: true}}},
			"Description": drift.Unknown{Reason: "withheld from storage", Secret: true}},
		want: []string{`undeclared Description "****REDACTED****"`, "unresolved Environment.Variables.DB_PASSWORD"},
	}}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			fs := Resource(s, tc.live, &schema.Facts{}, Options{Known: &KnownTable{}})
			if diff := cmp.Diff(brief(fs), tc.want); diff != "" {
				t.Errorf("findings (-got +want):\n%s", diff)
			}
			for _, f := range fs {
				if _, ok := f.Actual.(drift.Unknown); ok {
					t.Errorf("%s: actual is an Unknown, want the Redacted string", f.Path)
				}
			}
			b, _ := json.Marshal(fs)
			if strings.Contains(string(b), plaintext) {
				t.Errorf("plaintext in findings: %s", b)
			}
		})
	}
}

// A listener rule an ECS blue/green deployment governs: weights moved
// between its target groups stay quiet; any other change to an action (its
// type here) surfaces.
func TestBlueGreenGovernedActions(t *testing.T) {
	const blue, green = "arn:aws:elasticloadbalancing:us-east-1:111111111111:targetgroup/blue/1", "arn:aws:elasticloadbalancing:us-east-1:111111111111:targetgroup/green/2"
	s := Subject{Ref: drift.ResourceRef{LogicalID: "Rule", Type: "AWS::ElasticLoadBalancingV2::ListenerRule", PhysicalID: "rule-1"},
		Declared: map[string]any{"Actions": []any{map[string]any{"Type": "forward", "TargetGroupArn": blue}}}}
	shifted := func(typ string) map[string]any {
		return map[string]any{"Actions": []any{map[string]any{"Type": typ, "ForwardConfig": map[string]any{"TargetGroups": []any{
			map[string]any{"TargetGroupArn": green, "Weight": 100.0}, map[string]any{"TargetGroupArn": blue, "Weight": 0.0}}}}}}
	}
	opts := OptionsFromMap(map[string]any{"ecsBgGovernedListenerRules": map[string]any{"Rule": []any{blue, green}}})
	opts.Known = &KnownTable{}
	if got := brief(Resource(s, shifted("forward"), nil, opts)); len(got) != 0 {
		t.Errorf("weights the deployment moved surfaced: %v", got)
	}
	if got := brief(Resource(s, shifted("forwarded"), nil, opts)); len(got) == 0 {
		t.Error("a changed action type on a governed rule must surface")
	}
}

// A value AWS assigns per resource (a maintenance window) is atDefault
// whatever it is while undeclared; declared, it is compared as ever.
func TestAssignedValuesFoldOnlyUndeclared(t *testing.T) {
	const typ = "AWS::DAX::Cluster"
	if !Assigned(typ, "PreferredMaintenanceWindow") {
		t.Fatalf("%s PreferredMaintenanceWindow is not an assigned path; pick another", typ)
	}
	opts := Options{Known: &KnownTable{}}
	for _, w := range []string{"sun:04:00-sun:05:00", "wed:11:30-wed:12:30"} {
		s := Subject{Ref: drift.ResourceRef{Type: typ, PhysicalID: "c1"}}
		if got := brief(Resource(s, map[string]any{"PreferredMaintenanceWindow": w}, nil, opts)); len(got) != 1 || !strings.HasPrefix(got[0], "atDefault PreferredMaintenanceWindow") {
			t.Errorf("undeclared window %s: %v, want atDefault", w, got)
		}
	}
	s := Subject{Ref: drift.ResourceRef{Type: typ, PhysicalID: "c1"}, Declared: map[string]any{"PreferredMaintenanceWindow": "sun:04:00-sun:05:00"}}
	if got := brief(Resource(s, map[string]any{"PreferredMaintenanceWindow": "wed:11:30-wed:12:30"}, nil, opts)); len(got) != 1 || !strings.HasPrefix(got[0], "declared PreferredMaintenanceWindow") {
		t.Errorf("a declared window changed out of band: %v, want declared drift", got)
	}
}
