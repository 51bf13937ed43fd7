package sandbox_test

import (
	"net/http/httptest"
	"net/url"
	"os"
	"strings"
	"testing"

	"github.com/realdrift/realdrift/internal/sandbox"
	"github.com/realdrift/realdrift/internal/sandbox/sandboxtest"
)

// FuzzParseWorld: any input is a world or an error, never a panic; a world
// that parses marshals and parses again.
func FuzzParseWorld(f *testing.F) {
	for _, p := range []string{"testdata/world.json", "testdata/services.json"} {
		b, err := os.ReadFile(p)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
	f.Add([]byte(`{"accounts":[{"id":"111111111111","regions":[{"name":"us-east-1","resources":[{"type":"AWS::S3::Bucket","identifier":"b","properties":{}}]}]}]}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		w, err := sandbox.ParseWorld(data)
		if err != nil {
			return
		}
		out, err := w.Marshal()
		if err != nil {
			t.Fatal(err)
		}
		if _, err := sandbox.ParseWorld(out); err != nil {
			t.Fatalf("a parsed world does not parse again: %v", err)
		}
		if _, err := sandbox.New(w, sandbox.Options{}); err != nil {
			t.Fatalf("a parsed world does not serve: %v", err)
		}
	})
}

// FuzzServeHTTP: no request, however malformed, panics the server or gets
// a 5xx for bad input.
func FuzzServeHTTP(f *testing.F) {
	w := sandboxtest.LoadWorld(f, "testdata/services.json")
	srv, err := sandbox.New(w, sandbox.Options{})
	if err != nil {
		f.Fatal(err)
	}
	f.Cleanup(srv.Close)
	services := []string{"cloudformation", "cloudcontrolapi", "sts", "organizations", "s3", "sqs", "sns", "iam", "lambda", "kms"}
	f.Add(uint8(0), "POST", "/", "", "Action=DescribeStacks&StackName=Svc")
	f.Add(uint8(1), "POST", "/", "CloudApiService.GetResource", `{"TypeName":"AWS::SQS::Queue","Identifier":"x"}`)
	f.Add(uint8(1), "POST", "/", "CloudApiService.UpdateResource", `{"TypeName":"AWS::SQS::Queue","Identifier":"https://sqs.us-east-1.amazonaws.com/111111111111/Svc-Queue-1","PatchDocument":"[{\"op\":\"move\",\"from\":\"/A\",\"path\":\"/B\"}]"}`)
	f.Add(uint8(4), "PUT", "/svc-bucket-1?policy", "", `{"Statement":[]}`)
	f.Add(uint8(5), "POST", "/", "AmazonSQS.SetQueueAttributes", `{"QueueUrl":"https://sqs.us-east-1.amazonaws.com/111111111111/Svc-Queue-1","Attributes":{"Policy":"{}"}}`)
	f.Add(uint8(7), "POST", "/", "", "Action=PutRolePolicy&RoleName=Svc-Role-1&PolicyName=p&PolicyDocument=%7B%7D")
	f.Add(uint8(8), "POST", "/2015-03-31/functions/Svc-Fn-1/policy", "", `{"StatementId":"s","Action":"a","Principal":"p"}`)
	f.Add(uint8(8), "GET", "/2015-03-31/functions/Svc-Fn-1/versions?MaxItems=x", "", "")
	f.Add(uint8(9), "POST", "/", "TrentService.ListAliases", `{"Limit":-1,"Marker":"kms-zz"}`)
	f.Fuzz(func(t *testing.T, svc uint8, method, path, target, body string) {
		if !strings.HasPrefix(path, "/") || strings.ContainsAny(path, " \r\n#") || strings.HasPrefix(path, "/_sandbox") {
			return
		}
		if _, err := url.ParseRequestURI("http://sandbox" + path); err != nil {
			return
		}
		switch method {
		case "GET", "POST", "PUT", "DELETE":
		default:
			return
		}
		req := httptest.NewRequest(method, "http://sandbox"+path, strings.NewReader(body))
		req.Header.Set("Authorization", "AWS4-HMAC-SHA256 Credential=AKIAMGMT0000000000001/20260101/us-east-1/"+services[int(svc)%len(services)]+"/aws4_request, SignedHeaders=host, Signature=0")
		if target != "" {
			req.Header.Set("X-Amz-Target", target)
		}
		if method == "POST" && target == "" {
			req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		}
		rec := httptest.NewRecorder()
		srv.ServeHTTP(rec, req)
		if rec.Code >= 500 {
			t.Errorf("%s %s %q: %d %s", method, path, target, rec.Code, rec.Body.String())
		}
	})
}
