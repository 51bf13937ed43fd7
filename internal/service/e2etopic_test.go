package service_test

import (
	"encoding/json"
	"encoding/pem"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/sns"

	"github.com/realdrift/realdrift/internal/sandbox"
	"github.com/realdrift/realdrift/internal/service"
)

// The alert topic of the e2e deployment and the key that encrypts it
// (infra's MessagesKey: a key id, as the topic's KmsMasterKeyId Ref gives).
const (
	alertTopicName = "realdrift-alerts"
	messagesKeyID  = "0e2e0000-aaaa-4bbb-8ccc-000000000001"
)

func alertTopicArn() string {
	return "arn:aws:sns:" + centralRegion + ":" + demoAccount(0) + ":" + alertTopicName
}

// alertTopicCopy reads the committed copy of the alert topic's access
// policy and its key's policy (testdata/iam/alert-topic.json, which
// infra's TestAlertTopicPolicyCopy keeps equal to the synthesized
// template), filled in for this deployment; statements whose Sid is in
// drop, given as topic/SID or key/SID, are left out.
func alertTopicCopy(t *testing.T, fill map[string]string, drop ...string) (topicPolicy, keyPolicy json.RawMessage) {
	t.Helper()
	const file = "alert-topic.json"
	var copy struct {
		Placeholders map[string]string
		TopicPolicy  policyDocument
		KeyPolicy    policyDocument
	}
	readCopy(t, file, &copy)
	filled := filler(t, file, copy.Placeholders, fill)
	dropped := 0
	topicPolicy = filled(copy.TopicPolicy.without(t, "topic", drop, &dropped))
	keyPolicy = filled(copy.KeyPolicy.without(t, "key", drop, &dropped))
	if dropped != len(drop) {
		t.Fatalf("%s: dropped %d of the statements %v", file, dropped, drop)
	}
	return topicPolicy, keyPolicy
}

// seedAlertTopic gives the central account's region the alert topic,
// encrypted with the messages key, under the topic and key policies.
func seedAlertTopic(t *testing.T, w *sandbox.World, topicPolicy, keyPolicy json.RawMessage) {
	t.Helper()
	arn := alertTopicArn()
	for _, a := range w.Accounts {
		if a.ID != demoAccount(0) {
			continue
		}
		for _, r := range a.Regions {
			if r.Name != centralRegion {
				continue
			}
			r.Resources = append(r.Resources,
				&sandbox.Resource{Type: "AWS::KMS::Key", PhysicalID: messagesKeyID,
					Properties: json.RawMessage(`{"KeyId":"` + messagesKeyID + `","KeyPolicy":` + string(keyPolicy) + `}`)},
				&sandbox.Resource{Type: "AWS::SNS::Topic", PhysicalID: arn,
					Properties: json.RawMessage(`{"TopicName":"` + alertTopicName + `","TopicArn":"` + arn + `","DisplayName":"realdrift alerts","KmsMasterKeyId":"` + messagesKeyID + `"}`)},
				&sandbox.Resource{Type: "AWS::SNS::TopicPolicy", PhysicalID: arn,
					Properties: json.RawMessage(`{"Topics":["` + arn + `"],"PolicyDocument":` + string(topicPolicy) + `}`)},
			)
			return
		}
	}
	t.Fatalf("the central account has no region %s", centralRegion)
}

// serveTLS serves the sandbox over TLS (the alert topic's policy denies a
// publish over plain HTTP, as infra's EnforceSSL synthesizes it) and
// returns its URL and the PEM certificate a client must trust.
func serveTLS(t *testing.T, sb *sandbox.Server) (url string, caBundle []byte) {
	t.Helper()
	srv := httptest.NewTLSServer(sb)
	t.Cleanup(srv.Close)
	return srv.URL, pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: srv.Certificate().Raw})
}

// alertsPublished returns the messages the sandbox accepted on the alert
// topic.
func (e *e2e) alertsPublished() []sandbox.PublishedMessage {
	return e.sandbox.Published(alertTopicArn())
}

// topicAlerts counts the drift alerts on the alert topic per stack
// (account/region/name, from the message attributes notify sets), as the
// Slack webhook's alerts() does.
func (e *e2e) topicAlerts(t *testing.T) map[string]int {
	t.Helper()
	out := map[string]int{}
	for _, m := range e.alertsPublished() {
		attr := func(name string) string { return m.Attributes[name].StringValue }
		if attr("stack") == "" {
			t.Errorf("a message on the alert topic without a stack attribute: %q", m.Subject)
			continue
		}
		out[attr("account")+"/"+attr("region")+"/"+attr("stack")]++
	}
	return out
}

// TestAlertTopicPolicies: the functions publish to the alert topic only as
// infra's policies let them — over TLS (the topic policy's
// AllowPublishThroughSSLOnly denies plain HTTP to everyone), and with the
// key policy letting the publisher use the topic's key through SNS
// (notify: AlertPublishers; request-approval: ApprovalPublishers), their
// roles holding no KMS grant of their own. The alerts of a sweep arrive on the
// topic (TestSweepEndToEnd counts them); without AlertPublishers the
// sweep's alert step fails on SNS, says so in the log and publishes
// nothing, while the other channels still alert.
func TestAlertTopicPolicies(t *testing.T) {
	e := startE2EWith(t, e2eConfig{readPolicies: readRoleDocuments(t)})
	publish := func(key, endpoint string, ca []byte) error {
		cfg, err := service.AWSConfig(t.Context(), service.Settings{AccessKeyID: key, SecretAccessKey: "e2e-session-secret", CABundle: ca}, centralRegion)
		if err != nil {
			t.Fatal(err)
		}
		_, err = sns.NewFromConfig(cfg, func(o *sns.Options) { o.BaseEndpoint = aws.String(endpoint) }).Publish(t.Context(), &sns.PublishInput{
			TopicArn: aws.String(alertTopicArn()), Subject: aws.String("realdrift test"), Message: aws.String("policy check"),
		})
		return err
	}
	for _, tc := range []struct {
		name, key string
		plain     bool
		says      string
	}{
		{name: "notify over TLS", key: functionKey("notify")},
		{name: "request-approval over TLS", key: functionKey("request-approval")},
		{name: "notify over plain HTTP", key: functionKey("notify"), plain: true,
			says: "AuthorizationError: User: arn:aws:sts::" + demoAccount(0) + ":assumed-role/realdrift-notify/"},
	} {
		endpoint, ca := e.snsURL, e.snsCA
		if tc.plain {
			endpoint, ca = e.sandboxURL, nil
		}
		err := publish(tc.key, endpoint, ca)
		switch {
		case tc.says == "" && err != nil:
			t.Errorf("%s: %v", tc.name, err)
		case tc.says != "" && (err == nil || !strings.Contains(err.Error(), tc.says)):
			t.Errorf("%s: %v, want a refusal saying %q", tc.name, err, tc.says)
		}
	}
	if n := len(e.alertsPublished()); n != 2 {
		t.Errorf("%d messages on the alert topic, want notify's and request-approval's", n)
	}
}

// TestSweepEndToEndAlertKeyDenied is the negative for the alert topic's
// key policy: without its AlertPublishers statement the notify role may
// not use the topic's key through SNS (it holds no KMS grant of its own,
// so the key policy's account-root statement delegates to nothing), every
// drift alert's SNS publish is refused with KMSAccessDenied, the log says
// the alert was not delivered, and the topic receives nothing; Slack still
// alerts.
func TestSweepEndToEndAlertKeyDenied(t *testing.T) {
	e := startE2EWith(t, e2eConfig{readPolicies: readRoleDocuments(t), alertDrop: []string{"key/AlertPublishers"}})
	sum := e.sweep(t, "sweep-key-denied")
	if sum.Changed == 0 {
		t.Fatalf("sweep %+v: no drifted stack to alert on", sum)
	}
	if n := len(e.alertsPublished()); n != 0 {
		t.Errorf("%d messages on the alert topic whose key notify may not use", n)
	}
	if e.hook.total() == 0 {
		t.Error("no Slack alert: one refused channel silenced the others")
	}
	refused := 0
	for line := range strings.Lines(e.logs.String()) {
		if strings.Contains(line, "realdrift alert not delivered") && strings.Contains(line, `"channel":"sns"`) {
			if !strings.Contains(line, "KMSAccessDenied") {
				t.Errorf("alert failure without KMS's refusal: %s", line)
			}
			refused++
		}
	}
	if refused < sum.Changed {
		t.Errorf("%d SNS delivery failures logged for %d drifted stacks", refused, sum.Changed)
	}
	if n := e.sandbox.Calls().Errors["sns:Publish:KMSAccessDenied"]; n == 0 {
		t.Errorf("the sandbox refused no Publish with KMSAccessDenied; errors %v", e.sandbox.Calls().Errors)
	}
}
