package sandbox_test

import (
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/cloudcontrol"
	"github.com/aws/aws-sdk-go-v2/service/sqs"
	"github.com/aws/aws-sdk-go-v2/service/sts"

	"github.com/realdrift/realdrift/internal/sandbox"
)

// TestCloudControlHandlerPermissions: Cloud Control's read handler calls
// the service with the caller's credentials, so an explicit Deny of one of
// the permissions the pinned schema lists for it (AWS::SQS::Queue's read
// handler: sqs:GetQueueAttributes) refuses GetResource, while
// ListResources, whose handler lists only sqs:ListQueues, is served; the
// same Deny scoped to the role's own calls (aws:ViaAWSService false)
// still refuses the direct call and spares Cloud Control's.
func TestCloudControlHandlerPermissions(t *testing.T) {
	const allow = `{"Sid":"Read","Effect":"Allow","Action":["cloudformation:GetResource","cloudformation:ListResources","sqs:GetQueueAttributes"],"Resource":"*"}`
	for _, tt := range []struct {
		name, deny string
		ccDenied   bool
	}{
		{"unconditional deny", `{"Sid":"NoAttrs","Effect":"Deny","Action":"sqs:getqueueattributes","Resource":"*"}`, true},
		{"deny of own calls only", `{"Sid":"NoAttrs","Effect":"Deny","Action":"sqs:GetQueueAttributes","Resource":"*","Condition":{"BoolIfExists":{"aws:ViaAWSService":"false"}}}`, false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			read := `{"Version":"2012-10-17","Statement":[` + allow + `,` + tt.deny + `]}`
			alice := `{"Statement":{"Effect":"Allow","Action":"sts:AssumeRole","Resource":"arn:aws:iam::222222222222:role/realdrift-read"}}`
			_, url := startWorld(t, policyWorld(t, read, alice), sandbox.Options{})
			c := ctx(t)
			out, err := sts.NewFromConfig(cfg(url, mgmtKey, "us-east-1")).AssumeRole(c, &sts.AssumeRoleInput{RoleArn: aws.String("arn:aws:iam::222222222222:role/realdrift-read"), RoleSessionName: aws.String("sweep")})
			if err != nil {
				t.Fatal(err)
			}
			mc := cfg(url, aws.ToString(out.Credentials.AccessKeyId), "eu-west-1")
			cc := cloudcontrol.NewFromConfig(mc)
			_, getErr := cc.GetResource(c, &cloudcontrol.GetResourceInput{TypeName: aws.String(queueType), Identifier: aws.String(memberQueue)})
			_, listErr := cc.ListResources(c, &cloudcontrol.ListResourcesInput{TypeName: aws.String(queueType)})
			switch {
			case tt.ccDenied && (code(getErr) != "AccessDeniedException" || !strings.Contains(getErr.Error(), "sqs:GetQueueAttributes") || !strings.Contains(getErr.Error(), "READ handler of AWS::SQS::Queue")):
				t.Errorf("GetResource with the handler's permission denied: %v, want AccessDeniedException naming sqs:GetQueueAttributes", getErr)
			case !tt.ccDenied && getErr != nil:
				t.Errorf("GetResource with only the role's own calls denied: %v", getErr)
			}
			if listErr != nil {
				t.Errorf("ListResources (its handler needs no sqs:GetQueueAttributes): %v", listErr)
			}
			_, err = sqs.NewFromConfig(mc).GetQueueAttributes(c, &sqs.GetQueueAttributesInput{QueueUrl: aws.String(memberQueue)})
			if err == nil || !strings.Contains(err.Error(), "explicit deny") {
				t.Errorf("direct GetQueueAttributes: %v, want the explicit deny", err)
			}
		})
	}
}
