package lambdarouter_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/aws/aws-lambda-go/lambda/messages"
	"github.com/aws/aws-lambda-go/lambdacontext"
	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/lambda"
	"github.com/aws/aws-sdk-go-v2/service/lambda/types"
	"github.com/aws/smithy-go"
	"github.com/google/go-cmp/cmp"

	"github.com/realdrift/realdrift/internal/lambdarouter"
)

type echoIn struct {
	Name string `json:"name"`
}

type echoOut struct {
	Greeting string `json:"greeting"`
	Invoked  string `json:"invoked"`
}

// Throttled is named like the error type the state machines retry on.
type Throttled struct{ msg string }

func (t *Throttled) Error() string { return t.msg }

func newServer(t *testing.T) (*lambda.Client, *int) {
	t.Helper()
	r := lambdarouter.New()
	events := 0
	handlers := map[string]any{
		"echo": func(ctx context.Context, in echoIn) (echoOut, error) {
			lc, _ := lambdacontext.FromContext(ctx)
			return echoOut{Greeting: "hello " + in.Name, Invoked: lc.InvokedFunctionArn}, nil
		},
		"throttled": func(context.Context, echoIn) (echoOut, error) {
			return echoOut{}, &Throttled{msg: "rate exceeded"}
		},
		"typed": func(context.Context) error {
			return messages.InvokeResponse_Error{Type: "States.Custom", Message: "typed failure"}
		},
		"wrapped": func(context.Context) error {
			return fmt.Errorf("load desired: %w", &Throttled{msg: "inner"})
		},
		"panics": func(context.Context) error {
			panic("boom")
		},
		"huge": func(context.Context) (string, error) {
			return strings.Repeat("x", lambdarouter.MaxPayload), nil
		},
		"event": func(context.Context) error {
			events++
			return nil
		},
	}
	for name, h := range handlers {
		if err := r.Handle(name, h); err != nil {
			t.Fatal(err)
		}
	}
	srv := httptest.NewServer(r)
	t.Cleanup(srv.Close)
	client := lambda.New(lambda.Options{
		Region:           "us-east-1",
		BaseEndpoint:     aws.String(srv.URL),
		Credentials:      aws.AnonymousCredentials{},
		RetryMaxAttempts: 1,
	})
	return client, &events
}

func TestInvoke(t *testing.T) {
	client, _ := newServer(t)
	tests := []struct {
		name, function, payload string
		wantFunctionError       string
		wantPayload             string
	}{
		{
			name: "bare name", function: "echo", payload: `{"name":"a"}`,
			wantPayload: `{"greeting":"hello a","invoked":"arn:aws:lambda:us-east-1:000000000000:function:echo"}`,
		},
		{
			name: "full ARN", function: "arn:aws:lambda:eu-west-1:123456789012:function:echo", payload: `{"name":"b"}`,
			wantPayload: `{"greeting":"hello b","invoked":"arn:aws:lambda:eu-west-1:123456789012:function:echo"}`,
		},
		{
			name: "qualified ARN", function: "arn:aws:lambda:eu-west-1:123456789012:function:echo:live", payload: `{"name":"c"}`,
			wantPayload: `{"greeting":"hello c","invoked":"arn:aws:lambda:eu-west-1:123456789012:function:echo:live"}`,
		},
		{
			name: "partial ARN", function: "123456789012:function:echo", payload: `{"name":"d"}`,
			wantPayload: `{"greeting":"hello d","invoked":"arn:aws:lambda:us-east-1:123456789012:function:echo"}`,
		},
		{
			name: "handler error type", function: "throttled", payload: `{}`,
			wantFunctionError: "Unhandled",
			wantPayload:       `{"errorMessage":"rate exceeded","errorType":"Throttled"}`,
		},
		{
			name: "explicit error document", function: "typed", payload: `{}`,
			wantFunctionError: "Unhandled",
			wantPayload:       `{"errorMessage":"typed failure","errorType":"States.Custom"}`,
		},
		{
			name: "wrapped error is named by its outer type, like the Go runtime", function: "wrapped", payload: `{}`,
			wantFunctionError: "Unhandled",
			wantPayload:       `{"errorMessage":"load desired: inner","errorType":"wrapError"}`,
		},
		{
			name: "panic", function: "panics", payload: `{}`,
			wantFunctionError: "Unhandled",
			wantPayload:       `{"errorMessage":"boom","errorType":"string"}`,
		},
		{
			name: "bad payload", function: "echo", payload: `[1,2]`,
			wantFunctionError: "Unhandled",
			wantPayload:       `{"errorMessage":"json: cannot unmarshal array into Go value of type lambdarouter_test.echoIn","errorType":"UnmarshalTypeError"}`,
		},
		{
			name: "response too large", function: "huge", payload: `{}`,
			wantFunctionError: "Unhandled",
			wantPayload:       `{"errorMessage":"Response payload size (6291458 bytes) exceeded maximum allowed payload size (6291456 bytes).","errorType":"Function.ResponseSizeTooLarge"}`,
		},
		{
			name: "optimized integration is unpacked", function: lambdarouter.OptimizedIntegration,
			payload:     `{"FunctionName":"arn:aws:lambda:us-east-1:123456789012:function:echo","Payload":{"name":"e"}}`,
			wantPayload: `{"ExecutedVersion":"$LATEST","Payload":{"greeting":"hello e","invoked":"arn:aws:lambda:us-east-1:123456789012:function:echo"},"StatusCode":200}`,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out, err := client.Invoke(t.Context(), &lambda.InvokeInput{
				FunctionName: aws.String(tt.function),
				Payload:      []byte(tt.payload),
			})
			if err != nil {
				t.Fatalf("Invoke: %v", err)
			}
			if diff := cmp.Diff(aws.ToString(out.FunctionError), tt.wantFunctionError); diff != "" {
				t.Errorf("FunctionError (-got +want):\n%s", diff)
			}
			if diff := cmp.Diff(canonical(t, out.Payload), canonical(t, []byte(tt.wantPayload))); diff != "" {
				t.Errorf("Payload (-got +want):\n%s", diff)
			}
			if out.StatusCode != http.StatusOK {
				t.Errorf("StatusCode = %d, want 200", out.StatusCode)
			}
		})
	}
}

func TestInvokeServiceErrors(t *testing.T) {
	client, _ := newServer(t)
	tests := []struct {
		name, function string
		payload        []byte
		wantCode       string
	}{
		{name: "unknown function", function: "missing", payload: []byte(`{}`), wantCode: "ResourceNotFoundException"},
		{name: "not a lambda ARN", function: "arn:aws:sqs:us-east-1:123456789012:function:echo", payload: []byte(`{}`), wantCode: "InvalidParameterValueException"},
		{name: "request too large", function: "echo", payload: []byte(`"` + strings.Repeat("x", lambdarouter.MaxPayload) + `"`), wantCode: "RequestTooLargeException"},
		{name: "optimized without FunctionName", function: lambdarouter.OptimizedIntegration, payload: []byte(`{"Payload":{}}`), wantCode: "InvalidParameterValueException"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := client.Invoke(t.Context(), &lambda.InvokeInput{FunctionName: aws.String(tt.function), Payload: tt.payload})
			var apiErr smithy.APIError
			if !errors.As(err, &apiErr) {
				t.Fatalf("Invoke error = %v, want an API error %s", err, tt.wantCode)
			}
			if diff := cmp.Diff(apiErr.ErrorCode(), tt.wantCode); diff != "" {
				t.Errorf("error code (-got +want):\n%s", diff)
			}
		})
	}
}

func TestInvocationTypes(t *testing.T) {
	client, events := newServer(t)
	out, err := client.Invoke(t.Context(), &lambda.InvokeInput{FunctionName: aws.String("event"), InvocationType: types.InvocationTypeEvent})
	if err != nil {
		t.Fatalf("Invoke Event: %v", err)
	}
	if out.StatusCode != http.StatusAccepted || *events != 1 {
		t.Errorf("Event invoke: status %d, handler ran %d times; want 202 and 1", out.StatusCode, *events)
	}
	out, err = client.Invoke(t.Context(), &lambda.InvokeInput{FunctionName: aws.String("event"), InvocationType: types.InvocationTypeDryRun})
	if err != nil {
		t.Fatalf("Invoke DryRun: %v", err)
	}
	if out.StatusCode != http.StatusNoContent || *events != 1 {
		t.Errorf("DryRun invoke: status %d, handler ran %d times; want 204 and still 1", out.StatusCode, *events)
	}
}

func TestHandleRejects(t *testing.T) {
	r := lambdarouter.New()
	if err := r.Handle("ok", func() error { return nil }); err != nil {
		t.Fatalf("first registration: %v", err)
	}
	tests := []struct {
		name    string
		fn      string
		handler any
	}{
		{name: "duplicate", fn: "ok", handler: func() error { return nil }},
		{name: "bad name", fn: "has:colon", handler: func() error { return nil }},
		{name: "not a function", fn: "value", handler: 42},
		{name: "nil", fn: "nothing", handler: nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if err := r.Handle(tt.fn, tt.handler); err == nil {
				t.Errorf("Handle(%q, %T) succeeded, want an error", tt.fn, tt.handler)
			}
		})
	}
	if diff := cmp.Diff(r.Names(), []string{"ok"}); diff != "" {
		t.Errorf("Names (-got +want):\n%s", diff)
	}
}

func TestNotInvokeAPI(t *testing.T) {
	srv := httptest.NewServer(lambdarouter.New())
	defer srv.Close()
	for _, tt := range []struct{ method, path string }{
		{http.MethodGet, "/2015-03-31/functions/echo/invocations"},
		{http.MethodPost, "/2015-03-31/functions/echo/configuration"},
	} {
		req, _ := http.NewRequestWithContext(t.Context(), tt.method, srv.URL+tt.path, nil)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode < 400 || resp.Header.Get("X-Amzn-ErrorType") == "" {
			t.Errorf("%s %s: status %d, error type %q; want a 4xx service error", tt.method, tt.path, resp.StatusCode, resp.Header.Get("X-Amzn-ErrorType"))
		}
	}
}

func canonical(t *testing.T, b []byte) any {
	t.Helper()
	var v any
	if err := json.Unmarshal(b, &v); err != nil {
		t.Fatalf("payload %q is not JSON: %v", b, err)
	}
	return v
}

// TestConcurrentInvocationsKeepTheirPayloads invokes one handler from many
// goroutines at once: every response is the one its own request asked for
// (a router that hands on a reused buffer mixes them, and -race sees it).
func TestConcurrentInvocationsKeepTheirPayloads(t *testing.T) {
	client, _ := newServer(t)
	const n = 64
	errs := make(chan error, n)
	for i := range n {
		go func() {
			name := fmt.Sprintf("caller-%03d-%s", i, strings.Repeat("p", 2000+i))
			payload, _ := json.Marshal(echoIn{Name: name})
			out, err := client.Invoke(t.Context(), &lambda.InvokeInput{FunctionName: aws.String("echo"), Payload: payload})
			if err != nil {
				errs <- err
				return
			}
			var got echoOut
			if err := json.Unmarshal(out.Payload, &got); err != nil || got.Greeting != "hello "+name {
				errs <- fmt.Errorf("caller %d: payload %.80q (%v), want its own greeting", i, out.Payload, err)
				return
			}
			errs <- nil
		}()
	}
	for range n {
		if err := <-errs; err != nil {
			t.Error(err)
		}
	}
}
