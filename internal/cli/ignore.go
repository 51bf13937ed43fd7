package cli

import (
	"context"
	"fmt"
)

func runIgnore(ctx context.Context, s IO, args []string) int {
	fs := newFlags(s, "ignore", "")
	if done, code := parse(s, fs, args); done {
		return code
	}
	return fail(s, "ignore", fmt.Errorf("not built yet (issue #5 builds it)"))
}
