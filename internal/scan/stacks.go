package scan

import (
	"context"
	"fmt"
	"path"
	"sort"
)

// ListStacks returns the names of the account-region's live stacks (every
// stack DescribeStacks lists: deleted stacks are not listed), sorted. The
// descriptions are kept in c, so loading a listed stack does not describe
// it again.
func ListStacks(ctx context.Context, c *Clients) ([]string, error) {
	listed, err := ListStackTree(ctx, c)
	if err != nil {
		return nil, err
	}
	names := make([]string, len(listed))
	for i, s := range listed {
		names[i] = s.Name
	}
	sort.Strings(names)
	return names, nil
}

// MatchStacks selects names by patterns: exact names or globs (* ? [..]).
// No pattern selects every name. A pattern that matches nothing is an
// error naming it, so a typo never silently checks nothing.
func MatchStacks(names, patterns []string) ([]string, error) {
	if len(patterns) == 0 {
		return append([]string(nil), names...), nil
	}
	picked := map[string]bool{}
	for _, p := range patterns {
		n := 0
		for _, name := range names {
			ok, err := path.Match(p, name)
			if err != nil {
				return nil, fmt.Errorf("stack pattern %q: %w", p, err)
			}
			if ok {
				picked[name] = true
				n++
			}
		}
		if n == 0 {
			return nil, fmt.Errorf("no deployed stack matches %q", p)
		}
	}
	var out []string
	for _, name := range names {
		if picked[name] {
			out = append(out, name)
		}
	}
	return out, nil
}
