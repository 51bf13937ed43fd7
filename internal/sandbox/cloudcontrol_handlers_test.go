package sandbox_test

import (
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/cloudcontrol"
	cctypes "github.com/aws/aws-sdk-go-v2/service/cloudcontrol/types"
	"github.com/aws/aws-sdk-go-v2/service/sqs"
	"github.com/aws/aws-sdk-go-v2/service/sts"

	"github.com/realdrift/realdrift/internal/deadlinetest"
	"github.com/realdrift/realdrift/internal/sandbox"
	"github.com/realdrift/realdrift/internal/schema"
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

// TestCloudControlWriteHandlerPermissions: an UpdateResource or
// DeleteResource whose handler permissions the caller lacks is accepted,
// then fails as the handler's own call does (FAILED, ErrorCode
// AccessDenied, the action named) and changes nothing — when the caller's
// policies are Complete. Granted through AWS services only, the handler's
// permissions let it succeed; with policies not Complete (an AWS managed
// policy the sandbox lacks might grant them) only an explicit Deny refuses.
func TestCloudControlWriteHandlerPermissions(t *testing.T) {
	snap, err := schema.Embedded()
	if err != nil {
		t.Fatal(err)
	}
	f, _ := snap.Lookup(queueType)
	var handler []string
	for _, h := range []string{"read", "update", "delete"} {
		for _, p := range f.HandlerPermissions[h] {
			if schema.IAMAction(p) {
				handler = append(handler, `"`+p+`"`)
			}
		}
	}
	const cc = `{"Sid":"CC","Effect":"Allow","Action":["cloudformation:GetResource","cloudformation:UpdateResource","cloudformation:DeleteResource","cloudformation:GetResourceRequestStatus"],"Resource":"*"}`
	grant := func(condition string) string {
		return `{"Sid":"Handlers","Effect":"Allow","Action":[` + strings.Join(handler, ",") + `],"Resource":"*","Condition":` + condition + `}`
	}
	handlers := grant(`{"Bool":{"aws:ViaAWSService":"true"}}`)
	// Narrowed to calls made through Cloud Control: its handler calls carry
	// aws:CalledVia (the value infra/doc.go discusses), another service's
	// forward access sessions do not.
	viaCloudControl := grant(`{"Bool":{"aws:ViaAWSService":"true"},"ForAnyValue:StringEquals":{"aws:CalledVia":"` + sandbox.CloudControlCalledVia + `"}}`)
	viaOther := grant(`{"Bool":{"aws:ViaAWSService":"true"},"ForAnyValue:StringEquals":{"aws:CalledVia":"athena.amazonaws.com"}}`)
	for _, tt := range []struct {
		name     string
		stmts    string
		complete bool
		wantFail bool
	}{
		{"complete, Cloud Control only", cc, true, true},
		{"complete, handlers granted", cc + "," + handlers, true, false},
		{"complete, handlers granted through Cloud Control only", cc + "," + viaCloudControl, true, false},
		{"complete, handlers granted through another service only", cc + "," + viaOther, true, true},
		{"not complete, Cloud Control only", cc, false, false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			w := policyWorld(t, `{"Version":"2012-10-17","Statement":[`+tt.stmts+`]}`,
				`{"Statement":{"Effect":"Allow","Action":"sts:AssumeRole","Resource":"arn:aws:iam::222222222222:role/realdrift-read"}}`)
			for _, a := range w.Accounts {
				for _, p := range a.Policies {
					if p.Role == "realdrift-read" {
						p.Complete = tt.complete
					}
				}
			}
			sb, url := startWorld(t, w, sandbox.Options{})
			c := ctx(t)
			out, err := sts.NewFromConfig(cfg(url, mgmtKey, "us-east-1")).AssumeRole(c, &sts.AssumeRoleInput{RoleArn: aws.String("arn:aws:iam::222222222222:role/realdrift-read"), RoleSessionName: aws.String("revert")})
			if err != nil {
				t.Fatal(err)
			}
			cl := cloudcontrol.NewFromConfig(cfg(url, aws.ToString(out.Credentials.AccessKeyId), "eu-west-1"))
			if tt.complete {
				// The handler grants never let the role make the call itself.
				_, err := sqs.NewFromConfig(cfg(url, aws.ToString(out.Credentials.AccessKeyId), "eu-west-1")).SetQueueAttributes(c, &sqs.SetQueueAttributesInput{
					QueueUrl: aws.String(memberQueue), Attributes: map[string]string{"VisibilityTimeout": "48"}})
				if err == nil || !strings.Contains(err.Error(), "not authorized to perform: sqs:SetQueueAttributes") {
					t.Errorf("the role's direct SetQueueAttributes: %v, want it refused", err)
				}
			}
			wait := func(token *string) (ev *cctypes.ProgressEvent) {
				t.Helper()
				deadlinetest.Wait(t, 10*time.Second, "the request completes", func() bool {
					st, err := cl.GetResourceRequestStatus(c, &cloudcontrol.GetResourceRequestStatusInput{RequestToken: token})
					if err != nil {
						t.Fatal(err)
					}
					ev = st.ProgressEvent
					return ev.OperationStatus != cctypes.OperationStatusInProgress && ev.OperationStatus != cctypes.OperationStatusPending
				})
				return ev
			}
			up, err := cl.UpdateResource(c, &cloudcontrol.UpdateResourceInput{TypeName: aws.String(queueType), Identifier: aws.String(memberQueue),
				PatchDocument: aws.String(`[{"op":"add","path":"/VisibilityTimeout","value":47}]`)})
			if err != nil {
				t.Fatalf("UpdateResource: %v (refused handler permissions fail the request, not the call)", err)
			}
			ev := wait(up.ProgressEvent.RequestToken)
			live, _ := sb.Live(member, "eu-west-1", queueType, memberQueue)
			changed := strings.Contains(string(live), `"VisibilityTimeout":47`)
			if tt.wantFail {
				if ev.OperationStatus != cctypes.OperationStatusFailed || ev.ErrorCode != cctypes.HandlerErrorCodeAccessDenied ||
					!strings.Contains(aws.ToString(ev.StatusMessage), "UPDATE handler of AWS::SQS::Queue") || changed {
					t.Errorf("update without handler grants: %s %s %q, changed %v; want FAILED AccessDenied naming the handler, nothing changed", ev.OperationStatus, ev.ErrorCode, aws.ToString(ev.StatusMessage), changed)
				}
			} else if ev.OperationStatus != cctypes.OperationStatusSuccess || !changed {
				t.Errorf("update: %s %s %q, changed %v; want SUCCESS", ev.OperationStatus, ev.ErrorCode, aws.ToString(ev.StatusMessage), changed)
			}
			del, err := cl.DeleteResource(c, &cloudcontrol.DeleteResourceInput{TypeName: aws.String(queueType), Identifier: aws.String(memberQueue)})
			if err != nil {
				t.Fatal(err)
			}
			if ev := wait(del.ProgressEvent.RequestToken); (ev.OperationStatus == cctypes.OperationStatusFailed) != tt.wantFail {
				t.Errorf("delete: %s %s %q, failed want %v", ev.OperationStatus, ev.ErrorCode, aws.ToString(ev.StatusMessage), tt.wantFail)
			}
		})
	}
}
