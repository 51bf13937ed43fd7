package cli

import (
	"context"
	"fmt"
)

func runSandbox(ctx context.Context, s IO, args []string) int {
	fs := newFlags(s, "sandbox", "")
	if done, code := parse(s, fs, args); done {
		return code
	}
	return fail(s, "sandbox", fmt.Errorf("not built yet (issue #4 builds it)"))
}
