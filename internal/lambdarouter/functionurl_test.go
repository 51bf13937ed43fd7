package lambdarouter_test

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
	"time"

	"github.com/aws/aws-lambda-go/events"
	"github.com/aws/aws-sdk-go-v2/aws"
	v4 "github.com/aws/aws-sdk-go-v2/aws/signer/v4"
	"github.com/google/go-cmp/cmp"

	"github.com/realdrift/realdrift/internal/lambdarouter"
)

// TestFunctionURLIAM serves a handler as an AWS_IAM function URL: a
// request signed by the SDK's SigV4 signer with a known key reaches the
// handler with its signer's identity; unsigned, wrongly signed, altered,
// stale or other-service requests are 403 and never reach it.
func TestFunctionURLIAM(t *testing.T) {
	r := lambdarouter.New()
	if err := r.Handle("approve", func(_ context.Context, req events.LambdaFunctionURLRequest) (events.LambdaFunctionURLResponse, error) {
		who := ""
		if az := req.RequestContext.Authorizer; az != nil && az.IAM != nil {
			who = az.IAM.UserARN
		}
		return events.LambdaFunctionURLResponse{StatusCode: 200, Body: who + " " + req.RequestContext.HTTP.Method + " " + req.Body}, nil
	}); err != nil {
		t.Fatal(err)
	}
	now := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	alice := lambdarouter.Caller{SecretAccessKey: "alice-secret", ARN: "arn:aws:iam::111111111111:user/alice", Account: "111111111111", UserID: "AIDAALICE"}
	bob := lambdarouter.Caller{SecretAccessKey: "bob-secret", ARN: "arn:aws:iam::111111111111:user/bob", Account: "111111111111", UserID: "AIDABOB"}
	const fnARN = "arn:aws:lambda:us-east-1:111111111111:function:approve"
	// IAM allows alice, not bob, lambda:InvokeFunctionUrl; it is asked
	// about every verified signer.
	var asked []lambdarouter.Ask
	var mu sync.Mutex
	srv := httptest.NewServer(&lambdarouter.FunctionURL{Router: r, Function: "approve", ARN: fnARN, Now: func() time.Time { return now },
		Callers: func(key string) (lambdarouter.Caller, bool) {
			switch key {
			case "AKIAALICE":
				return alice, true
			case "AKIABOB":
				return bob, true
			}
			return lambdarouter.Caller{}, false
		},
		Authorize: func(key string, a lambdarouter.Ask) bool {
			mu.Lock()
			defer mu.Unlock()
			asked = append(asked, a)
			return key == "AKIAALICE"
		}})
	t.Cleanup(srv.Close)

	send := func(body, key, secret, service string, at time.Time, alter func(*http.Request)) (int, string) {
		t.Helper()
		req, err := http.NewRequest(http.MethodPost, srv.URL+"/?x=1", bytes.NewReader([]byte(body)))
		if err != nil {
			t.Fatal(err)
		}
		req.Header.Set("Content-Type", "application/json")
		if key != "" {
			sum := sha256.Sum256([]byte(body))
			creds := aws.Credentials{AccessKeyID: key, SecretAccessKey: secret}
			if err := v4.NewSigner().SignHTTP(context.Background(), creds, req, hex.EncodeToString(sum[:]), service, "us-east-1", at); err != nil {
				t.Fatal(err)
			}
		}
		if alter != nil {
			alter(req)
		}
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer res.Body.Close()
		b, _ := io.ReadAll(res.Body)
		return res.StatusCode, string(b)
	}
	forbidden, _ := json.Marshal(map[string]string{"Message": "Forbidden"})
	for _, tt := range []struct {
		name, key, secret, service string
		at                         time.Time
		alter                      func(*http.Request)
		status                     int
		body                       string
	}{
		{name: "signed", key: "AKIAALICE", secret: "alice-secret", service: "lambda", at: now, status: 200, body: `arn:aws:iam::111111111111:user/alice POST {"decision":"approve"}`},
		{name: "unsigned", status: 403, body: string(forbidden) + "\n"},
		{name: "signed, IAM refuses", key: "AKIABOB", secret: "bob-secret", service: "lambda", at: now, status: 403, body: string(forbidden) + "\n"},
		{name: "unknown key", key: "AKIAMALLORY", secret: "alice-secret", service: "lambda", at: now, status: 403, body: string(forbidden) + "\n"},
		{name: "wrong secret", key: "AKIAALICE", secret: "guess", service: "lambda", at: now, status: 403, body: string(forbidden) + "\n"},
		{name: "another service's signature", key: "AKIAALICE", secret: "alice-secret", service: "sts", at: now, status: 403, body: string(forbidden) + "\n"},
		{name: "stale date", key: "AKIAALICE", secret: "alice-secret", service: "lambda", at: now.Add(-time.Hour), status: 403, body: string(forbidden) + "\n"},
		{name: "altered query", key: "AKIAALICE", secret: "alice-secret", service: "lambda", at: now, status: 403, body: string(forbidden) + "\n",
			alter: func(r *http.Request) { r.URL.RawQuery = "x=2" }},
	} {
		t.Run(tt.name, func(t *testing.T) {
			status, body := send(`{"decision":"approve"}`, tt.key, tt.secret, tt.service, tt.at, tt.alter)
			if diff := cmp.Diff([]any{status, body}, []any{tt.status, tt.body}); diff != "" {
				t.Errorf("(-got +want):\n%s", diff)
			}
		})
	}
	// IAM was asked about the two verified signers only, as Lambda asks.
	want := lambdarouter.Ask{Action: "lambda:InvokeFunctionUrl", Resource: fnARN, Keys: map[string][]string{"lambda:FunctionUrlAuthType": {"AWS_IAM"}}}
	if diff := cmp.Diff(asked, []lambdarouter.Ask{want, want}); diff != "" {
		t.Errorf("asks (-got +want):\n%s", diff)
	}
}
