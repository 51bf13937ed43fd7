package sandbox_test

import (
	"context"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/smithy-go"

	"github.com/realdrift/realdrift/internal/sandbox"
	"github.com/realdrift/realdrift/internal/sandbox/sandboxtest"
)

const (
	mgmtKey   = "AKIAMGMT0000000000001"
	rootKey   = "AKIAROOT0000000000001" // the management account's root, in world.json
	mgmt      = "111111111111"
	member    = "222222222222"
	queueURL  = "https://sqs.us-east-1.amazonaws.com/111111111111/App-Queue-ABC"
	queueType = "AWS::SQS::Queue"
)

// start serves the world file at path over loopback HTTP.
func start(t *testing.T, path string, opts sandbox.Options) (*sandbox.Server, string) {
	t.Helper()
	return sandboxtest.ServeFile(t, path, opts)
}

func startWorld(t *testing.T, w *sandbox.World, opts sandbox.Options) (*sandbox.Server, string) {
	t.Helper()
	return sandboxtest.Serve(t, w, opts)
}

// cfg returns an SDK config for the sandbox at url acting with key.
func cfg(url, key, region string) aws.Config {
	return sandboxtest.Config(url, key, region)
}

func ctx(t *testing.T) context.Context {
	t.Helper()
	return sandboxtest.Context(t, 60*time.Second)
}

// code returns the API error code of err ("" when it is not an API error).
func code(err error) string {
	var ae smithy.APIError
	if errors.As(err, &ae) {
		return ae.ErrorCode()
	}
	return ""
}

// rawCall sends a hand-written request to the sandbox at url (a method,
// a path, a body of contentType, when given) as the management key of
// world.json, under a SigV4 Authorization header for service that the
// sandbox reads but does not verify, and returns the answer's status and
// body: the requests no SDK sends.
func rawCall(t *testing.T, method, url, service, contentType, body string) (int, string) {
	t.Helper()
	req, err := http.NewRequestWithContext(ctx(t), method, url, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	if contentType != "" {
		req.Header.Set("Content-Type", contentType)
	}
	req.Header.Set("Authorization", "AWS4-HMAC-SHA256 Credential="+mgmtKey+"/20260101/us-east-1/"+service+"/aws4_request, SignedHeaders=host, Signature=0")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return resp.StatusCode, string(b)
}

func asErr[T error](err error, target *T) bool { return errors.As(err, target) }

func newBenchServer(b *testing.B, srv *sandbox.Server) string {
	b.Helper()
	hs := httptest.NewServer(srv)
	b.Cleanup(func() { hs.Close(); srv.Close() })
	return hs.URL
}
