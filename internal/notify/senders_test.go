package notify

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/credentials"
	"github.com/aws/aws-sdk-go-v2/service/eventbridge"
	"github.com/aws/aws-sdk-go-v2/service/secretsmanager"
	"github.com/aws/aws-sdk-go-v2/service/sns"
	"github.com/google/go-cmp/cmp"
)

var testCreds = credentials.NewStaticCredentialsProvider("AKIDTEST", "secretkey", "")

// snsReceiver decodes the SNS query protocol (form POST, XML reply).
type snsReceiver struct {
	mu    sync.Mutex
	forms []url.Values
}

func (r *snsReceiver) ServeHTTP(w http.ResponseWriter, req *http.Request) {
	if !strings.HasPrefix(req.Header.Get("Authorization"), "AWS4-HMAC-SHA256 ") {
		http.Error(w, "unsigned", http.StatusForbidden)
		return
	}
	if err := req.ParseForm(); err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	r.mu.Lock()
	r.forms = append(r.forms, req.PostForm)
	r.mu.Unlock()
	w.Header().Set("Content-Type", "text/xml")
	io.WriteString(w, `<PublishResponse xmlns="http://sns.amazonaws.com/doc/2010-03-31/"><PublishResult><MessageId>m-1</MessageId></PublishResult><ResponseMetadata><RequestId>r-1</RequestId></ResponseMetadata></PublishResponse>`)
}

func TestSNSSend(t *testing.T) {
	rcv := &snsReceiver{}
	srv := httptest.NewServer(rcv)
	defer srv.Close()
	client := sns.New(sns.Options{BaseEndpoint: aws.String(srv.URL), Region: "eu-west-1", Credentials: testCreds})
	topic := "arn:aws:sns:eu-west-1:111111111111:realdrift-alerts"
	s := goldenCases()["detected"]
	if err := NewSNS(client, topic).Send(t.Context(), s); err != nil {
		t.Fatal(err)
	}
	if len(rcv.forms) != 1 {
		t.Fatalf("%d requests, want 1", len(rcv.forms))
	}
	f := rcv.forms[0]
	got := map[string]string{
		"Action": f.Get("Action"), "TopicArn": f.Get("TopicArn"), "Subject": f.Get("Subject"), "Message": f.Get("Message"),
	}
	want := map[string]string{"Action": "Publish", "TopicArn": topic, "Subject": Subject(s), "Message": Text(s)}
	if d := cmp.Diff(got, want); d != "" {
		t.Errorf("publish form (-got +want):\n%s", d)
	}
	attrs := map[string]Attribute{}
	for i := 1; f.Get("MessageAttributes.entry."+strconv.Itoa(i)+".Name") != ""; i++ {
		p := "MessageAttributes.entry." + strconv.Itoa(i)
		attrs[f.Get(p+".Name")] = Attribute{DataType: f.Get(p + ".Value.DataType"), Value: f.Get(p + ".Value.StringValue")}
	}
	wantAttrs, _ := SNSAttributes(s)
	if d := cmp.Diff(attrs, wantAttrs); d != "" {
		t.Errorf("message attributes (-got +want):\n%s", d)
	}
}

// eventsReceiver decodes EventBridge's JSON 1.1 protocol.
type eventsReceiver struct {
	mu      sync.Mutex
	entries []map[string]any
	fail    bool
}

func (r *eventsReceiver) ServeHTTP(w http.ResponseWriter, req *http.Request) {
	if req.Header.Get("X-Amz-Target") != "AWSEvents.PutEvents" || req.Header.Get("Content-Type") != "application/x-amz-json-1.1" {
		http.Error(w, "unexpected target "+req.Header.Get("X-Amz-Target"), http.StatusBadRequest)
		return
	}
	var in struct{ Entries []map[string]any }
	if err := json.NewDecoder(req.Body).Decode(&in); err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	r.mu.Lock()
	r.entries = append(r.entries, in.Entries...)
	r.mu.Unlock()
	w.Header().Set("Content-Type", "application/x-amz-json-1.1")
	if r.fail {
		io.WriteString(w, `{"FailedEntryCount":1,"Entries":[{"ErrorCode":"InternalException","ErrorMessage":"try again"}]}`)
		return
	}
	io.WriteString(w, `{"FailedEntryCount":0,"Entries":[{"EventId":"e-1"}]}`)
}

func TestEventBridgeSend(t *testing.T) {
	rcv := &eventsReceiver{}
	srv := httptest.NewServer(rcv)
	defer srv.Close()
	client := eventbridge.New(eventbridge.Options{BaseEndpoint: aws.String(srv.URL), Region: "eu-west-1", Credentials: testCreds})
	for _, name := range []string{"detected", "resolved"} {
		s := goldenCases()[name]
		if err := NewEventBridge(client, "realdrift").Send(t.Context(), s); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
	}
	if len(rcv.entries) != 2 {
		t.Fatalf("%d entries, want 2", len(rcv.entries))
	}
	for i, want := range []string{"Drift Detected", "Drift Resolved"} {
		e := rcv.entries[i]
		if e["DetailType"] != want || e["Source"] != Source || e["EventBusName"] != "realdrift" {
			t.Errorf("entry %d: DetailType %v Source %v bus %v", i, e["DetailType"], e["Source"], e["EventBusName"])
		}
		var detail map[string]any
		if err := json.Unmarshal([]byte(e["Detail"].(string)), &detail); err != nil {
			t.Errorf("entry %d detail: %v", i, err)
		}
		if detail["stack"].(map[string]any)["stack"] != "Shop-Api" {
			t.Errorf("entry %d detail stack: %v", i, detail["stack"])
		}
		if _, ok := e["Time"]; !ok {
			t.Errorf("entry %d has no Time", i)
		}
	}
	rcv.fail = true
	err := NewEventBridge(client, "").Send(t.Context(), goldenCases()["detected"])
	if err == nil || !strings.Contains(err.Error(), "InternalException") {
		t.Errorf("failed entry: got %v", err)
	}
	if err := NewEventBridge(client, "").Send(t.Context(), goldenCases()["unchanged-run"]); err == nil {
		t.Error("sent an event for an unchanged drift set")
	}
}

// secretsReceiver answers Secrets Manager's GetSecretValue (JSON 1.1).
type secretsReceiver struct {
	mu     sync.Mutex
	value  string
	calls  int
	lastID string
}

func (r *secretsReceiver) ServeHTTP(w http.ResponseWriter, req *http.Request) {
	if req.Header.Get("X-Amz-Target") != "secretsmanager.GetSecretValue" {
		http.Error(w, "unexpected target", http.StatusBadRequest)
		return
	}
	var in struct{ SecretId string }
	if err := json.NewDecoder(req.Body).Decode(&in); err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	r.calls++
	r.lastID = in.SecretId
	w.Header().Set("Content-Type", "application/x-amz-json-1.1")
	json.NewEncoder(w).Encode(map[string]string{"ARN": "arn:aws:secretsmanager:eu-west-1:1:secret:slack", "Name": in.SecretId, "SecretString": r.value})
}

// slackReceiver is an incoming-webhook endpoint.
type slackReceiver struct {
	mu       sync.Mutex
	payloads []map[string]any
	status   int
	body     string
}

func (r *slackReceiver) ServeHTTP(w http.ResponseWriter, req *http.Request) {
	if req.Method != http.MethodPost || req.Header.Get("Content-Type") != "application/json" {
		http.Error(w, "bad request", http.StatusBadRequest)
		return
	}
	var p map[string]any
	if err := json.NewDecoder(req.Body).Decode(&p); err != nil {
		http.Error(w, "invalid_payload", http.StatusBadRequest)
		return
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	r.payloads = append(r.payloads, p)
	if r.status != 0 {
		w.WriteHeader(r.status)
		io.WriteString(w, r.body)
		return
	}
	io.WriteString(w, "ok")
}

const hookPath = "/services/T0SECRET1/B0SECRET2/xyzSECRETtoken"

func newSlackFixture(t *testing.T, secretFormat string) (*Slack, *secretsReceiver, *slackReceiver, *httptest.Server) {
	t.Helper()
	hook := &slackReceiver{}
	hookSrv := httptest.NewServer(hook)
	t.Cleanup(hookSrv.Close)
	sec := &secretsReceiver{value: strings.ReplaceAll(secretFormat, "URL", hookSrv.URL+hookPath)}
	secSrv := httptest.NewServer(sec)
	t.Cleanup(secSrv.Close)
	sm := secretsmanager.New(secretsmanager.Options{BaseEndpoint: aws.String(secSrv.URL), Region: "eu-west-1", Credentials: testCreds})
	return NewSlack(sm, "realdrift/slack-webhook", hookSrv.Client()), sec, hook, hookSrv
}

func TestSlackSend(t *testing.T) {
	for _, format := range []string{"URL", `{"url":"URL"}`, `{"webhookUrl":"URL"}`} {
		t.Run(format, func(t *testing.T) {
			k, sec, hook, _ := newSlackFixture(t, format)
			s := goldenCases()["detected"]
			for range 2 {
				if err := k.Send(t.Context(), s); err != nil {
					t.Fatal(err)
				}
			}
			if sec.calls != 1 || sec.lastID != "realdrift/slack-webhook" {
				t.Errorf("secret read %d times (id %q), want once", sec.calls, sec.lastID)
			}
			if len(hook.payloads) != 2 {
				t.Fatalf("%d posts, want 2", len(hook.payloads))
			}
			want, _ := SlackPayload(s)
			var wantJSON map[string]any
			if err := json.Unmarshal(want, &wantJSON); err != nil {
				t.Fatal(err)
			}
			if d := cmp.Diff(hook.payloads[0], wantJSON); d != "" {
				t.Errorf("posted payload (-got +want):\n%s", d)
			}
		})
	}
}

// The webhook URL never shows: not in errors (HTTP failures, transport
// failures, echoing bodies), not when the sender is formatted or logged.
func TestSlackURLNeverLeaks(t *testing.T) {
	k, sec, hook, hookSrv := newSlackFixture(t, "URL")
	s := goldenCases()["detected"]
	var texts []string

	hook.status, hook.body = http.StatusInternalServerError, "failed for "+hookSrv.URL+hookPath
	err := k.Send(t.Context(), s)
	if err == nil {
		t.Fatal("HTTP 500 was not an error")
	}
	texts = append(texts, err.Error())

	hook.status, hook.body = http.StatusNotFound, "no_service"
	err = k.Send(t.Context(), s)
	if err == nil || !strings.Contains(err.Error(), "HTTP 404") {
		t.Fatalf("HTTP 404: got %v", err)
	}
	texts = append(texts, err.Error())
	hook.status = 0
	if err := k.Send(t.Context(), s); err != nil {
		t.Fatal(err)
	}
	if sec.calls != 2 {
		t.Errorf("secret read %d times, want 2 (re-read after 404)", sec.calls)
	}

	hookSrv.Close()
	err = k.Send(t.Context(), s)
	if err == nil {
		t.Fatal("closed receiver was not an error")
	}
	texts = append(texts, err.Error())
	var ue *url.Error
	if errors.As(err, &ue) {
		t.Error("error still wraps the *url.Error holding the URL")
	}

	var logged bytes.Buffer
	slog.New(slog.NewJSONHandler(&logged, nil)).Info("sender", "slack", k, "url", k.url)
	texts = append(texts, logged.String())
	texts = append(texts, fmtAll(k)...)
	for _, txt := range texts {
		for _, leak := range []string{hookPath, "SECRET", "xyzSECRETtoken"} {
			if strings.Contains(txt, leak) {
				t.Errorf("leaked %q in %q", leak, txt)
			}
		}
	}
}

func TestSlackRejectsBadSecret(t *testing.T) {
	for _, v := range []string{"not a url", "http://hooks.example.com/services/x", `{"other":"x"}`, "{broken"} {
		t.Run(v, func(t *testing.T) {
			sec := &secretsReceiver{value: v}
			srv := httptest.NewServer(sec)
			defer srv.Close()
			sm := secretsmanager.New(secretsmanager.Options{BaseEndpoint: aws.String(srv.URL), Region: "eu-west-1", Credentials: testCreds})
			err := NewSlack(sm, "id", nil).Send(t.Context(), goldenCases()["detected"])
			if err == nil {
				t.Fatal("accepted a bad webhook secret")
			}
			if strings.Contains(err.Error(), v) {
				t.Errorf("error quotes the secret: %v", err)
			}
		})
	}
}
