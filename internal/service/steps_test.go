package service

import (
	"errors"
	"fmt"
	"testing"

	"github.com/aws/smithy-go"
	"github.com/google/go-cmp/cmp"

	"github.com/realdrift/realdrift/internal/drift"
	"github.com/realdrift/realdrift/statemachine"
)

func TestBatches(t *testing.T) {
	tests := []struct {
		n, size int
		want    []int
	}{
		{0, 20, []int{}}, {1, 20, []int{0}}, {20, 20, []int{0}}, {21, 20, []int{0, 1}}, {45, 20, []int{0, 1, 2}},
	}
	for _, tt := range tests {
		t.Run(fmt.Sprint(tt.n, "/", tt.size), func(t *testing.T) {
			got := batches(tt.n, tt.size)
			if diff := cmp.Diff(got, tt.want); diff != "" {
				t.Errorf("(-got +want):\n%s", diff)
			}
			covered := 0
			for _, b := range got {
				lo, hi, err := batchRange(b, tt.n, tt.size)
				if err != nil || lo != covered {
					t.Fatalf("batch %d: [%d,%d) %v, want to start at %d", b, lo, hi, err, covered)
				}
				covered = hi
			}
			if covered != tt.n {
				t.Errorf("batches cover %d of %d items", covered, tt.n)
			}
			if _, _, err := batchRange(len(got), tt.n, tt.size); err == nil {
				t.Error("a batch past the end is accepted")
			}
		})
	}
}

func TestStepError(t *testing.T) {
	tests := []struct {
		name      string
		err       error
		throttled bool
	}{
		{"throttling code", fmt.Errorf("list stacks: %w", &smithy.GenericAPIError{Code: "Throttling", Message: "Rate exceeded"}), true},
		{"too many requests", &smithy.GenericAPIError{Code: "TooManyRequestsException"}, true},
		{"access denied", fmt.Errorf("describe: %w", &smithy.GenericAPIError{Code: "AccessDenied"}), false},
		{"plain", errors.New("boom"), false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := stepError(tt.err)
			_, isThrottled := got.(*statemachine.Throttled)
			if isThrottled != tt.throttled {
				t.Errorf("stepError(%v) = %T, throttled %v, want %v", tt.err, got, isThrottled, tt.throttled)
			}
			if !errors.Is(got, tt.err) {
				t.Errorf("stepError lost the error chain")
			}
		})
	}
	if stepError(nil) != nil {
		t.Error("stepError(nil) is not nil")
	}
}

func TestCount(t *testing.T) {
	f := func(tier drift.Tier, lid, path string, unrecorded bool) drift.Finding {
		return drift.Finding{Tier: tier, LogicalID: lid, Path: path, Unrecorded: unrecorded}
	}
	raw := []drift.Finding{
		f(drift.Declared, "Q", "VisibilityTimeout", false),
		f(drift.Undeclared, "Q", "DelaySeconds", false),
		f(drift.Undeclared, "Q", "Policy", false),
		f(drift.Undeclared, "T", "DisplayName", false),
		f(drift.AtDefault, "Q", "MessageRetentionPeriod", false),
	}
	final := []drift.Finding{
		f(drift.Declared, "Q", "VisibilityTimeout", false),
		f(drift.Undeclared, "Q", "DelaySeconds", true), // unrecorded
		f(drift.Ignored, "T", "DisplayName", false),    // ignored by a rule
		f(drift.AtDefault, "Q", "MessageRetentionPeriod", false),
		// Q.Policy is suppressed by the baseline
	}
	want := statemachine.Counts{"drift": 1, "unrecorded": 1, "ignored": 1, "atDefault": 1, "suppressed": 1}
	if diff := cmp.Diff(Count(raw, final), want); diff != "" {
		t.Errorf("(-got +want):\n%s", diff)
	}
}

func TestFailureReason(t *testing.T) {
	tests := []struct{ typ, cause, want string }{
		{"AccessDenied", `{"errorType":"OperationError","errorMessage":"describe stack x: AccessDenied"}`, "AccessDenied: describe stack x: AccessDenied"},
		{"States.Timeout", "", "States.Timeout"},
		{"States.TaskFailed", "not json", "States.TaskFailed: not json"},
	}
	for _, tt := range tests {
		if got := failureReason(tt.typ, tt.cause); got != tt.want {
			t.Errorf("failureReason(%q, %q) = %q, want %q", tt.typ, tt.cause, got, tt.want)
		}
	}
}
