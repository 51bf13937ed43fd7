package conformance_test

import (
	"maps"
	"slices"
	"sort"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws/retry"
	"github.com/google/go-cmp/cmp"

	"github.com/realdrift/realdrift/internal/sandbox"
)

// TestThrottleErrorsFromModels: a throttled call answers the throttling
// error AWS's model names for its operation — an error of the operation
// whose code aws-sdk-go-v2 retries as a throttle (retry.
// DefaultThrottleErrorCodes), with the model's HTTP status (400 when it
// gives none) — and an operation whose model names none answers a code
// the SDK retries as a throttle, so the sandbox never throttles with an
// error a client cannot recognise. Without botocore the test skips,
// except in CI.
func TestThrottleErrorsFromModels(t *testing.T) {
	served := sandbox.ServedThrottles()
	_, version, models := botocoreModels(t, maps.Keys(served))
	// want are the throttling errors each operation's models name (RDS's
	// signing name serves three models; they agree).
	want := map[sandbox.Operation][]sandbox.ThrottleError{}
	for _, m := range models {
		for op := range served {
			o, ok := m.Operations[op.Name]
			if !ok || !m.Serves(op.Service) {
				continue
			}
			for _, e := range o.Errors {
				code := m.ErrorCode(e.Shape)
				if _, throttle := retry.DefaultThrottleErrorCodes[code]; !throttle {
					continue
				}
				status := 400
				if s := m.Shapes[e.Shape]; s != nil && s.Error != nil && s.Error.HTTPStatusCode != 0 {
					status = s.Error.HTTPStatusCode
				}
				if te := (sandbox.ThrottleError{Status: status, Code: code}); !slices.Contains(want[op], te) {
					want[op] = append(want[op], te)
				}
			}
		}
	}
	var bad []string
	named := 0
	for op, got := range served {
		if w := want[op]; len(w) > 0 {
			named++
			if !slices.Contains(w, got) {
				bad = append(bad, op.String()+": "+cmp.Diff(got, w))
			}
			continue
		}
		if _, ok := retry.DefaultThrottleErrorCodes[got.Code]; !ok {
			bad = append(bad, op.String()+": "+got.Code+" is no throttling code the SDK knows")
		}
	}
	sort.Strings(bad)
	for _, b := range bad {
		t.Error(b)
	}
	t.Logf("botocore %s: %d served operations, %d whose model names a throttling error", version, len(served), named)
}
