package sandbox_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/sns"
	snstypes "github.com/aws/aws-sdk-go-v2/service/sns/types"
	"github.com/google/go-cmp/cmp"

	"github.com/realdrift/realdrift/internal/sandbox"
	"github.com/realdrift/realdrift/internal/sandbox/sandboxtest"
)

// publishWorld is the test world with, in the management account's
// us-east-1, an alerts topic encrypted with key k1 whose access policy
// lets the notify role publish, and whose key policy delegates to IAM
// (the account's root) and lets notify use the key through SNS; an open
// topic with SNS's default policy; and three roles: notify (no grant of
// its own), nokms (sns:Publish, no KMS grant) and kmsuser (sns:Publish and
// kms:*), and denied (sns:Publish, denied by the topic's policy).
func publishWorld(t *testing.T) *sandbox.World {
	t.Helper()
	w := sandboxtest.LoadWorld(t, "testdata/world.json")
	role := func(name string) string { return "arn:aws:iam::" + mgmt + ":role/" + name }
	alerts := "arn:aws:sns:us-east-1:" + mgmt + ":alerts"
	keyPolicy := `{"Version":"2012-10-17","Statement":[
	  {"Effect":"Allow","Principal":{"AWS":"arn:aws:iam::` + mgmt + `:root"},"Action":"kms:*","Resource":"*"},
	  {"Sid":"Publishers","Effect":"Allow","Principal":{"AWS":"` + role("notify") + `"},"Action":["kms:Decrypt","kms:GenerateDataKey"],"Resource":"*",
	   "Condition":{"StringEquals":{"kms:ViaService":"sns.us-east-1.amazonaws.com"}}}]}`
	topicPolicy := `{"Version":"2012-10-17","Statement":[
	  {"Effect":"Allow","Principal":{"AWS":"` + role("notify") + `"},"Action":"sns:Publish","Resource":"` + alerts + `"},
	  {"Effect":"Deny","Principal":{"AWS":"` + role("denied") + `"},"Action":"sns:Publish","Resource":"` + alerts + `"}]}`
	allow := func(actions ...string) []json.RawMessage {
		b, _ := json.Marshal(map[string]any{"Version": "2012-10-17", "Statement": []any{map[string]any{"Effect": "Allow", "Action": actions, "Resource": "*"}}})
		return []json.RawMessage{b}
	}
	for _, a := range w.Accounts {
		if a.ID != mgmt {
			continue
		}
		r := a.Regions[0]
		r.Resources = append(r.Resources,
			&sandbox.Resource{Type: "AWS::KMS::Key", PhysicalID: "k1", Properties: json.RawMessage(`{"KeyId":"k1","KeyPolicy":` + keyPolicy + `}`)},
			&sandbox.Resource{Type: "AWS::SNS::Topic", PhysicalID: alerts, Properties: json.RawMessage(`{"TopicName":"alerts","TopicArn":"` + alerts + `","KmsMasterKeyId":"k1"}`)},
			&sandbox.Resource{Type: "AWS::SNS::TopicPolicy", PhysicalID: alerts, Properties: json.RawMessage(`{"Topics":["` + alerts + `"],"PolicyDocument":` + topicPolicy + `}`)},
			&sandbox.Resource{Type: "AWS::SNS::Topic", PhysicalID: "arn:aws:sns:us-east-1:" + mgmt + ":open", Properties: json.RawMessage(`{"TopicName":"open","TopicArn":"arn:aws:sns:us-east-1:` + mgmt + `:open"}`)},
		)
		for name, docs := range map[string][]json.RawMessage{
			"notify": allow("sqs:GetQueueAttributes"), "nokms": allow("sns:Publish"), "kmsuser": allow("sns:Publish", "kms:*"), "denied": allow("sns:Publish"),
		} {
			a.AccessKeys = append(a.AccessKeys, sandbox.AccessKey{ID: pubKey(name), Role: name})
			a.Policies = append(a.Policies, &sandbox.Policies{Role: name, Documents: docs})
		}
	}
	return reparse(t, w)
}

// TestPublishTopicAndKeyPolicies: Publish is decided with the topic's
// access policy beside the caller's identity policies (within one account
// either may allow it, an explicit Deny in either refuses it), and a
// publish to a KMS-encrypted topic needs the key's policy to let the
// publisher use the key through SNS — itself, or by delegating to the
// account's IAM policies — else KMSAccessDenied; what was accepted is
// recorded with its attributes.
func TestPublishTopicAndKeyPolicies(t *testing.T) {
	srv, url := startWorld(t, publishWorld(t), sandbox.Options{})
	c := ctx(t)
	alerts := "arn:aws:sns:us-east-1:" + mgmt + ":alerts"
	publish := func(key, topic string) (*sns.PublishOutput, error) {
		return sns.NewFromConfig(cfg(url, key, "us-east-1")).Publish(c, &sns.PublishInput{
			TopicArn: aws.String(topic), Subject: aws.String("drift"), Message: aws.String("queue drifted"),
			MessageAttributes: map[string]snstypes.MessageAttributeValue{"severity": {DataType: aws.String("String"), StringValue: aws.String("high")}},
		})
	}
	for _, tc := range []struct {
		name, key, topic, code, says string
	}{
		{"the topic's policy and the key's allow notify", pubKey("notify"), alerts, "", ""},
		{"IAM allows kmsuser both, the key policy delegating", pubKey("kmsuser"), alerts, "", ""},
		{"the key policy delegates but nokms has no KMS grant", pubKey("nokms"), alerts, "KMSAccessDenied",
			"is not authorized to perform: kms:GenerateDataKey on resource: arn:aws:kms:us-east-1:" + mgmt + ":key/k1 because no identity-based policy allows"},
		{"the topic's policy denies denied", pubKey("denied"), alerts, "AuthorizationError", "with an explicit deny in a resource-based policy"},
		{"alice (no declared policies) on a topic with SNS's default policy", mgmtKey, "arn:aws:sns:us-east-1:" + mgmt + ":open", "", ""},
		{"no such topic", mgmtKey, "arn:aws:sns:us-east-1:" + mgmt + ":none", "NotFound", ""},
	} {
		out, err := publish(tc.key, tc.topic)
		if code(err) != tc.code || (tc.says != "" && !strings.Contains(err.Error(), tc.says)) {
			t.Errorf("%s: %v, want %q %q", tc.name, err, tc.code, tc.says)
			continue
		}
		if err == nil && len(aws.ToString(out.MessageId)) != 36 {
			t.Errorf("%s: MessageId %q", tc.name, aws.ToString(out.MessageId))
		}
	}
	got := srv.Published(alerts)
	if len(got) != 2 {
		t.Fatalf("published to alerts: %d messages, want notify's and kmsuser's", len(got))
	}
	want := sandbox.PublishedMessage{MessageID: got[0].MessageID, TopicArn: alerts, Subject: "drift", Message: "queue drifted",
		Attributes: map[string]sandbox.PublishedAttribute{"severity": {DataType: "String", StringValue: "high"}},
		Publisher:  "arn:aws:sts::" + mgmt + ":assumed-role/notify/" + strings.TrimPrefix(got[0].Publisher, "arn:aws:sts::"+mgmt+":assumed-role/notify/")}
	if diff := cmp.Diff(got[0], want); diff != "" {
		t.Errorf("notify's message (-got +want):\n%s", diff)
	}
	// What SNS refuses before it publishes anything.
	client := sns.NewFromConfig(cfg(url, mgmtKey, "us-east-1"))
	open := "arn:aws:sns:us-east-1:" + mgmt + ":open"
	for name, in := range map[string]*sns.PublishInput{
		"a MessageStructure json without default": {TopicArn: aws.String(open), Message: aws.String(`{"email":"x"}`), MessageStructure: aws.String("json")},
		"a message over 256 KiB":                  {TopicArn: aws.String(open), Message: aws.String(strings.Repeat("x", 256*1024+1))},
		"both TopicArn and TargetArn":             {TopicArn: aws.String(open), TargetArn: aws.String(open), Message: aws.String("x")},
		"a deduplication id on a standard topic":  {TopicArn: aws.String(open), Message: aws.String("x"), MessageDeduplicationId: aws.String("d")},
	} {
		if _, err := client.Publish(c, in); code(err) != "InvalidParameter" {
			t.Errorf("%s: %v, want InvalidParameter", name, err)
		}
	}
	if n := len(srv.Published(open)); n != 1 {
		t.Errorf("published to open: %d messages, want alice's one", n)
	}
}

// pubKey is the session key of a role of publishWorld.
func pubKey(role string) string { return "ASIAPUB" + strings.ToUpper(role) + strings.Repeat("0", 16) }
