package sandbox_test

import (
	"encoding/json"
	"net/http"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/aws/retry"
	"github.com/aws/aws-sdk-go-v2/service/sts"
	"github.com/google/go-cmp/cmp"

	"github.com/realdrift/realdrift/internal/sandbox"
)

// noDelay retries at once, so the test waits on nothing.
type noDelay struct{}

func (noDelay) BackoffDelay(int, error) (time.Duration, error) { return 0, nil }

// TestCallLogAttempts: the call log keeps each attempt with the number the
// SDK sent (amz-sdk-request: attempt=N), and counts requests (first
// attempts) apart from retries, so a test can count what a client asked for
// whatever a busy machine made it retry. A call without the header is a
// request of its own.
func TestCallLogAttempts(t *testing.T) {
	srv, u := start(t, "testdata/world.json", sandbox.Options{})
	if err := srv.SetFaults([]sandbox.FaultRule{{Service: "sts", Action: "GetCallerIdentity", Code: "InternalFailure"}}); err != nil {
		t.Fatal(err)
	}
	conf := cfg(u, mgmtKey, "us-east-1")
	conf.Retryer = func() aws.Retryer {
		return retry.NewStandard(func(o *retry.StandardOptions) { o.MaxAttempts, o.Backoff = 3, noDelay{} })
	}
	if _, err := sts.NewFromConfig(conf).GetCallerIdentity(ctx(t), &sts.GetCallerIdentityInput{}); code(err) != "InternalFailure" {
		t.Fatalf("GetCallerIdentity: %v, want the injected InternalFailure after the retries", err)
	}
	// A request that is not the SDK's carries no attempt number.
	rawCall(t, http.MethodPost, u, "sts", "application/x-www-form-urlencoded", "Action=GetCallerIdentity&Version=2011-06-15")

	// Read through the admin API, as `realdrift sandbox calls` does.
	resp, err := http.Get(u + "/_sandbox/calls")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var st sandbox.CallStats
	if err := json.NewDecoder(resp.Body).Decode(&st); err != nil {
		t.Fatal(err)
	}
	const api = "sts:GetCallerIdentity"
	type counts struct{ Calls, Requests, Retries int }
	if diff := cmp.Diff(counts{st.Counts[api], st.Requests[api], st.Retries[api]}, counts{4, 2, 2}); diff != "" {
		t.Errorf("call log (-got +want):\n%s", diff)
	}
	var attempts []int
	for _, r := range st.Recent {
		attempts = append(attempts, r.Attempt)
	}
	if diff := cmp.Diff(attempts, []int{1, 2, 3, 0}); diff != "" {
		t.Errorf("attempts in the call log (-got +want):\n%s", diff)
	}
}
