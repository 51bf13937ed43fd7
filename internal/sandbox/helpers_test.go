package sandbox_test

import (
	"context"
	"errors"
	"net/http/httptest"
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

func asErr[T error](err error, target *T) bool { return errors.As(err, target) }

func newBenchServer(b *testing.B, srv *sandbox.Server) string {
	b.Helper()
	hs := httptest.NewServer(srv)
	b.Cleanup(func() { hs.Close(); srv.Close() })
	return hs.URL
}
