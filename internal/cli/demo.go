package cli

import (
	"context"
	"fmt"
)

func runDemo(ctx context.Context, s IO, args []string) int {
	fs := newFlags(s, "demo", "")
	if done, code := parse(s, fs, args); done {
		return code
	}
	fmt.Fprintln(s.Stdout, "realdrift demo: coming soon — it will start the built-in sandbox organisation,")
	fmt.Fprintln(s.Stdout, "check its stacks, record a baseline, plant out-of-band changes and show them as drift (issue #5).")
	return ExitOK
}
