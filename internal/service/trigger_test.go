package service

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/realdrift/realdrift/internal/drift"
)

func TestIgnoreReason(t *testing.T) {
	base := func() ChangeEvent {
		return ChangeEvent{Detail: EventDetail{EventName: "SetQueueAttributes", EventSource: "sqs.amazonaws.com", SourceIPAddress: "198.51.100.1",
			UserIdentity: UserIdentity{Type: "IAMUser", ARN: "arn:aws:iam::111111111111:user/alice"}}}
	}
	tests := []struct {
		name   string
		edit   func(*ChangeEvent)
		ignore bool
	}{
		{"a person's change", func(*ChangeEvent) {}, false},
		{"read-only", func(e *ChangeEvent) { e.Detail.ReadOnly = true }, true},
		{"failed call", func(e *ChangeEvent) { e.Detail.ErrorCode = "AccessDenied" }, true},
		{"invoked by CloudFormation", func(e *ChangeEvent) { e.Detail.UserIdentity.InvokedBy = "cloudformation.amazonaws.com" }, true},
		{"CloudFormation's source address", func(e *ChangeEvent) { e.Detail.SourceIPAddress = "cloudformation.amazonaws.com" }, true},
		{"CloudFormation's user agent", func(e *ChangeEvent) { e.Detail.UserAgent = "cloudformation.amazonaws.com" }, true},
		{"a deploy", func(e *ChangeEvent) { e.Detail.EventSource = "cloudformation.amazonaws.com" }, true},
		{"realdrift's own session", func(e *ChangeEvent) {
			e.Detail.UserIdentity.ARN = "arn:aws:sts::111111111111:assumed-role/realdrift-read/realdrift"
		}, true},
		{"not an API call", func(e *ChangeEvent) { e.Detail.EventName = "" }, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ev := base()
			tt.edit(&ev)
			if got := ignoreReason(ev) != ""; got != tt.ignore {
				t.Errorf("ignored = %v (%q), want %v", got, ignoreReason(ev), tt.ignore)
			}
		})
	}
}

func TestCandidates(t *testing.T) {
	tests := []struct {
		name string
		ev   ChangeEvent
		want []string
	}{
		{
			name: "queue url from the request",
			ev:   ChangeEvent{Detail: EventDetail{RequestParameters: json.RawMessage(`{"queueUrl":"https://sqs.us-east-1.amazonaws.com/1/q","attributes":{"VisibilityTimeout":"5"}}`)}},
			want: []string{"https://sqs.us-east-1.amazonaws.com/1/q"},
		},
		{
			name: "resource ARNs and their names, then parameters in key order",
			ev: ChangeEvent{
				Resources: []string{"arn:aws:s3:::my-bucket"},
				Detail: EventDetail{
					Resources: []struct {
						ARN string `json:"ARN"`
					}{{ARN: "arn:aws:iam::1:role/app-role"}},
					RequestParameters: json.RawMessage(`{"roleName":"app-role","policyName":"inline","policyDocument":"{\"Version\":\"2012-10-17\"}"}`),
				},
			},
			want: []string{"arn:aws:iam::1:role/app-role", "app-role", "arn:aws:s3:::my-bucket", "my-bucket", "inline"},
		},
		{
			name: "response elements too",
			ev:   ChangeEvent{Detail: EventDetail{ResponseElements: json.RawMessage(`{"functionArn":"arn:aws:lambda:us-east-1:1:function:fn"}`)}},
			want: []string{"arn:aws:lambda:us-east-1:1:function:fn", "fn"},
		},
		{name: "nothing", ev: ChangeEvent{}, want: nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if diff := cmp.Diff(candidates(tt.ev), tt.want); diff != "" {
				t.Errorf("(-got +want):\n%s", diff)
			}
		})
	}
}

func TestCandidatesBounded(t *testing.T) {
	params := map[string]string{}
	for i := range 100 {
		params[strings.Repeat("k", i+1)] = strings.Repeat("v", i+1)
	}
	b, _ := json.Marshal(params)
	if got := candidates(ChangeEvent{Detail: EventDetail{RequestParameters: b}}); len(got) != maxCandidates {
		t.Errorf("%d candidates, want the bound %d", len(got), maxCandidates)
	}
}

func TestTaggedStack(t *testing.T) {
	tests := []struct {
		name, params, want string
	}{
		{"list of Key/Value", `{"bucketName":"b","tagging":{"tagSet":[{"key":"team","value":"x"},{"key":"aws:cloudformation:stack-name","value":"Prod"}]}}`, "Prod"},
		{"list of Key/Value capitalised", `{"Tags":[{"Key":"aws:cloudformation:stack-name","Value":"Api"}]}`, "Api"},
		{"map of tags", `{"tags":{"aws:cloudformation:stack-name":"Queue-Stack"}}`, "Queue-Stack"},
		{"no tag", `{"tags":{"team":"x"}}`, ""},
		{"not JSON", `nope`, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := taggedStack(json.RawMessage(tt.params)); got != tt.want {
				t.Errorf("got %q, want %q", got, tt.want)
			}
		})
	}
}

func TestEventRunID(t *testing.T) {
	a := drift.StackRef{Account: "111111111111", Region: "us-east-1", Name: "api"}
	b := drift.StackRef{Account: "111111111111", Region: "us-east-1", Name: "web"}
	ev := "0f8fad5b-d9cb-469f-a165-70867728950e"
	id := eventRunID(ev, a)
	if id != eventRunID(ev, a) {
		t.Error("run id is not deterministic")
	}
	if id == eventRunID("another-event", a) {
		t.Error("two windows of one stack share a run id")
	}
	if id == eventRunID(ev, b) {
		t.Error("two stacks of one event share a run id")
	}
	if len(id) > 80 || strings.ContainsAny(id, "#/ ") {
		t.Errorf("run id %q is not a valid execution name", id)
	}
}
