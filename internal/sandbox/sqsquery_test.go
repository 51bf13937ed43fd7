package sandbox_test

import (
	"io"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/realdrift/realdrift/internal/sandbox"
)

// TestSQSQueryProtocol: clients from before SQS moved to JSON (older AWS
// CLIs) send form-encoded query requests and read XML.
func TestSQSQueryProtocol(t *testing.T) {
	_, u := start(t, "testdata/services.json", sandbox.Options{})
	post := func(form url.Values) (int, string) {
		req, err := http.NewRequestWithContext(ctx(t), "POST", u+"/", strings.NewReader(form.Encode()))
		if err != nil {
			t.Fatal(err)
		}
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		req.Header.Set("Authorization", "AWS4-HMAC-SHA256 Credential="+mgmtKey+"/20260101/us-east-1/sqs/aws4_request, SignedHeaders=host, Signature=00")
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, string(b)
	}
	status, body := post(url.Values{"Action": {"SetQueueAttributes"}, "Version": {"2012-11-05"}, "QueueUrl": {svcQueue},
		"Attribute.1.Name": {"DelaySeconds"}, "Attribute.1.Value": {"7"}})
	if status != 200 || !strings.Contains(body, "<SetQueueAttributesResponse") {
		t.Fatalf("set: %d %s", status, body)
	}
	status, body = post(url.Values{"Action": {"GetQueueAttributes"}, "Version": {"2012-11-05"}, "QueueUrl": {svcQueue}, "AttributeName.1": {"DelaySeconds"}})
	if status != 200 || !strings.Contains(body, "<Attribute><Name>DelaySeconds</Name><Value>7</Value></Attribute>") {
		t.Errorf("get: %d %s", status, body)
	}
	status, body = post(url.Values{"Action": {"GetQueueAttributes"}, "Version": {"2012-11-05"}, "QueueUrl": {svcQueue + "x"}})
	if status != 400 || !strings.Contains(body, "<Code>AWS.SimpleQueueService.NonExistentQueue</Code>") {
		t.Errorf("missing queue: %d %s", status, body)
	}
}
