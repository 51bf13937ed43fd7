package cli

import (
	"strings"
	"testing"
)

// TestEveryVerbHelp: every verb and sub-verb answers --help, -h and help
// VERB with its usage on stdout and exit 0, and does nothing else (a
// push, a serve or a check started by --help would print to stderr or
// exit otherwise), also behind flags that would make it act.
func TestEveryVerbHelp(t *testing.T) {
	var cases [][]string
	for _, c := range commands() {
		cases = append(cases, []string{c.name}, []string{"help", c.name})
		for _, sub := range subVerbs()[c.name] {
			cases = append(cases, []string{c.name, sub})
		}
	}
	cases = append(cases,
		[]string{"baseline", "push", "--store", "dynamodb://t?region=us-east-1"},
		[]string{"check", "--all", "--region", "us-east-1", "--no-baseline"},
		[]string{"completion", "bash"},
	)
	for _, args := range cases {
		helps := []string{"--help", "-h"}
		if args[0] == "help" {
			helps = []string{""}
		}
		for _, h := range helps {
			full := args
			if h != "" {
				full = append(append([]string(nil), args...), h)
			}
			out, errs, code := runArgs(t, full...)
			if code != ExitOK || !strings.HasPrefix(out, "Usage: realdrift ") || errs != "" {
				t.Errorf("realdrift %s: exit %d, stdout %.60q, stderr %q; want the usage and exit 0", strings.Join(full, " "), code, out, errs)
			}
		}
	}
}
