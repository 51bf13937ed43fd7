package normalize

// FilterSiblingPolicies drops from a role's live Policies the inline
// policies that sibling AWS::IAM::Policy resources own (by PolicyName): the
// sibling's own check owns their content. Every other live policy stays, so
// an out-of-band inline policy still surfaces. An empty name (one the
// resolver could not evaluate) makes the filter fail open: nothing is
// dropped.
func FilterSiblingPolicies(live map[string]any, names []string) {
	if len(names) == 0 {
		return
	}
	own := make(map[string]bool, len(names))
	for _, n := range names {
		if n == "" {
			return
		}
		own[n] = true
	}
	pols, ok := live["Policies"].([]any)
	if !ok {
		return
	}
	kept := make([]any, 0, len(pols))
	for _, p := range pols {
		if m, ok := p.(map[string]any); ok {
			if n, _ := m["PolicyName"].(string); own[n] {
				continue
			}
		}
		kept = append(kept, p)
	}
	if len(kept) == 0 {
		delete(live, "Policies")
		return
	}
	live["Policies"] = kept
}
