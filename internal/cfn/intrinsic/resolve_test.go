package intrinsic

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/realdrift/realdrift/internal/cfn"
	"github.com/realdrift/realdrift/internal/drift"
)

// baseTemplate is the template every resolver table test runs against.
const baseTemplate = `
Parameters:
  Env: {Type: String, Default: dev}
  Size: {Type: Number, Default: 10}
  AttrName: {Type: String, Default: Arn}
  Cidrs: {Type: CommaDelimitedList, Default: '10.0.0.0/16, 10.1.0.0/16'}
  EmptyList: {Type: CommaDelimitedList, Default: ''}
  Subnets: {Type: 'List<AWS::EC2::Subnet::Id>'}
  Token: {Type: String, NoEcho: true}
  Masked: {Type: String, NoEcho: true}
  Unsupplied: {Type: String, NoEcho: true, Default: fallback}
  NoDefault: {Type: String}
  Ami: {Type: 'AWS::SSM::Parameter::Value<AWS::EC2::Image::Id>', Default: /aws/ami}
  AmiResolved: {Type: 'AWS::SSM::Parameter::Value<AWS::EC2::Image::Id>', Default: /aws/ami2}
  AzList: {Type: 'AWS::SSM::Parameter::Value<List<String>>'}
Mappings:
  EnvConfig:
    dev: {Memory: 256, Name: small, Owners: [a, b], Password: '{{resolve:secretsmanager:db:SecretString:pw::}}'}
    prod: {Memory: 1024}
  RegionConfig:
    us-east-1: {Short: use1}
Conditions:
  IsProd: !Equals [!Ref Env, prod]
  IsDev: !Equals [!Ref Env, dev]
  Unknowable: !Equals [!Ref NoDefault, x]
Resources:
  Bucket: {Type: AWS::S3::Bucket}
  Vpc: {Type: AWS::EC2::VPC}
  Child: {Type: AWS::CloudFormation::Stack}
  Gone: {Type: AWS::SNS::Topic}
`

func baseContext() Context {
	return Context{
		AccountID: "123456789012",
		Region:    "US-East-1",
		StackName: "app",
		StackID:   "arn:aws:cloudformation:us-east-1:123456789012:stack/app/1",
		Parameters: map[string]string{
			"Subnets":     "subnet-1, subnet-2",
			"Token":       "s3cret",
			"Masked":      "****",
			"AmiResolved": "ami-123",
			"AzList":      "us-east-1a,us-east-1b",
		},
		PhysicalIDs: map[string]string{"Bucket": "app-bucket-1", "Vpc": "vpc-1", "Child": "arn:child"},
		LiveAttrs: map[string]map[string]any{
			"Bucket": {"Arn": "arn:aws:s3:::app-bucket-1", "Tags": []any{"t1"}},
			"Vpc": {
				"CidrBlock":        "10.0.0.0/16",
				"Ipv6CidrBlocks":   []any{"2600:1f18:1:200::/56"},
				"Nested":           map[string]any{"A": map[string]any{"B": "deep"}},
				"Endpoint.Address": "exact-key",
				"Empty":            nil,
			},
			"Child": {"Outputs": []any{
				map[string]any{"OutputKey": "TopicArn", "OutputValue": "arn:topic"},
				map[string]any{"OutputKey": "QueueUrl", "OutputValue": "https://q"},
			}},
		},
		Exports: map[string]string{"shared-queue": "arn:queue", "shared-list": "1,2,3", "app-Vpc": "vpc-1"},
		StackOutputs: func(ref StackOutputRef) (string, bool) {
			if ref == (StackOutputRef{StackName: "producer", OutputName: "Bucket", Region: "us-east-1"}) {
				return "producer-bucket", true
			}
			if ref == (StackOutputRef{StackName: "producer", OutputName: "Bucket", Region: "eu-west-1", RoleArn: "arn:role"}) {
				return "eu-bucket", true
			}
			return "", false
		},
	}
}

// resolveExpr resolves one YAML expression against baseTemplate.
func resolveExpr(t *testing.T, expr string, c Context) any {
	t.Helper()
	tpl, err := cfn.Parse([]byte(baseTemplate + "\nProbe: " + expr + "\n"))
	if err != nil {
		t.Fatalf("parse: %v", err)
	}
	v, ok := New(tpl, c).Value(tpl.Raw["Probe"])
	if !ok {
		return "<NoValue>"
	}
	return v
}

// unk matches any drift.Unknown; its reason is not compared.
var unk = drift.Unknown{}

// secretUnk matches a secret-bearing drift.Unknown.
var secretUnk = drift.Unknown{Secret: true}

// sameUnknown compares Unknowns by their Secret flag only.
var sameUnknown = cmp.Comparer(func(a, b drift.Unknown) bool { return a.Secret == b.Secret })

type exprCase struct {
	name string
	expr string
	want any
}

func runExprCases(t *testing.T, cases []exprCase) {
	t.Helper()
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got := resolveExpr(t, tc.expr, baseContext())
			if diff := cmp.Diff(got, tc.want, sameUnknown); diff != "" {
				t.Errorf("%s (-got +want)\n%s", tc.expr, diff)
			}
			if u, ok := got.(drift.Unknown); ok && u.Reason == "" {
				t.Errorf("%s: Unknown without a reason", tc.expr)
			}
		})
	}
}

func TestRef(t *testing.T) {
	runExprCases(t, []exprCase{
		{"parameter default", `!Ref Env`, "dev"},
		{"number parameter is text", `!Ref Size`, "10"},
		{"CommaDelimitedList default is a trimmed list", `!Ref Cidrs`, []any{"10.0.0.0/16", "10.1.0.0/16"}},
		{"empty list parameter", `!Ref EmptyList`, unk},
		{"List<> supplied", `!Ref Subnets`, []any{"subnet-1", "subnet-2"}},
		{"SSM list supplied", `!Ref AzList`, []any{"us-east-1a", "us-east-1b"}},
		{"NoEcho supplied is Secret", `!Ref Token`, drift.Secret{Value: "s3cret"}},
		{"NoEcho masked", `!Ref Masked`, secretUnk},
		{"NoEcho unsupplied ignores default", `!Ref Unsupplied`, secretUnk},
		{"no value no default", `!Ref NoDefault`, unk},
		{"SSM parameter never uses its default", `!Ref Ami`, unk},
		{"SSM parameter resolved value", `!Ref AmiResolved`, "ami-123"},
		{"AccountId", `!Ref AWS::AccountId`, "123456789012"},
		{"Region folded", `!Ref AWS::Region`, "us-east-1"},
		{"Partition", `!Ref AWS::Partition`, "aws"},
		{"URLSuffix", `!Ref AWS::URLSuffix`, "amazonaws.com"},
		{"StackName", `!Ref AWS::StackName`, "app"},
		{"StackId", `!Ref AWS::StackId`, "arn:aws:cloudformation:us-east-1:123456789012:stack/app/1"},
		{"NotificationARNs", `!Ref AWS::NotificationARNs`, unk},
		{"unknown pseudo", `!Ref AWS::Bogus`, unk},
		{"resource physical id", `!Ref Bucket`, "app-bucket-1"},
		{"resource without physical id", `!Ref Gone`, unk},
		{"undeclared name", `!Ref Nobody`, unk},
		{"malformed", `{Ref: [a]}`, unk},
		{"NoValue at top", `!Ref AWS::NoValue`, "<NoValue>"},
		{"NoValue drops a key", `{a: !Ref AWS::NoValue, b: 1}`, map[string]any{"b": 1.0}},
		{"NoValue drops a list element", `[a, !Ref AWS::NoValue, b]`, []any{"a", "b"}},
		{"NoValue as an operand", `!Base64 {Ref: AWS::NoValue}`, unk},
	})
}

func TestPseudoParametersPerPartition(t *testing.T) {
	tests := []struct {
		region, partition, suffix string
	}{
		{"us-east-1", "aws", "amazonaws.com"},
		{"EU-WEST-1", "aws", "amazonaws.com"},
		{"ap-southeast-4", "aws", "amazonaws.com"},
		{"cn-north-1", "aws-cn", "amazonaws.com.cn"},
		{"cn-northwest-1", "aws-cn", "amazonaws.com.cn"},
		{"us-gov-west-1", "aws-us-gov", "amazonaws.com"},
		{"us-iso-east-1", "aws-iso", "c2s.ic.gov"},
		{"us-isob-east-1", "aws-iso-b", "sc2s.sgov.gov"},
		{"eu-isoe-west-1", "aws-iso-e", "cloud.adc-e.uk"},
		{"us-isof-south-1", "aws-iso-f", "csp.hci.ic.gov"},
		{"eusc-de-east-1", "aws-eusc", "amazonaws.eu"},
	}
	for _, tc := range tests {
		t.Run(tc.region, func(t *testing.T) {
			c := baseContext()
			c.Region = tc.region
			got := []any{
				resolveExpr(t, `!Ref AWS::Partition`, c),
				resolveExpr(t, `!Ref AWS::URLSuffix`, c),
				resolveExpr(t, `!Ref AWS::Region`, c),
			}
			want := []any{tc.partition, tc.suffix, strings.ToLower(tc.region)}
			if diff := cmp.Diff(got, want); diff != "" {
				t.Errorf("(-got +want)\n%s", diff)
			}
		})
	}
	for _, region := range []string{"", "mars", "us-east", "1-us-east"} {
		t.Run("unknown "+region, func(t *testing.T) {
			c := baseContext()
			c.Region = region
			for _, expr := range []string{`!Ref AWS::Partition`, `!Ref AWS::URLSuffix`} {
				if got := resolveExpr(t, expr, c); !drift.IsUnknown(got) {
					t.Errorf("%s with region %q: got %#v, want Unknown", expr, region, got)
				}
			}
		})
	}
	t.Run("empty context fields", func(t *testing.T) {
		for _, expr := range []string{`!Ref AWS::AccountId`, `!Ref AWS::Region`, `!Ref AWS::StackName`, `!Ref AWS::StackId`} {
			if got := resolveExpr(t, expr, Context{}); !drift.IsUnknown(got) {
				t.Errorf("%s with an empty context: got %#v, want Unknown", expr, got)
			}
		}
	})
}

func TestGetAtt(t *testing.T) {
	runExprCases(t, []exprCase{
		{"dotted short form", `!GetAtt Bucket.Arn`, "arn:aws:s3:::app-bucket-1"},
		{"list form", `{Fn::GetAtt: [Bucket, Arn]}`, "arn:aws:s3:::app-bucket-1"},
		{"string long form", `{Fn::GetAtt: Bucket.Arn}`, "arn:aws:s3:::app-bucket-1"},
		{"attribute from a Ref", `{Fn::GetAtt: [Bucket, !Ref AttrName]}`, "arn:aws:s3:::app-bucket-1"},
		{"dotted path", `!GetAtt Vpc.Nested.A.B`, "deep"},
		{"whole dotted key first", `!GetAtt Vpc.Endpoint.Address`, "exact-key"},
		{"list index", `!GetAtt Vpc.Ipv6CidrBlocks.0`, "2600:1f18:1:200::/56"},
		{"list value", `!GetAtt Vpc.Ipv6CidrBlocks`, []any{"2600:1f18:1:200::/56"}},
		{"nested stack output", `!GetAtt Child.Outputs.QueueUrl`, "https://q"},
		{"absent nested stack output", `!GetAtt Child.Outputs.Nope`, unk},
		{"absent attribute", `!GetAtt Bucket.DomainName`, unk},
		{"null attribute", `!GetAtt Vpc.Empty`, unk},
		{"index out of range", `!GetAtt Vpc.Ipv6CidrBlocks.3`, unk},
		{"no live model", `!GetAtt Gone.TopicArn`, unk},
		{"undeclared resource", `!GetAtt Nobody.Arn`, unk},
		{"malformed no dot", `{Fn::GetAtt: Bucket}`, unk},
		{"malformed list", `{Fn::GetAtt: [Bucket]}`, unk},
		{"malformed number", `{Fn::GetAtt: 5}`, unk},
	})
	t.Run("pass 1 has no live attributes", func(t *testing.T) {
		c := baseContext()
		c.LiveAttrs = nil
		if got := resolveExpr(t, `!GetAtt Bucket.Arn`, c); !drift.IsUnknown(got) {
			t.Errorf("got %#v, want Unknown", got)
		}
	})
	t.Run("result does not alias the live model", func(t *testing.T) {
		c := baseContext()
		got := resolveExpr(t, `!GetAtt Bucket.Tags`, c)
		got.([]any)[0] = "changed"
		if diff := cmp.Diff(c.LiveAttrs["Bucket"]["Tags"], any([]any{"t1"})); diff != "" {
			t.Errorf("live model changed (-got +want)\n%s", diff)
		}
	})
}

func TestSub(t *testing.T) {
	runExprCases(t, []exprCase{
		{"pseudo and parameter", `!Sub '${AWS::StackName}-${Env}'`, "app-dev"},
		{"resource Ref", `!Sub 'b=${Bucket}'`, "b=app-bucket-1"},
		{"Res.Attr", `!Sub '${Bucket.Arn}/*'`, "arn:aws:s3:::app-bucket-1/*"},
		{"variable map", `!Sub ['${A}-${B}', {A: x, B: !Ref Env}]`, "x-dev"},
		{"variable shadows a parameter", `!Sub ['${Env}', {Env: shadow}]`, "shadow"},
		{"literal escape", `!Sub 'echo ${!HOME} in ${AWS::Region}'`, "echo ${HOME} in us-east-1"},
		{"no variables", `!Sub 'plain'`, "plain"},
		{"number variable", `!Sub 'n=${Size}'`, "n=10"},
		{"unknown variable", `!Sub '${NoDefault}-x'`, unk},
		{"unknown attribute", `!Sub '${Gone.Arn}'`, unk},
		{"unused unknown variable", `!Sub ['${A}', {A: x, B: !GetAZs ''}]`, "x"},
		{"list variable", `!Sub ['${L}', {L: [a]}]`, unk},
		{"NoValue variable", `!Sub ['${L}', {L: !Ref AWS::NoValue}]`, unk},
		{"unterminated", `!Sub 'a ${b'`, unk},
		{"secret parameter", `!Sub 'p=${Token}'`, drift.Secret{Value: "p=s3cret"}},
		{"secret beside unknown", `!Sub '${Token}${NoDefault}'`, secretUnk},
		{"masked NoEcho", `!Sub 'p=${Masked}'`, secretUnk},
		{"builds an ssm dynamic reference", `!Sub '{{resolve:ssm:/cfg/${Env}}}'`, unk},
		{"builds a secret dynamic reference", `!Sub '{{resolve:secretsmanager:${Env}/db}}'`, secretUnk},
		{"malformed", `{Fn::Sub: [a, b, c]}`, unk},
		{"malformed variables", `{Fn::Sub: [a, [b]]}`, unk},
	})
}

func TestJoinSelectSplit(t *testing.T) {
	runExprCases(t, []exprCase{
		{"join", `!Join ['-', [a, !Ref Env, 1, true]]`, "a-dev-1-true"},
		{"join empty list", `!Join ['-', []]`, ""},
		{"join over a list function", `!Join [',', !FindInMap [EnvConfig, dev, Owners]]`, "a,b"},
		{"join over a list parameter", `!Join [';', !Ref Subnets]`, "subnet-1;subnet-2"},
		{"join with an unknown element", `!Join ['-', [a, !Ref NoDefault]]`, unk},
		{"join with a secret element", `!Join ['-', [a, !Ref Token]]`, drift.Secret{Value: "a-s3cret"}},
		{"join with secret and unknown elements", `!Join ['-', [!Ref Token, !Ref NoDefault]]`, secretUnk},
		{"join with a nested list", `!Join ['-', [a, [b]]]`, unk},
		{"join over an unknown list", `!Join [',', !GetAZs '']`, unk},
		{"join builds a secret dynamic reference", `{Fn::Join: ['', ['{{resolve:secretsmanager:', !Ref Bucket, ':SecretString:k::}}']]}`, secretUnk},
		{"join malformed", `!Join [',']`, unk},
		{"join not a list", `!Join [',', abc]`, unk},
		{"select", `!Select [1, [a, b, c]]`, "b"},
		{"select text index", `!Select ['0', [a]]`, "a"},
		{"select out of range", `!Select [3, [a, b, c]]`, unk},
		{"select negative", `!Select [-1, [a]]`, unk},
		{"select fractional", `!Select [0.5, [a]]`, unk},
		{"select from unknown list", `!Select [0, !GetAZs '']`, unk},
		{"select known element beside unknown", `!Select [1, [!GetAZs '', x]]`, "x"},
		{"select the unknown element", `!Select [0, [!GetAZs '', x]]`, unk},
		{"select over split import", `!Select [1, !Split [',', !ImportValue shared-list]]`, "2"},
		{"select from secret list", `!Select [0, !Split [',', !Ref Token]]`, drift.Secret{Value: "s3cret"}},
		{"select with unknown index", `!Select [!Ref NoDefault, [a]]`, unk},
		{"select not a list", `!Select [0, abc]`, unk},
		{"split", `!Split [',', 'a,b,,c']`, []any{"a", "b", "", "c"}},
		{"split unknown source", `!Split [',', !Ref NoDefault]`, unk},
		{"split empty delimiter", `!Split ['', abc]`, unk},
		{"split source with a dynamic reference", `!Split [',', '{{resolve:ssm:/a}},b']`, unk},
	})
}

func TestFindInMapImportValueStackOutput(t *testing.T) {
	runExprCases(t, []exprCase{
		{"number value", `!FindInMap [EnvConfig, !Ref Env, Memory]`, 256.0},
		{"string value", `!FindInMap [EnvConfig, dev, Name]`, "small"},
		{"list value", `!FindInMap [EnvConfig, dev, Owners]`, []any{"a", "b"}},
		{"region key", `!FindInMap [RegionConfig, !Ref AWS::Region, Short]`, "use1"},
		{"missing top key", `!FindInMap [EnvConfig, staging, Memory]`, unk},
		{"missing second key", `!FindInMap [EnvConfig, prod, Name]`, unk},
		{"missing map", `!FindInMap [Nope, dev, Name]`, unk},
		{"unknown key", `!FindInMap [EnvConfig, !Ref NoDefault, Name]`, unk},
		{"default value", `{Fn::FindInMap: [EnvConfig, staging, Memory, {DefaultValue: 128}]}`, 128.0},
		{"default value unused", `{Fn::FindInMap: [EnvConfig, prod, Memory, {DefaultValue: 128}]}`, 1024.0},
		{"dynamic reference in a mapping", `!FindInMap [EnvConfig, dev, Password]`, secretUnk},
		{"secret key taints", `!FindInMap [EnvConfig, dev, !Ref Token]`, secretUnk},
		{"malformed", `!FindInMap [EnvConfig, dev]`, unk},
		{"import", `!ImportValue shared-queue`, "arn:queue"},
		{"import via Sub", `!ImportValue {Fn::Sub: '${AWS::StackName}-Vpc'}`, "vpc-1"},
		{"import unknown export", `!ImportValue nope`, unk},
		{"import unknown name", `!ImportValue {Ref: NoDefault}`, unk},
		{"stack output, region defaulted", `{Fn::GetStackOutput: {StackName: producer, OutputName: Bucket}}`, "producer-bucket"},
		{"stack output, explicit region and role", `{Fn::GetStackOutput: {StackName: producer, OutputName: Bucket, Region: eu-west-1, RoleArn: 'arn:role'}}`, "eu-bucket"},
		{"stack output unknown", `{Fn::GetStackOutput: {StackName: producer, OutputName: Other}}`, unk},
		{"stack output unknown field", `{Fn::GetStackOutput: {StackName: producer, OutputName: Bucket, Account: x}}`, unk},
		{"stack output missing name", `{Fn::GetStackOutput: {StackName: producer}}`, unk},
		{"stack output malformed", `{Fn::GetStackOutput: [producer, Bucket]}`, unk},
	})
	t.Run("no exports and no lookup", func(t *testing.T) {
		c := baseContext()
		c.Exports, c.StackOutputs = nil, nil
		for _, expr := range []string{`!ImportValue shared-queue`, `{Fn::GetStackOutput: {StackName: producer, OutputName: Bucket}}`} {
			if got := resolveExpr(t, expr, c); !drift.IsUnknown(got) {
				t.Errorf("%s: got %#v, want Unknown", expr, got)
			}
		}
	})
}

func TestBase64CidrAndUnresolvable(t *testing.T) {
	runExprCases(t, []exprCase{
		{"base64", `!Base64 hello`, "aGVsbG8="},
		{"base64 over Sub", `{Fn::Base64: !Sub 'env=${Env}'}`, "ZW52PWRldg=="},
		{"base64 of unknown", `!Base64 {Ref: NoDefault}`, unk},
		{"base64 of secret", `!Base64 {Ref: Token}`, drift.Secret{Value: "czNjcmV0"}},
		{"base64 of a list", `!Base64 [a]`, unk},
		{"cidr /24s", `!Cidr [10.0.0.0/16, 4, 8]`, []any{"10.0.0.0/24", "10.0.1.0/24", "10.0.2.0/24", "10.0.3.0/24"}},
		{"cidr /27s", `!Cidr ['192.168.0.0/24', 6, 5]`, []any{"192.168.0.0/27", "192.168.0.32/27", "192.168.0.64/27", "192.168.0.96/27", "192.168.0.128/27", "192.168.0.160/27"}},
		{"cidr text arguments", `!Cidr ['10.0.0.0/16', '2', '12']`, []any{"10.0.0.0/20", "10.0.16.0/20"}},
		{"cidr over GetAtt", `!Select [2, !Cidr [!GetAtt Vpc.CidrBlock, 4, 8]]`, "10.0.2.0/24"},
		{"cidr whole block", `!Cidr ['10.0.0.0/24', 1, 8]`, []any{"10.0.0.0/24"}},
		{"cidr too many subnets", `!Cidr ['10.0.0.0/24', 3, 7]`, unk},
		{"cidr bits larger than block", `!Cidr ['10.0.0.0/24', 1, 9]`, unk},
		{"cidr zero bits", `!Cidr ['10.0.0.0/24', 1, 0]`, unk},
		{"cidr zero count", `!Cidr ['10.0.0.0/24', 0, 4]`, unk},
		{"cidr not a network address", `!Cidr ['10.0.0.5/16', 2, 8]`, unk},
		{"cidr bad block", `!Cidr ['nope', 2, 8]`, unk},
		{"cidr IPv6", `!Cidr [!Select [0, !GetAtt Vpc.Ipv6CidrBlocks], 4, 64]`, unk},
		{"cidr unknown block", `!Cidr [!GetAtt Gone.Cidr, 4, 8]`, unk},
		{"cidr malformed", `!Cidr ['10.0.0.0/16', 4]`, unk},
		{"cidr NoValue argument", `!Cidr ['10.0.0.0/16', !Ref AWS::NoValue, 8]`, unk},
		{"GetAZs", `!GetAZs ''`, unk},
		{"GetAZs region", `!GetAZs {Ref: AWS::Region}`, unk},
		{"Transform", `{Fn::Transform: {Name: AWS::Include}}`, unk},
		{"unsupported function", `{Fn::Length: [a]}`, unk},
		{"condition function in a property", `!Equals [a, a]`, unk},
	})
}

func TestIf(t *testing.T) {
	runExprCases(t, []exprCase{
		{"true branch", `!If [IsDev, a, b]`, "a"},
		{"false branch", `!If [IsProd, a, b]`, "b"},
		{"unknown condition picks no branch", `!If [Unknowable, a, b]`, unk},
		{"undeclared condition", `!If [Nope, a, b]`, unk},
		{"NoValue branch drops the key", `{k: !If [IsDev, !Ref AWS::NoValue, v], j: 1}`, map[string]any{"j": 1.0}},
		{"NoValue branch drops the element", `[!If [IsDev, !Ref AWS::NoValue, v], j]`, []any{"j"}},
		{"object branch", `!If [IsDev, {a: !Ref Env}, {b: 2}]`, map[string]any{"a": "dev"}},
		{"FindInMap branch", `!If [IsProd, x, !FindInMap [EnvConfig, dev, Name]]`, "small"},
		{"only the chosen branch is resolved", `!If [IsDev, a, !GetAZs '']`, "a"},
		{"malformed", `!If [IsDev, a]`, unk},
		{"malformed condition name", `!If [[IsDev], a, b]`, unk},
	})
}

func TestDynamicReferences(t *testing.T) {
	runExprCases(t, []exprCase{
		{"ssm", `'{{resolve:ssm:/orders/config/max-items:3}}'`, unk},
		{"ssm-secure", `'{{resolve:ssm-secure:/db/password:1}}'`, secretUnk},
		{"secretsmanager", `'{{resolve:secretsmanager:legacy/partner/basic-auth:SecretString:password::}}'`, secretUnk},
		{"inside a longer string", `'user:{{resolve:secretsmanager:s:SecretString:u::}}@host'`, secretUnk},
		{"ssm and secret in one string", `'{{resolve:ssm:/a}}{{resolve:ssm-secure:/b}}'`, secretUnk},
		{"unknown service is treated as secret", `'{{resolve:vault:x}}'`, secretUnk},
		{"nested in a property map", `{Env: {MAX: '{{resolve:ssm:/m}}', OTHER: x}}`, map[string]any{"Env": map[string]any{"MAX": unk, "OTHER": "x"}}},
		{"not a reference", `'{{ resolve }}'`, "{{ resolve }}"},
	})
	t.Run("reason does not quote a secret reference", func(t *testing.T) {
		got := resolveExpr(t, `'{{resolve:secretsmanager:prod/db-master:SecretString:password::}}'`, baseContext())
		u, ok := got.(drift.Unknown)
		if !ok || !u.Secret {
			t.Fatalf("got %#v, want a secret Unknown", got)
		}
		if strings.Contains(u.Reason, "prod/db-master") {
			t.Errorf("reason %q quotes the reference", u.Reason)
		}
	})
}

func TestCountUnknown(t *testing.T) {
	v := map[string]any{
		"a": unk,
		"b": []any{unk, "x", map[string]any{"c": secretUnk}},
		"d": drift.Secret{Value: "s"},
		"e": 1.0,
	}
	if got := CountUnknown(v); got != 3 {
		t.Errorf("CountUnknown: got %d, want 3", got)
	}
	if got := CountUnknown("plain"); got != 0 {
		t.Errorf("CountUnknown(plain): got %d, want 0", got)
	}
}
