package sandbox_test

import (
	"html"
	"net/http"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/cloudcontrol"
	"github.com/aws/aws-sdk-go-v2/service/ec2"
	ec2types "github.com/aws/aws-sdk-go-v2/service/ec2/types"
	"github.com/aws/aws-sdk-go-v2/service/iam"
	"github.com/aws/aws-sdk-go-v2/service/lambda"
	"github.com/aws/aws-sdk-go-v2/service/route53"
	r53types "github.com/aws/aws-sdk-go-v2/service/route53/types"
	"github.com/aws/aws-sdk-go-v2/service/s3"
	s3types "github.com/aws/aws-sdk-go-v2/service/s3/types"

	"github.com/realdrift/realdrift/internal/sandbox"
)

// TestWritesValidatedAgainstTheModel: a write that breaks its input
// constraints in AWS's model is refused before its handler runs, with the
// service's error code for its protocol and AWS's wording; one that keeps
// them is served. A sample per protocol and member location the check
// reads (JSON 1.0, query, EC2, REST-JSON body and URI path, REST-XML body,
// URI path and header), each through aws-sdk-go-v2, which sends what the
// model's constraints refuse (it checks only required members).
func TestWritesValidatedAgainstTheModel(t *testing.T) {
	_, u := start(t, "testdata/world.json", sandbox.Options{})
	c := ctx(t)
	conf := cfg(u, mgmtKey, "us-east-1")
	doc := aws.String(`{"Version":"2012-10-17","Statement":[{"Effect":"Allow","Action":"s3:GetObject","Resource":"*"}]}`)
	for _, tc := range []struct {
		name, code, at string
		call           func() error
	}{
		{"JSON 1.0: a type name off the pattern", "ValidationException", "'typeName'", func() error {
			_, err := cloudcontrol.NewFromConfig(conf).UpdateResource(c, &cloudcontrol.UpdateResourceInput{TypeName: aws.String("not a type"),
				Identifier: aws.String(queueURL), PatchDocument: aws.String(`[]`)})
			return err
		}},
		{"query: a policy name off the pattern", "ValidationError", "'policyName'", func() error {
			_, err := iam.NewFromConfig(conf).PutRolePolicy(c, &iam.PutRolePolicyInput{RoleName: aws.String("App-Role-XYZ"), PolicyName: aws.String("bad name!"), PolicyDocument: doc})
			return err
		}},
		{"query: a policy name too long", "ValidationError", "Member must have length less than or equal to 128", func() error {
			_, err := iam.NewFromConfig(conf).PutRolePolicy(c, &iam.PutRolePolicyInput{RoleName: aws.String("App-Role-XYZ"), PolicyName: aws.String(strings.Repeat("p", 129)), PolicyDocument: doc})
			return err
		}},
		{"EC2: a rule action the enumeration lacks", "InvalidParameterValue", "'ruleAction'", func() error {
			_, err := ec2.NewFromConfig(conf).ReplaceNetworkAclEntry(c, &ec2.ReplaceNetworkAclEntryInput{NetworkAclId: aws.String("acl-0123456789abcdef0"), RuleNumber: aws.Int32(100),
				Protocol: aws.String("6"), RuleAction: ec2types.RuleAction("maybe"), Egress: aws.Bool(false), CidrBlock: aws.String("10.0.0.0/8")})
			return err
		}},
		{"REST-JSON: a statement id off the pattern", "ValidationException", "'statementId'", func() error {
			_, err := lambda.NewFromConfig(conf).AddPermission(c, &lambda.AddPermissionInput{FunctionName: aws.String("fn"), StatementId: aws.String("bad id!"),
				Action: aws.String("lambda:InvokeFunction"), Principal: aws.String("s3.amazonaws.com")})
			return err
		}},
		{"REST-JSON: a function name in the URI off the pattern", "ValidationException", "'functionName'", func() error {
			_, err := lambda.NewFromConfig(conf).AddPermission(c, &lambda.AddPermissionInput{FunctionName: aws.String("bad name!"), StatementId: aws.String("ok"),
				Action: aws.String("lambda:InvokeFunction"), Principal: aws.String("s3.amazonaws.com")})
			return err
		}},
		{"REST-JSON: a statement id in the URI off the pattern", "ValidationException", "'statementId'", func() error {
			_, err := lambda.NewFromConfig(conf).RemovePermission(c, &lambda.RemovePermissionInput{FunctionName: aws.String("fn"), StatementId: aws.String("bad id!")})
			return err
		}},
		{"REST-XML: a record type the enumeration lacks", "InvalidInput", "'changeBatch.changes.1.member.resourceRecordSet.type'", func() error {
			_, err := route53.NewFromConfig(conf).ChangeResourceRecordSets(c, &route53.ChangeResourceRecordSetsInput{HostedZoneId: aws.String("Z0123456789"),
				ChangeBatch: &r53types.ChangeBatch{Changes: []r53types.Change{{Action: r53types.ChangeActionUpsert, ResourceRecordSet: &r53types.ResourceRecordSet{
					Name: aws.String("a.example.com."), Type: r53types.RRType("BOGUS"), TTL: aws.Int64(60), ResourceRecords: []r53types.ResourceRecord{{Value: aws.String("192.0.2.1")}}}}}}})
			return err
		}},
		{"REST-XML: a hosted zone id in the URI too long", "InvalidInput", "'hostedZoneId'", func() error {
			_, err := route53.NewFromConfig(conf).ChangeResourceRecordSets(c, &route53.ChangeResourceRecordSetsInput{HostedZoneId: aws.String(strings.Repeat("Z", 33)),
				ChangeBatch: &r53types.ChangeBatch{Changes: []r53types.Change{{Action: r53types.ChangeActionUpsert, ResourceRecordSet: &r53types.ResourceRecordSet{
					Name: aws.String("a.example.com."), Type: r53types.RRTypeA, TTL: aws.Int64(60), ResourceRecords: []r53types.ResourceRecord{{Value: aws.String("192.0.2.1")}}}}}}})
			return err
		}},
		{"REST-XML: a canned ACL header the enumeration lacks", "InvalidArgument", "'aCL'", func() error {
			_, err := s3.NewFromConfig(conf, func(o *s3.Options) { o.UsePathStyle = true }).PutObject(c, &s3.PutObjectInput{Bucket: aws.String("app-bucket"), Key: aws.String("k"),
				ACL: s3types.ObjectCannedACL("everyone-writes"), Body: strings.NewReader("x")})
			return err
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := tc.call()
			if code(err) != tc.code || !strings.Contains(err.Error(), "validation error detected: Value") || !strings.Contains(err.Error(), tc.at) {
				t.Errorf("got %v, want %s naming %s", err, tc.code, tc.at)
			}
		})
	}
	if _, err := iam.NewFromConfig(conf).PutRolePolicy(c, &iam.PutRolePolicyInput{RoleName: aws.String("App-Role-XYZ"), PolicyName: aws.String("good-name"), PolicyDocument: doc}); err != nil {
		t.Errorf("a conforming write: %v", err)
	}
}

// TestRoute53TTLMustBeANumber: a change batch whose TTL is not a number
// (which no SDK sends, the TTL being a long, but a hand-written request
// can) is refused with Route 53's InvalidInput naming the member, before
// it reaches the zone.
func TestRoute53TTLMustBeANumber(t *testing.T) {
	_, u := start(t, "testdata/world.json", sandbox.Options{})
	body := `<?xml version="1.0" encoding="UTF-8"?><ChangeResourceRecordSetsRequest xmlns="https://route53.amazonaws.com/doc/2013-04-01/"><ChangeBatch><Changes><Change><Action>UPSERT</Action>` +
		`<ResourceRecordSet><Name>a.example.com.</Name><Type>A</Type><TTL>300-oob</TTL><ResourceRecords><ResourceRecord><Value>192.0.2.1</Value></ResourceRecord></ResourceRecords></ResourceRecordSet>` +
		`</Change></Changes></ChangeBatch></ChangeResourceRecordSetsRequest>`
	status, raw := rawCall(t, http.MethodPost, u+"/2013-04-01/hostedzone/Z0123456789/rrset/", "route53", "", body)
	got := html.UnescapeString(raw)
	for _, want := range []string{"<Code>InvalidInput</Code>", "Value '300-oob' at 'changeBatch.changes.1.member.resourceRecordSet.tTL' failed to satisfy constraint: Member must be a number"} {
		if status != 400 || !strings.Contains(got, want) {
			t.Errorf("got %d %s, want 400 with %s", status, got, want)
		}
	}
}

// TestAdminChangesValidatedAgainstTheModel: an out-of-band change (the
// admin API) leaving a live model the write that carries it would refuse
// is refused with that service's invalid-input error, naming the write,
// the property and the constraint, and the model is left as it was; a
// change keeping the constraints is applied. Over HTTP the refusal is a
// 400 with the same message.
func TestAdminChangesValidatedAgainstTheModel(t *testing.T) {
	srv, u := start(t, "testdata/world.json", sandbox.Options{})
	add := func(typ, id, props string) sandbox.Change {
		return sandbox.Change{Op: sandbox.OpAdd, Region: "us-east-1", Type: typ, Identifier: id, Properties: []byte(props)}
	}
	role := func(path, value string) sandbox.Change {
		return sandbox.Change{Op: sandbox.OpSet, Region: "us-east-1", Type: "AWS::IAM::Role", Identifier: "App-Role-XYZ", Path: path, Value: []byte(value)}
	}
	queue := func(path, value string) sandbox.Change {
		return sandbox.Change{Op: sandbox.OpSet, Region: "us-east-1", Type: queueType, Identifier: queueURL, Path: path, Value: []byte(value)}
	}
	mp := func(doc string) sandbox.Change {
		arn := "arn:aws:iam::111111111111:policy/OOB-Managed"
		return add("AWS::IAM::ManagedPolicy", arn, `{"ManagedPolicyName":"OOB-Managed","Path":"/","PolicyArn":"`+arn+`","PolicyDocument":`+doc+`}`)
	}
	for _, tc := range []struct {
		name string
		bad  sandbox.Change
		want []string
		good sandbox.Change
	}{
		{"Route 53 TTL not a number", add("AWS::Route53::RecordSet", "a.example.com|A", `{"Name":"a.example.com.","Type":"A","TTL":"300-oob","ResourceRecords":["192.0.2.1"]}`),
			[]string{"InvalidInput", "route53 ChangeResourceRecordSets would refuse it", "Value '300-oob' at 'TTL' failed to satisfy constraint: Member must be a number"},
			add("AWS::Route53::RecordSet", "a.example.com|A", `{"Name":"a.example.com.","Type":"A","TTL":"300","ResourceRecords":["192.0.2.1"]}`)},
		{"Route 53 group entry of a type outside RRType", add("AWS::Route53::RecordSetGroup", "g1", `{"HostedZoneId":"Z1","RecordSets":[{"Name":"a.example.com.","Type":"A","TTL":60},{"Name":"b.example.com.","Type":"BOGUS","TTL":60}]}`),
			[]string{"InvalidInput", "Value 'BOGUS' at 'RecordSets.2.Type' failed to satisfy constraint: Member must satisfy enum value set: ["},
			add("AWS::Route53::RecordSetGroup", "g1", `{"HostedZoneId":"Z1","RecordSets":[{"Name":"a.example.com.","Type":"A","TTL":60}]}`)},
		{"IAM inline policy name off the pattern", role("/Policies", `[{"PolicyName":"bad name!","PolicyDocument":{"Version":"2012-10-17","Statement":[]}}]`),
			[]string{"ValidationError", "iam PutRolePolicy would refuse it", "Value 'bad name!' at 'Policies.1.PolicyName' failed to satisfy constraint: Member must satisfy regular expression pattern"},
			role("/Policies", `[{"PolicyName":"good-name","PolicyDocument":{"Version":"2012-10-17","Statement":[]}}]`)},
		{"EC2 rule action outside the enumeration", add("AWS::EC2::NetworkAclEntry", "acl-1|100|false", `{"NetworkAclId":"acl-1","RuleNumber":100,"Protocol":6,"RuleAction":"maybe","Egress":false,"CidrBlock":"10.0.0.0/8"}`),
			[]string{"InvalidParameterValue", "ec2 ReplaceNetworkAclEntry would refuse it", "Value 'maybe' at 'RuleAction' failed to satisfy constraint: Member must satisfy enum value set: [allow, deny]"},
			add("AWS::EC2::NetworkAclEntry", "acl-1|100|false", `{"NetworkAclId":"acl-1","RuleNumber":100,"Protocol":6,"RuleAction":"allow","Egress":false,"CidrBlock":"10.0.0.0/8"}`)},
		{"Lambda permission action off the pattern", add("AWS::Lambda::Permission", "p1", `{"FunctionName":"fn","Action":"invoke everything","Principal":"s3.amazonaws.com"}`),
			[]string{"ValidationException", "lambda AddPermission would refuse it", "Value 'invoke everything' at 'Action' failed to satisfy constraint: Member must satisfy regular expression pattern"},
			add("AWS::Lambda::Permission", "p1", `{"FunctionName":"fn","Action":"lambda:InvokeFunction","Principal":"s3.amazonaws.com"}`)},
		{"ELBv2 attribute key off the pattern", add("AWS::ElasticLoadBalancingV2::TargetGroup", "tg1", `{"TargetGroupAttributes":[{"Key":"deregistration delay","Value":"30"}]}`),
			[]string{"ValidationError", "elasticloadbalancing ModifyTargetGroupAttributes would refuse it", "Value 'deregistration delay' at 'TargetGroupAttributes.1.Key'"},
			add("AWS::ElasticLoadBalancingV2::TargetGroup", "tg1", `{"TargetGroupAttributes":[{"Key":"deregistration_delay.timeout_seconds","Value":"30"}]}`)},
		{"IAM managed policy document with characters outside the document pattern", mp(`{"Version":"2012-10-17","Statement":[{"Effect":"Allow","Action":"s3:GetObject","Resource":"arn:aws:s3:::日本/*"}]}`),
			[]string{"ValidationError", "iam CreatePolicyVersion would refuse it", `at 'PolicyDocument' failed to satisfy constraint: Member must satisfy regular expression pattern: [\u0009\u000A\u000D\u0020-\u00FF]+`},
			mp(`{"Version":"2012-10-17","Statement":[{"Effect":"Allow","Action":"s3:GetObject","Resource":"arn:aws:s3:::café/*"}]}`)},
		{"SQS queue property no queue attribute names", queue("/VisibilityTimeOut", `60`),
			[]string{"ValidationException", "sqs SetQueueAttributes would refuse it", "Value 'VisibilityTimeOut' at 'Attributes.key' failed to satisfy constraint: Member must satisfy enum value set: ["},
			queue("/VisibilityTimeout", `60`)},
		{"SNS topic policy with an Effect no policy has", add("AWS::SNS::TopicPolicy", "arn:aws:sns:us-east-1:123456789012:tp", `{"Topics":["arn:aws:sns:us-east-1:123456789012:tp"],"PolicyDocument":{"Version":"2012-10-17","Statement":[{"Effect":"Allox","Principal":{"Service":"events.amazonaws.com"},"Action":"sns:Publish","Resource":"*"}]}}`),
			[]string{"InvalidParameter", "Policy Error", "Allox"},
			add("AWS::SNS::TopicPolicy", "arn:aws:sns:us-east-1:123456789012:tp", `{"Topics":["arn:aws:sns:us-east-1:123456789012:tp"],"PolicyDocument":{"Version":"2012-10-17","Statement":[{"Effect":"Allow","Principal":{"Service":"events.amazonaws.com"},"Action":"sns:Publish","Resource":"*"}]}}`)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := srv.Apply(tc.bad)
			for _, want := range tc.want {
				if err == nil || !strings.Contains(err.Error(), want) {
					t.Errorf("got %v, want it naming %q", err, want)
				}
			}
			if err := srv.Apply(tc.good); err != nil {
				t.Errorf("a conforming change: %v", err)
			}
		})
	}
	if m, _ := srv.Live("", "us-east-1", "AWS::IAM::Role", "App-Role-XYZ"); !strings.Contains(string(m), "good-name") || strings.Contains(string(m), "bad name!") {
		t.Errorf("role after a refused and an applied change: %s", m)
	}
	status, body := admin(t, "POST", u+"/_sandbox/change", `{"op":"set","region":"us-east-1","type":"AWS::IAM::Role","identifier":"App-Role-XYZ","path":"/Policies/0/PolicyName","value":"`+strings.Repeat("p", 129)+`"}`)
	if status != 400 || !strings.Contains(string(body), "at 'Policies.1.PolicyName' failed to satisfy constraint: Member must have length less than or equal to 128") {
		t.Errorf("POST /_sandbox/change of a policy name too long: %d %s, want 400 naming the member and constraint", status, body)
	}
}
