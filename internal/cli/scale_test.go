package cli

import (
	"fmt"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

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

// manyStacks is k stacks of n queues each, named Big0, Big1, ...
func manyStacks(k, n int) map[string][]appResource {
	out := map[string][]appResource{}
	for s := range k {
		name := fmt.Sprintf("Big%d", s)
		rs := make([]appResource, n)
		for i := range rs {
			rs[i] = queue(fmt.Sprintf("Queue%03d", i), fmt.Sprintf("%s-Queue%03d", name, i), map[string]any{"VisibilityTimeout": 30}, nil)
		}
		out[name] = rs
	}
	return out
}

// TestCheckConcurrencyBound checks 200-resource stacks with a slow
// sandbox, one stack and then six side by side (--all: the run's one
// scheduler bounds the calls of every stack together): the call log never
// shows more calls in flight than --concurrency, the bound is actually
// reached (the check is concurrent, not serial), and the stacks are
// reported in their stable order.
func TestCheckConcurrencyBound(t *testing.T) {
	world := bigStack(200)
	for name, rs := range manyStacks(6, 40) {
		world[name] = rs
	}
	env := startSandbox(t, appWorld(t, world), testKey, testRegion)
	env.srv.SetLatency(5 * time.Millisecond)
	for _, tc := range []struct {
		limit int
		args  []string
	}{{1, []string{"Big"}}, {4, []string{"Big"}}, {16, []string{"Big"}}, {3, []string{"Big?"}}, {32, []string{"--all"}}} {
		limit := tc.limit
		t.Run(fmt.Sprint(limit, tc.args), func(t *testing.T) {
			env.srv.ResetCalls()
			rep, errs, code := env.checkJSON(append(tc.args, "--concurrency", fmt.Sprint(limit))...)
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
			var names []string
			for _, s := range rep.Stacks {
				names = append(names, s.Stack)
			}
			if !sort.StringsAreSorted(names) || len(names) == 0 {
				t.Errorf("stacks reported in the order %v, want sorted", names)
			}
			t.Logf("--concurrency %d %v: %d stacks, %d calls, max in flight %d", limit, tc.args, len(names), st.Total, st.MaxInFlight)
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

// TestCheckCallsPerResource is the call budget of a check (issue #15's
// figure): the 200-queue stack costs one Cloud Control read per queue, the
// queue-policy enumerator's one GetQueueAttributes per queue (the only
// child enumerator of a queue), and four stack calls — 404 calls, 2.02 per
// resource. A reader or enumerator that adds a call per resource fails it.
func TestCheckCallsPerResource(t *testing.T) {
	env := startSandbox(t, appWorld(t, bigStack(200)), testKey, testRegion)
	env.srv.ResetCalls()
	if _, errs, code := env.checkJSON("Big"); code != ExitOK {
		t.Fatalf("exit %d\n%s", code, errs)
	}
	want := map[string]int{
		"cloudcontrolapi:GetResource":       200,
		"sqs:GetQueueAttributes":            200,
		"cloudformation:DescribeStacks":     1,
		"cloudformation:GetTemplate":        1,
		"cloudformation:ListStackResources": 2, // 100 resources a page
	}
	st := env.srv.Calls()
	if diff := cmp.Diff(st.Counts, want); diff != "" {
		t.Errorf("calls per API (-got +want):\n%s", diff)
	}
	t.Logf("200 resources: %d calls, %.2f per resource", st.Total, float64(st.Total)/200)
}
