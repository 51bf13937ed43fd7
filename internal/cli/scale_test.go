package cli

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/realdrift/realdrift/internal/drift"
	"github.com/realdrift/realdrift/internal/sandbox"
)

// bigStack is a stack of n queues.
func bigStack(n int) map[string][]appResource {
	rs := make([]appResource, n)
	for i := range rs {
		rs[i] = queue(fmt.Sprintf("Queue%03d", i), fmt.Sprintf("Big-Queue%03d", i), map[string]any{"VisibilityTimeout": 30}, nil)
	}
	return map[string][]appResource{"Big": rs}
}

// TestCheckConcurrencyBound checks a 200-resource stack with a slow
// sandbox: the call log never shows more calls in flight than
// --concurrency, and the bound is actually reached (the check is
// concurrent, not serial).
func TestCheckConcurrencyBound(t *testing.T) {
	env := startSandbox(t, appWorld(t, bigStack(200)), testKey, testRegion)
	env.srv.SetLatency(5 * time.Millisecond)
	for _, limit := range []int{1, 4, 16} {
		t.Run(fmt.Sprint(limit), func(t *testing.T) {
			env.srv.ResetCalls()
			rep, errs, code := env.checkJSON("Big", "--concurrency", fmt.Sprint(limit))
			if code != ExitOK {
				t.Fatalf("exit %d\n%s", code, errs)
			}
			st := env.srv.Calls()
			if st.MaxInFlight > limit {
				t.Errorf("max in flight %d > --concurrency %d", st.MaxInFlight, limit)
			}
			if limit > 1 && st.MaxInFlight < 2 {
				t.Errorf("max in flight %d: the reads did not overlap", st.MaxInFlight)
			}
			if n := countTier(rep, drift.Skipped); n != 0 {
				t.Errorf("%d resources skipped", n)
			}
			t.Logf("--concurrency %d: %d calls, max in flight %d", limit, st.Total, st.MaxInFlight)
		})
	}
}

// TestCheckThrottled checks the 200-resource stack with the sandbox
// throttled to 20 requests per second per API: the check completes with
// no resource skipped, the throttling having been met and retried.
func TestCheckThrottled(t *testing.T) {
	if testing.Short() {
		t.Skip("throttled check takes ~10s; skipped only with -short")
	}
	env := startSandbox(t, appWorld(t, bigStack(200)), testKey, testRegion)
	if err := env.srv.SetThrottle([]sandbox.ThrottleRule{{Rate: 20}}); err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	rep, errs, code := env.checkJSON("Big", "--concurrency", "8")
	if code != ExitOK {
		t.Fatalf("exit %d\n%s", code, errs)
	}
	if n := countTier(rep, drift.Skipped); n != 0 {
		t.Errorf("%d resources skipped under throttling", n)
	}
	st := env.srv.Calls()
	throttled := 0
	for k, n := range st.Errors {
		if strings.Contains(k, "Throttl") {
			throttled += n
		}
	}
	if throttled == 0 {
		t.Errorf("no call was throttled (errors %v): the test did not exercise throttling", st.Errors)
	}
	t.Logf("throttled check: %v, %d calls, %d throttled", time.Since(start).Round(time.Millisecond), st.Total, throttled)
}

func countTier(rep jsonReport, tier drift.Tier) int {
	n := 0
	for _, s := range rep.Stacks {
		for _, f := range s.Findings {
			if f.Tier == tier {
				n++
			}
		}
	}
	return n
}
