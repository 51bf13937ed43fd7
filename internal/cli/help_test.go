package cli

import (
	"slices"
	"strings"
	"testing"
)

// TestEveryVerbHelp: every verb and sub-verb answers --help, -h and help
// VERB with its usage on stdout and exit 0, and does nothing else (a
// push, a serve or a check started by --help would print to stderr or
// exit otherwise), also behind flags that would make it act.
func TestEveryVerbHelp(t *testing.T) {
	var cases [][]string
	// A sub-verb's usage names it first (not a sibling's synopsis).
	want := map[string]string{}
	for _, c := range commands() {
		cases = append(cases, []string{c.name}, []string{"help", c.name})
		for _, sub := range subVerbs()[c.name] {
			cases = append(cases, []string{c.name, sub})
			want[c.name+" "+sub] = sub
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
			named := true
			if sub, ok := want[strings.Join(args, " ")]; ok {
				// "Usage: realdrift VERB SUB ..." or "VERB SUB|OTHER ...".
				f := strings.Fields(strings.TrimPrefix(out, "Usage: realdrift "+args[0]+" "))
				named = len(f) > 0 && slices.Contains(strings.Split(f[0], "|"), sub) &&
					(len(f) < 2 || !slices.Contains(subVerbs()[args[0]], f[1]))
			}
			if code != ExitOK || !strings.HasPrefix(out, "Usage: realdrift ") || !named || errs != "" {
				t.Errorf("realdrift %s: exit %d, stdout %.60q, stderr %q; want the usage and exit 0", strings.Join(full, " "), code, out, errs)
			}
		}
	}
}
