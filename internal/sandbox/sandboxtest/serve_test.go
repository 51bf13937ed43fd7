package sandboxtest_test

import (
	"net/http"
	"testing"
	"time"

	"github.com/realdrift/realdrift/internal/sandbox"
	"github.com/realdrift/realdrift/internal/sandbox/sandboxtest"
)

func TestServeAnswersAndContextEnds(t *testing.T) {
	w := &sandbox.World{Accounts: []*sandbox.Account{{ID: "111111111111", Regions: []*sandbox.Region{{Name: "us-east-1"}}}}}
	_, url := sandboxtest.Serve(t, w, sandbox.Options{})
	ctx := sandboxtest.Context(t, time.Minute)
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		t.Fatal(err)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatalf("sandbox at %s does not answer: %v", url, err)
	}
	resp.Body.Close()
	if _, ok := ctx.Deadline(); !ok {
		t.Error("Context has no deadline")
	}
}
