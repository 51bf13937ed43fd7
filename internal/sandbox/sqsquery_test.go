package sandbox_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/realdrift/realdrift/internal/sandbox"
	"github.com/realdrift/realdrift/internal/sandbox/awsmodel"
	"github.com/realdrift/realdrift/internal/sandbox/conformance"
)

// TestSQSQueryProtocol: clients from before SQS moved to JSON (older AWS
// CLIs) send form-encoded query requests and read XML.
func TestSQSQueryProtocol(t *testing.T) {
	_, u := start(t, "testdata/services.json", sandbox.Options{})
	post := func(form url.Values) (int, string) { return postSQSForm(t, u, form) }
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

// TestSQSQueryFormValidated: a query-form write is checked against the
// input constraints of the query model (the AWS CLI v2's, which still
// speaks query to SQS: Attribute.N.Name / Attribute.N.Value), as the
// JSON form is against the JSON model, and refused in the query
// protocol's shape with InvalidParameterValue; the queue is left as it
// was. Driven through the AWS CLI v2 itself and, for what the CLI
// refuses before sending (a missing member), through a raw signed form.
func TestSQSQueryFormValidated(t *testing.T) {
	srv, u := start(t, "testdata/services.json", sandbox.Options{})
	cli, err := awsmodel.AWSCLI(conformance.AWSCLIs()...)
	if err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatalf("CI has the AWS CLI v2 installed: %v", err)
		}
		t.Skipf("no AWS CLI v2: %v", err)
	}
	home := t.TempDir()
	run := func(args ...string) (string, error) {
		cmd := exec.CommandContext(ctx(t), cli.Path, append([]string{"--endpoint-url", u, "--region", "us-east-1", "--output", "json", "sqs"}, args...)...)
		cmd.Env = []string{"HOME=" + home, "AWS_ACCESS_KEY_ID=" + mgmtKey, "AWS_SECRET_ACCESS_KEY=sandbox",
			"AWS_CONFIG_FILE=" + filepath.Join(home, "config"), "AWS_SHARED_CREDENTIALS_FILE=" + filepath.Join(home, "credentials"),
			"AWS_EC2_METADATA_DISABLED=true", "AWS_PAGER=", "AWS_MAX_ATTEMPTS=1", "PATH=" + os.Getenv("PATH")}
		out, err := cmd.CombinedOutput()
		return string(out), err
	}
	delay := func() string {
		m, ok := srv.Live("", "us-east-1", queueType, svcQueue)
		if !ok {
			t.Fatal("queue gone")
		}
		var p struct{ DelaySeconds any }
		if err := json.Unmarshal(m, &p); err != nil {
			t.Fatal(err)
		}
		return fmt.Sprint(p.DelaySeconds)
	}
	if out, err := run("set-queue-attributes", "--queue-url", svcQueue, "--attributes", "DelaySeconds=7"); err != nil {
		t.Fatalf("%s: a valid query-form write: %v\n%s", cli.Version, err, out)
	}
	if got := delay(); got != "7" {
		t.Fatalf("DelaySeconds after the valid write: %s", got)
	}
	out, err := run("set-queue-attributes", "--queue-url", svcQueue, "--attributes", "DelaySeconds=9,NoSuchAttribute=1")
	for _, want := range []string{"(InvalidParameterValue)", "Value 'NoSuchAttribute' at 'attributes.key' failed to satisfy constraint: Member must satisfy enum value set"} {
		if err == nil || !strings.Contains(out, want) {
			t.Errorf("%s: an attribute name outside the model's enumeration: %v, want %q in\n%s", cli.Version, err, want, out)
		}
	}
	if got := delay(); got != "7" {
		t.Errorf("DelaySeconds after the refused write: %s, want 7", got)
	}

	// The CLI checks required members before sending; a raw form does not.
	status, body := postSQSForm(t, u, url.Values{"Action": {"SetQueueAttributes"}, "Version": {"2012-11-05"}, "QueueUrl": {svcQueue}})
	if want := "<Code>InvalidParameterValue</Code><Message>1 validation error detected: Value null at &#39;attributes&#39; failed to satisfy constraint: Member must not be null</Message>"; status != 400 || !strings.Contains(body, want) {
		t.Errorf("no Attribute.N: %d %s, want 400 with %s", status, body, want)
	}
}

// postSQSForm sends a query-form SQS request, as clients from before SQS
// moved to JSON send it, and returns the answer's status and body.
func postSQSForm(t *testing.T, u string, form url.Values) (int, string) {
	t.Helper()
	return rawCall(t, http.MethodPost, u+"/", "sqs", "application/x-www-form-urlencoded", form.Encode())
}
