package cli

import (
	"context"
	"fmt"
)

func runRecord(ctx context.Context, s IO, args []string) int {
	fs := newFlags(s, "record", "")
	if done, code := parse(s, fs, args); done {
		return code
	}
	return fail(s, "record", fmt.Errorf("not built yet (issue #5 builds it)"))
}
