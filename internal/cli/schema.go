package cli

import (
	"context"
	"fmt"
)

func runSchema(ctx context.Context, s IO, args []string) int {
	fs := newFlags(s, "schema", "")
	if done, code := parse(s, fs, args); done {
		return code
	}
	return fail(s, "schema", fmt.Errorf("not built yet (issue #2 builds it)"))
}
