package sandbox_test

import (
	"encoding/json"
	"errors"
	"io"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/cloudcontrol"
	"github.com/aws/aws-sdk-go-v2/service/iam"
	"github.com/aws/aws-sdk-go-v2/service/lambda"
	lambdatypes "github.com/aws/aws-sdk-go-v2/service/lambda/types"
	"github.com/aws/aws-sdk-go-v2/service/s3"
	"github.com/aws/aws-sdk-go-v2/service/sns"
	snstypes "github.com/aws/aws-sdk-go-v2/service/sns/types"
	"github.com/aws/aws-sdk-go-v2/service/sqs"
	sqstypes "github.com/aws/aws-sdk-go-v2/service/sqs/types"
	"github.com/google/go-cmp/cmp"

	"github.com/realdrift/realdrift/internal/sandbox"
)

const (
	svcQueue = "https://sqs.us-east-1.amazonaws.com/111111111111/Svc-Queue-1"
	svcTopic = "arn:aws:sns:us-east-1:111111111111:Svc-Topic-1"
	svcMP    = "arn:aws:iam::111111111111:policy/Svc-Managed-1"
)

func jsonOf(t *testing.T, s string) any {
	t.Helper()
	var v any
	if err := json.Unmarshal([]byte(s), &v); err != nil {
		t.Fatalf("not JSON: %s: %v", s, err)
	}
	return v
}

func waitCC(t *testing.T, cc *cloudcontrol.Client, token *string) {
	t.Helper()
	w := cloudcontrol.NewResourceRequestSuccessWaiter(cc, func(o *cloudcontrol.ResourceRequestSuccessWaiterOptions) {
		o.MinDelay, o.MaxDelay = 10*time.Millisecond, 50*time.Millisecond
	})
	if err := w.Wait(ctx(t), &cloudcontrol.GetResourceRequestStatusInput{RequestToken: token}, 10*time.Second); err != nil {
		t.Fatal(err)
	}
}

func TestS3(t *testing.T) {
	srv, u := start(t, "testdata/services.json", sandbox.Options{})
	c := ctx(t)
	cl := s3.NewFromConfig(cfg(u, mgmtKey, "us-east-1"), func(o *s3.Options) { o.UsePathStyle = true })
	out, err := cl.GetBucketPolicy(c, &s3.GetBucketPolicyInput{Bucket: aws.String("svc-bucket-1")})
	if err != nil {
		t.Fatal(err)
	}
	live, _ := srv.Live("", "us-east-1", "AWS::S3::BucketPolicy", "svc-bucket-1")
	var model struct{ PolicyDocument any }
	_ = json.Unmarshal(live, &model)
	if diff := cmp.Diff(jsonOf(t, aws.ToString(out.Policy)), model.PolicyDocument); diff != "" {
		t.Errorf("policy (-got +want):\n%s", diff)
	}
	if _, err := cl.GetBucketPolicy(c, &s3.GetBucketPolicyInput{Bucket: aws.String("svc-bare-1")}); code(err) != "NoSuchBucketPolicy" {
		t.Errorf("bucket without policy: %v", err)
	}
	if _, err := cl.GetBucketPolicy(c, &s3.GetBucketPolicyInput{Bucket: aws.String("nope-bucket")}); code(err) != "NoSuchBucket" {
		t.Errorf("missing bucket: %v", err)
	}
	doc := `{"Version":"2012-10-17","Statement":[{"Effect":"Allow","Principal":"*","Action":"s3:GetObject","Resource":"arn:aws:s3:::svc-bare-1/*"}]}`
	if _, err := cl.PutBucketPolicy(c, &s3.PutBucketPolicyInput{Bucket: aws.String("svc-bare-1"), Policy: aws.String(doc)}); err != nil {
		t.Fatal(err)
	}
	got, err := cl.GetBucketPolicy(c, &s3.GetBucketPolicyInput{Bucket: aws.String("svc-bare-1")})
	if err != nil || aws.ToString(got.Policy) != doc {
		t.Errorf("after put: %v %v", aws.ToString(got.Policy), err)
	}
	if _, ok := srv.Live("", "us-east-1", "AWS::S3::BucketPolicy", "svc-bare-1"); !ok {
		t.Error("PutBucketPolicy did not create the live policy resource")
	}
	if _, err := cl.DeleteBucketPolicy(c, &s3.DeleteBucketPolicyInput{Bucket: aws.String("svc-bucket-1")}); err != nil {
		t.Fatal(err)
	}
	if _, err := cl.GetBucketPolicy(c, &s3.GetBucketPolicyInput{Bucket: aws.String("svc-bucket-1")}); code(err) != "NoSuchBucketPolicy" {
		t.Errorf("after delete: %v", err)
	}
}

// TestSQSCrossAPI writes through Cloud Control and reads through SQS, then
// writes through SQS and reads through Cloud Control.
func TestSQSCrossAPI(t *testing.T) {
	_, u := start(t, "testdata/services.json", sandbox.Options{})
	c := ctx(t)
	conf := cfg(u, mgmtKey, "us-east-1")
	q := sqs.NewFromConfig(conf)
	cc := cloudcontrol.NewFromConfig(conf)

	out, err := q.GetQueueAttributes(c, &sqs.GetQueueAttributesInput{QueueUrl: aws.String(svcQueue), AttributeNames: []sqstypes.QueueAttributeName{sqstypes.QueueAttributeNameAll}})
	if err != nil {
		t.Fatal(err)
	}
	a := out.Attributes
	if a["VisibilityTimeout"] != "30" || a["QueueArn"] != "arn:aws:sqs:us-east-1:111111111111:Svc-Queue-1" || a["SqsManagedSseEnabled"] != "true" {
		t.Errorf("attributes %v", a)
	}
	if diff := cmp.Diff(jsonOf(t, a["RedrivePolicy"]), map[string]any{"deadLetterTargetArn": "arn:aws:sqs:us-east-1:111111111111:Svc-Dlq-1", "maxReceiveCount": 3.0}); diff != "" {
		t.Errorf("RedrivePolicy (-got +want):\n%s", diff)
	}
	if !strings.Contains(a["Policy"], "sns.amazonaws.com") {
		t.Errorf("Policy %q", a["Policy"])
	}

	up, err := cc.UpdateResource(c, &cloudcontrol.UpdateResourceInput{TypeName: aws.String("AWS::SQS::Queue"), Identifier: aws.String(svcQueue), PatchDocument: aws.String(`[{"op":"replace","path":"/VisibilityTimeout","value":77}]`)})
	if err != nil {
		t.Fatal(err)
	}
	waitCC(t, cc, up.ProgressEvent.RequestToken)
	out, err = q.GetQueueAttributes(c, &sqs.GetQueueAttributesInput{QueueUrl: aws.String(svcQueue), AttributeNames: []sqstypes.QueueAttributeName{sqstypes.QueueAttributeNameVisibilityTimeout}})
	if err != nil || out.Attributes["VisibilityTimeout"] != "77" || len(out.Attributes) != 1 {
		t.Errorf("SQS after a Cloud Control write: %v %v", out.Attributes, err)
	}

	if _, err := q.SetQueueAttributes(c, &sqs.SetQueueAttributesInput{QueueUrl: aws.String(svcQueue), Attributes: map[string]string{"MessageRetentionPeriod": "86400", "RedrivePolicy": ""}}); err != nil {
		t.Fatal(err)
	}
	m := getProps(t, cc, "AWS::SQS::Queue", svcQueue)
	if m["MessageRetentionPeriod"] != 86400.0 || m["RedrivePolicy"] != nil {
		t.Errorf("Cloud Control after an SQS write: %v", m)
	}
	if _, err := q.SetQueueAttributes(c, &sqs.SetQueueAttributesInput{QueueUrl: aws.String(svcQueue), Attributes: map[string]string{"QueueArn": "x"}}); code(err) != "InvalidAttributeName" {
		t.Errorf("read-only attribute: %v", err)
	}
	_, err = q.GetQueueAttributes(c, &sqs.GetQueueAttributesInput{QueueUrl: aws.String("https://sqs.us-east-1.amazonaws.com/111111111111/nope")})
	var qdne *sqstypes.QueueDoesNotExist
	if !errors.As(err, &qdne) {
		t.Errorf("missing queue: %v", err)
	}
}

func TestSNS(t *testing.T) {
	_, u := start(t, "testdata/services.json", sandbox.Options{PageSize: 1})
	c := ctx(t)
	conf := cfg(u, mgmtKey, "us-east-1")
	cl := sns.NewFromConfig(conf)
	out, err := cl.GetTopicAttributes(c, &sns.GetTopicAttributesInput{TopicArn: aws.String(svcTopic)})
	if err != nil {
		t.Fatal(err)
	}
	if out.Attributes["DisplayName"] != "alerts" || out.Attributes["Owner"] != mgmt || !strings.Contains(out.Attributes["Policy"], "__default_policy_ID") {
		t.Errorf("attributes %v", out.Attributes)
	}
	if _, err := cl.SetTopicAttributes(c, &sns.SetTopicAttributesInput{TopicArn: aws.String(svcTopic), AttributeName: aws.String("DisplayName"), AttributeValue: aws.String("paging")}); err != nil {
		t.Fatal(err)
	}
	if m := getProps(t, cloudcontrol.NewFromConfig(conf), "AWS::SNS::Topic", svcTopic); m["DisplayName"] != "paging" {
		t.Errorf("Cloud Control after an SNS write: %v", m)
	}
	p := sns.NewListSubscriptionsByTopicPaginator(cl, &sns.ListSubscriptionsByTopicInput{TopicArn: aws.String(svcTopic)})
	var protos []string
	for i := 0; p.HasMorePages() && i < 10; i++ {
		pg, err := p.NextPage(c)
		if err != nil {
			t.Fatal(err)
		}
		for _, s := range pg.Subscriptions {
			protos = append(protos, aws.ToString(s.Protocol))
		}
	}
	if diff := cmp.Diff(protos, []string{"sqs", "email"}); diff != "" {
		t.Errorf("subscriptions (-got +want):\n%s", diff)
	}
	_, err = cl.GetTopicAttributes(c, &sns.GetTopicAttributesInput{TopicArn: aws.String(svcTopic + "x")})
	var nf *snstypes.NotFoundException
	if !errors.As(err, &nf) {
		t.Errorf("missing topic: %v", err)
	}
}

func TestIAM(t *testing.T) {
	_, u := start(t, "testdata/services.json", sandbox.Options{})
	c := ctx(t)
	conf := cfg(u, mgmtKey, "us-east-1")
	cl := iam.NewFromConfig(conf)
	cc := cloudcontrol.NewFromConfig(conf)

	names, err := cl.ListRolePolicies(c, &iam.ListRolePoliciesInput{RoleName: aws.String("Svc-Role-1")})
	if err != nil || len(names.PolicyNames) != 1 || names.PolicyNames[0] != "RoleDefaultPolicy" {
		t.Fatalf("ListRolePolicies: %v %v", names, err)
	}
	got, err := cl.GetRolePolicy(c, &iam.GetRolePolicyInput{RoleName: aws.String("Svc-Role-1"), PolicyName: aws.String("RoleDefaultPolicy")})
	if err != nil {
		t.Fatal(err)
	}
	text, err := url.QueryUnescape(aws.ToString(got.PolicyDocument))
	if err != nil || !strings.Contains(text, "sqs:SendMessage") {
		t.Errorf("document %q %v", text, err)
	}
	doc := `{"Version":"2012-10-17","Statement":[{"Effect":"Allow","Action":"*","Resource":"*"}]}`
	if _, err := cl.PutRolePolicy(c, &iam.PutRolePolicyInput{RoleName: aws.String("Svc-Role-1"), PolicyName: aws.String("Backdoor"), PolicyDocument: aws.String(doc)}); err != nil {
		t.Fatal(err)
	}
	role := getProps(t, cc, "AWS::IAM::Role", "Svc-Role-1")
	if ps, _ := role["Policies"].([]any); len(ps) != 2 {
		t.Errorf("Cloud Control role Policies after PutRolePolicy: %v", role["Policies"])
	}
	if _, err := cl.GetRolePolicy(c, &iam.GetRolePolicyInput{RoleName: aws.String("Svc-Role-1"), PolicyName: aws.String("Nope")}); code(err) != "NoSuchEntity" {
		t.Errorf("missing policy: %v", err)
	}

	pol, err := cl.GetPolicy(c, &iam.GetPolicyInput{PolicyArn: aws.String(svcMP)})
	if err != nil {
		t.Fatal(err)
	}
	if aws.ToString(pol.Policy.DefaultVersionId) != "v1" || aws.ToString(pol.Policy.PolicyName) != "Svc-Managed-1" || aws.ToInt32(pol.Policy.AttachmentCount) != 1 {
		t.Errorf("policy %+v", pol.Policy)
	}
	ents, err := cl.ListEntitiesForPolicy(c, &iam.ListEntitiesForPolicyInput{PolicyArn: aws.String(svcMP)})
	if err != nil || len(ents.PolicyRoles) != 1 || aws.ToString(ents.PolicyRoles[0].RoleName) != "Svc-Role-1" {
		t.Errorf("entities %+v %v", ents, err)
	}
	newDoc := `{"Version":"2012-10-17","Statement":[{"Effect":"Allow","Action":"s3:*","Resource":"*"}]}`
	if _, err := cl.CreatePolicyVersion(c, &iam.CreatePolicyVersionInput{PolicyArn: aws.String(svcMP), PolicyDocument: aws.String(newDoc), SetAsDefault: true}); err != nil {
		t.Fatal(err)
	}
	mp := getProps(t, cc, "AWS::IAM::ManagedPolicy", svcMP)
	if diff := cmp.Diff(mp["PolicyDocument"], jsonOf(t, newDoc)); diff != "" {
		t.Errorf("Cloud Control after CreatePolicyVersion (-got +want):\n%s", diff)
	}
	// A Cloud Control write shows as a new default version.
	up, err := cc.UpdateResource(c, &cloudcontrol.UpdateResourceInput{TypeName: aws.String("AWS::IAM::ManagedPolicy"), Identifier: aws.String(svcMP),
		PatchDocument: aws.String(`[{"op":"replace","path":"/PolicyDocument/Statement/0/Action","value":"s3:GetObject"}]`)})
	if err != nil {
		t.Fatal(err)
	}
	waitCC(t, cc, up.ProgressEvent.RequestToken)
	vs, err := cl.ListPolicyVersions(c, &iam.ListPolicyVersionsInput{PolicyArn: aws.String(svcMP)})
	if err != nil || len(vs.Versions) != 3 || aws.ToString(vs.Versions[0].VersionId) != "v3" || !vs.Versions[0].IsDefaultVersion {
		t.Fatalf("versions %+v %v", vs, err)
	}
	v, err := cl.GetPolicyVersion(c, &iam.GetPolicyVersionInput{PolicyArn: aws.String(svcMP), VersionId: aws.String("v3")})
	if err != nil {
		t.Fatal(err)
	}
	if text, _ := url.QueryUnescape(aws.ToString(v.PolicyVersion.Document)); !strings.Contains(text, `"s3:GetObject"`) {
		t.Errorf("v3 document %s", text)
	}
}

func TestLambda(t *testing.T) {
	_, u := start(t, "testdata/services.json", sandbox.Options{})
	c := ctx(t)
	cl := lambda.NewFromConfig(cfg(u, mgmtKey, "us-east-1"))
	pol, err := cl.GetPolicy(c, &lambda.GetPolicyInput{FunctionName: aws.String("Svc-Fn-1")})
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]any{"Version": "2012-10-17", "Id": "default", "Statement": []any{map[string]any{
		"Sid": "Svc-FnPerm-1", "Effect": "Allow", "Principal": map[string]any{"Service": "apigateway.amazonaws.com"},
		"Action": "lambda:InvokeFunction", "Resource": "arn:aws:lambda:us-east-1:111111111111:function:Svc-Fn-1",
		"Condition": map[string]any{"ArnLike": map[string]any{"AWS:SourceArn": "arn:aws:execute-api:us-east-1:111111111111:abc123/*/*/*"}},
	}}}
	if diff := cmp.Diff(jsonOf(t, aws.ToString(pol.Policy)), any(want)); diff != "" {
		t.Errorf("policy (-got +want):\n%s", diff)
	}
	urls, err := cl.ListFunctionUrlConfigs(c, &lambda.ListFunctionUrlConfigsInput{FunctionName: aws.String("arn:aws:lambda:us-east-1:111111111111:function:Svc-Fn-1")})
	if err != nil || len(urls.FunctionUrlConfigs) != 1 || urls.FunctionUrlConfigs[0].AuthType != lambdatypes.FunctionUrlAuthTypeAwsIam {
		t.Errorf("urls %+v %v", urls, err)
	}
	al, err := cl.ListAliases(c, &lambda.ListAliasesInput{FunctionName: aws.String("Svc-Fn-1")})
	if err != nil || len(al.Aliases) != 1 || aws.ToString(al.Aliases[0].Name) != "live" {
		t.Errorf("aliases %+v %v", al, err)
	}
	p := lambda.NewListEventSourceMappingsPaginator(cl, &lambda.ListEventSourceMappingsInput{FunctionName: aws.String("Svc-Fn-1")})
	var ids []string
	for i := 0; p.HasMorePages() && i < 5; i++ {
		pg, err := p.NextPage(c)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range pg.EventSourceMappings {
			ids = append(ids, aws.ToString(m.UUID)+" "+aws.ToString(m.State)+" "+aws.ToString(m.EventSourceArn))
		}
	}
	if diff := cmp.Diff(ids, []string{"6f5d0a8e-2b1c-4d3e-9f8a-7b6c5d4e3f2a Enabled arn:aws:sqs:us-east-1:111111111111:Svc-Queue-1"}); diff != "" {
		t.Errorf("mappings (-got +want):\n%s", diff)
	}
	_, err = cl.GetPolicy(c, &lambda.GetPolicyInput{FunctionName: aws.String("nope")})
	var nf *lambdatypes.ResourceNotFoundException
	if !errors.As(err, &nf) {
		t.Errorf("missing function: %v", err)
	}
}

// TestS3Objects: an object put into a bucket of the account reads back
// whole; a missing key is NoSuchKey, a missing bucket NoSuchBucket.
func TestS3Objects(t *testing.T) {
	_, u := start(t, "testdata/services.json", sandbox.Options{})
	c := ctx(t)
	cl := s3.NewFromConfig(cfg(u, mgmtKey, "us-east-1"), func(o *s3.Options) { o.UsePathStyle = true })
	body := `[{"account":"111111111111","region":"us-east-1","stack":"A"}]`
	if _, err := cl.PutObject(c, &s3.PutObjectInput{Bucket: aws.String("svc-bucket-1"), Key: aws.String("runs/r1/111111111111/us-east-1/targets.json"), Body: strings.NewReader(body)}); err != nil {
		t.Fatal(err)
	}
	out, err := cl.GetObject(c, &s3.GetObjectInput{Bucket: aws.String("svc-bucket-1"), Key: aws.String("runs/r1/111111111111/us-east-1/targets.json")})
	if err != nil {
		t.Fatal(err)
	}
	got, _ := io.ReadAll(out.Body)
	out.Body.Close()
	if string(got) != body {
		t.Errorf("object = %s, want %s", got, body)
	}
	if _, err := cl.GetObject(c, &s3.GetObjectInput{Bucket: aws.String("svc-bucket-1"), Key: aws.String("runs/none")}); code(err) != "NoSuchKey" {
		t.Errorf("missing key: %v", err)
	}
	if _, err := cl.PutObject(c, &s3.PutObjectInput{Bucket: aws.String("nope-bucket"), Key: aws.String("k"), Body: strings.NewReader("x")}); code(err) != "NoSuchBucket" {
		t.Errorf("missing bucket: %v", err)
	}
}
