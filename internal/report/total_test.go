package report

import (
	"errors"
	"testing"

	"github.com/realdrift/realdrift/internal/drift"
)

func TestTotal(t *testing.T) {
	stacks := []Stack{
		{Ref: drift.StackRef{Name: "A"}},
		{Ref: drift.StackRef{Name: "B"}, Findings: []drift.Finding{{Tier: drift.Declared, LogicalID: "Q", Path: "P"}, {Tier: drift.Deleted, LogicalID: "R"}}},
		{Ref: drift.StackRef{Name: "C"}, Findings: []drift.Finding{{Tier: drift.Undeclared, Unrecorded: true, LogicalID: "Q", Path: "X"}}},
		{Ref: drift.StackRef{Name: "D"}, Err: errors.New("boom")},
		{Ref: drift.StackRef{Name: "E"}, Findings: []drift.Finding{{Tier: drift.Skipped, LogicalID: "S"}}},
	}
	got := Total(stacks).String()
	want := "total: 5 stacks — 1 with drift (2 findings), 1 with potential drift (1), 1 clean, 1 incomplete, 1 error; 1 resource not read"
	if got != want {
		t.Errorf("Total = %q\nwant    %q", got, want)
	}
}
