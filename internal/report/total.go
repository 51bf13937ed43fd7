package report

import (
	"fmt"
	"io"
	"strings"
)

// Totals adds up a run: stacks by verdict and findings over every stack.
type Totals struct {
	Stacks int `json:"stacks"`
	// ByVerdict counts stacks by their verdict.
	Clean          int `json:"clean"`
	PotentialDrift int `json:"potentialDrift"`
	Incomplete     int `json:"incomplete"`
	Drift          int `json:"drift"`
	Error          int `json:"error"`
	// Drifted and Potential count findings over every stack.
	Drifted   int `json:"driftFindings"`
	Potential int `json:"potentialFindings"`
	// Unread is the number of resources not read, over every stack.
	Unread int `json:"unread"`
}

// Total adds up stacks.
func Total(stacks []Stack) Totals {
	var t Totals
	for _, s := range stacks {
		sum := Summarize(s)
		t.Stacks++
		switch sum.Verdict {
		case Clean:
			t.Clean++
		case PotentialDrift:
			t.PotentialDrift++
		case Incomplete:
			t.Incomplete++
		case Drift:
			t.Drift++
		case Error:
			t.Error++
		}
		t.Drifted += sum.Drifted
		t.Potential += sum.Potential
		t.Unread += sum.Unread
	}
	return t
}

// String is the grand total line: "total: 257 stacks — 3 with drift (20
// findings), 12 with potential drift (40), 240 clean, 2 incomplete, 0
// errors; 5 resources not read" (incomplete and not read only when there
// are any).
func (t Totals) String() string {
	parts := []string{
		fmt.Sprintf("%d with drift (%d %s)", t.Drift, t.Drifted, plural(t.Drifted, "finding", "findings")),
		fmt.Sprintf("%d with potential drift (%d)", t.PotentialDrift, t.Potential),
		fmt.Sprintf("%d clean", t.Clean),
	}
	if t.Incomplete > 0 {
		parts = append(parts, fmt.Sprintf("%d incomplete", t.Incomplete))
	}
	parts = append(parts,
		fmt.Sprintf("%d %s", t.Error, plural(t.Error, "error", "errors")))
	s := fmt.Sprintf("total: %d %s — %s", t.Stacks, plural(t.Stacks, "stack", "stacks"), strings.Join(parts, ", "))
	if t.Unread > 0 {
		s += fmt.Sprintf("; %d %s not read", t.Unread, plural(t.Unread, "resource", "resources"))
	}
	return s
}

// WriteTotal writes the grand total line of stacks.
func WriteTotal(w io.Writer, stacks []Stack) error {
	if _, err := fmt.Fprintln(w, Total(stacks).String()); err != nil {
		return fmt.Errorf("write report: %w", err)
	}
	return nil
}
