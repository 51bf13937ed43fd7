package live_test

import (
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/s3"
	"github.com/aws/aws-sdk-go-v2/service/ses"
	sestypes "github.com/aws/aws-sdk-go-v2/service/ses/types"
	"github.com/google/go-cmp/cmp"

	"github.com/realdrift/realdrift/internal/live"
)

// TestMotoSES: a receipt rule set and rule and a configuration set event
// destination created in moto, read back by the readers. moto 5.2.1 serves
// no receipt filters (CreateReceiptFilter, ListReceiptFilters): that reader
// is checked against the sandbox only.
func TestMotoSES(t *testing.T) {
	cfg := motoConfig(t)
	cx := ctx(t)
	sc := ses.NewFromConfig(cfg)
	// SES checks that it can write to the S3 action's bucket.
	if _, err := s3.NewFromConfig(cfg, func(o *s3.Options) { o.UsePathStyle = true }).CreateBucket(cx, &s3.CreateBucketInput{Bucket: aws.String("moto-mail")}); err != nil {
		t.Fatal(err)
	}
	if _, err := sc.CreateReceiptRuleSet(cx, &ses.CreateReceiptRuleSetInput{RuleSetName: aws.String("moto-inbound")}); err != nil {
		t.Fatal(err)
	}
	rule := &sestypes.ReceiptRule{Name: aws.String("moto-store"), Enabled: true, ScanEnabled: true, TlsPolicy: sestypes.TlsPolicyRequire, Recipients: []string{"support@example.com"},
		Actions: []sestypes.ReceiptAction{{S3Action: &sestypes.S3Action{BucketName: aws.String("moto-mail"), ObjectKeyPrefix: aws.String("in/")}}}}
	if _, err := sc.CreateReceiptRule(cx, &ses.CreateReceiptRuleInput{RuleSetName: aws.String("moto-inbound"), Rule: rule}); err != nil {
		t.Fatal(err)
	}
	if _, err := sc.CreateConfigurationSet(cx, &ses.CreateConfigurationSetInput{ConfigurationSet: &sestypes.ConfigurationSet{Name: aws.String("moto-mail")}}); err != nil {
		t.Fatal(err)
	}
	if _, err := sc.CreateConfigurationSetEventDestination(cx, &ses.CreateConfigurationSetEventDestinationInput{ConfigurationSetName: aws.String("moto-mail"),
		EventDestination: &sestypes.EventDestination{Name: aws.String("moto-sns"), Enabled: true, MatchingEventTypes: []sestypes.EventType{sestypes.EventTypeBounce},
			SNSDestination: &sestypes.SNSDestination{TopicARN: aws.String("arn:aws:sns:us-east-1:123456789012:mail")}}}); err != nil {
		t.Fatal(err)
	}
	c := live.NewClients(cfg)
	got := live.Read(cx, c, live.Request{Type: "AWS::SES::ReceiptRuleSet", PhysicalID: "moto-inbound"})
	if got.Status != live.Found || got.Model["RuleSetName"] != "moto-inbound" {
		t.Errorf("rule set: %+v", got)
	}
	got = live.Read(cx, c, live.Request{Type: "AWS::SES::ReceiptRule", PhysicalID: "moto-store", Declared: map[string]any{"RuleSetName": "moto-inbound"}})
	if got.Status != live.Found {
		t.Fatalf("rule: %+v", got)
	}
	want := map[string]any{"Name": "moto-store", "Enabled": true, "ScanEnabled": true, "TlsPolicy": "Require", "Recipients": []any{"support@example.com"},
		"Actions": []any{map[string]any{"S3Action": map[string]any{"BucketName": "moto-mail", "ObjectKeyPrefix": "in/"}}}}
	if diff := cmp.Diff(got.Model["Rule"], want); diff != "" {
		t.Errorf("rule (-got +want):\n%s", diff)
	}
	got = live.Read(cx, c, live.Request{Type: "AWS::SES::ConfigurationSetEventDestination", PhysicalID: "x",
		Declared: map[string]any{"ConfigurationSetName": "moto-mail", "EventDestination": map[string]any{"Name": "moto-sns"}}})
	if got.Status != live.Found {
		t.Fatalf("event destination: %+v", got)
	}
	d, _ := got.Model["EventDestination"].(map[string]any)
	if diff := cmp.Diff(d["SnsDestination"], map[string]any{"TopicARN": "arn:aws:sns:us-east-1:123456789012:mail"}); diff != "" || d["Enabled"] != true {
		t.Errorf("event destination %v (-got +want):\n%s", d, diff)
	}
	if got := live.Read(cx, c, live.Request{Type: "AWS::SES::ReceiptRuleSet", PhysicalID: "moto-nope"}); got.Status != live.NotFound {
		t.Errorf("missing rule set: %+v, want notFound", got)
	}
}
