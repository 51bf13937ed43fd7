package cli

import (
	"context"
	"fmt"
)

func runCheck(ctx context.Context, s IO, args []string) int {
	fs := newFlags(s, "check", "")
	if done, code := parse(s, fs, args); done {
		return code
	}
	return fail(s, "check", fmt.Errorf("not built yet (issue #5 builds it)"))
}
