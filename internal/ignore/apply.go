package ignore

import "github.com/realdrift/realdrift/internal/drift"

// Apply returns findings with every declared, undeclared or added finding
// that a rule matches re-tagged as drift.Ignored; Reason names the first
// matching rule and Unrecorded is cleared. Other findings, deleted ones
// included, are returned unchanged; none is removed. findings is not
// modified.
func Apply(findings []drift.Finding, stack drift.StackRef, rules []Rule) []drift.Finding {
	out := make([]drift.Finding, len(findings))
	copy(out, findings)
	for i, f := range out {
		switch f.Tier {
		case drift.Declared, drift.Undeclared, drift.Added:
		default:
			continue
		}
		for _, r := range rules {
			if r.Matches(stack, f) {
				f.Tier = drift.Ignored
				f.Reason = "ignore rule " + r.String()
				f.Unrecorded = false
				out[i] = f
				break
			}
		}
	}
	return out
}
