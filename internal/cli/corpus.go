package cli

import (
	"context"
	"fmt"
)

func runCorpus(ctx context.Context, s IO, args []string) int {
	fs := newFlags(s, "corpus", "")
	if done, code := parse(s, fs, args); done {
		return code
	}
	return fail(s, "corpus", fmt.Errorf("not built yet (issue #3 builds it)"))
}
