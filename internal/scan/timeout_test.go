package scan_test

import (
	"bytes"
	"io"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/s3"

	"github.com/realdrift/realdrift/internal/scan"
)

// TestCallDeadlineKeepsStreamingBodies: a streaming output's body (S3
// GetObject) is read after the call returns; the call deadline must stay
// in force until it is closed, not end with the call and cut the body off.
// The server sends the headers, then the body a moment later.
func TestCallDeadlineKeepsStreamingBodies(t *testing.T) {
	body := bytes.Repeat([]byte("realdrift "), 100_000)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusOK)
		w.(http.Flusher).Flush()
		time.Sleep(50 * time.Millisecond)
		_, _ = w.Write(body)
	}))
	t.Cleanup(srv.Close)
	cfg, err := scan.Config(t.Context(), scan.Settings{Region: "us-east-1", EndpointURL: srv.URL,
		AccessKeyID: "AKIDEXAMPLE", SecretAccessKey: "secret", CallTimeout: 10 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	out, err := s3.NewFromConfig(cfg, func(o *s3.Options) { o.UsePathStyle = true }).
		GetObject(t.Context(), &s3.GetObjectInput{Bucket: aws.String("b"), Key: aws.String("targets.json")})
	if err != nil {
		t.Fatal(err)
	}
	got, err := io.ReadAll(out.Body)
	if cerr := out.Body.Close(); err == nil {
		err = cerr
	}
	if err != nil || !bytes.Equal(got, body) {
		t.Fatalf("body after the call returned: %d of %d bytes, %v", len(got), len(body), err)
	}
}
