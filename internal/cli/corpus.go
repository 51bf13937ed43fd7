package cli

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/realdrift/realdrift/internal/corpus"
	"github.com/realdrift/realdrift/internal/drift"
	"github.com/realdrift/realdrift/internal/report"
)

// runCorpus replays golden-corpus cases through the classifier and prints a
// diff per failing case and a one-line summary (always the last line).
// It exits 0 when it ran, whatever the agreement, and 2 on bad input: a
// case that cannot be read is reported (every problem, "path: field:
// problem"), skipped and counted as unreadable, the run goes on, and the
// exit status is 2 at the end.
func runCorpus(ctx context.Context, s IO, args []string) int {
	fs := newFlags(s, "corpus", "[--json] [--quiet] DIR|FILE...")
	asJSON := fs.Bool("json", false, "write one line per case: {\"schemaVersion\", \"report\": \"corpus\", \"toolVersion\", \"file\", \"findings\": [...]} (report.schema.json)")
	quiet := fs.Bool("quiet", false, "print only the summary line")
	if done, code := parse(s, fs, args); done {
		return code
	}
	if fs.NArg() == 0 {
		return fail(s, "corpus", fmt.Errorf("no corpus directory or case file given"))
	}
	cases, loadErr := corpus.LoadDirs(fs.Args()...)
	bad := reportBadCases(s, "corpus", loadErr)
	if len(cases) == 0 && bad == 0 {
		if loadErr != nil {
			return ExitError
		}
		return fail(s, "corpus", fmt.Errorf("no *.json cases found in %v", fs.Args()))
	}
	results := make([]corpus.Result, 0, len(cases))
	enc := json.NewEncoder(s.Stdout)
	for _, c := range cases {
		if ctx.Err() != nil {
			return ExitInterrupt
		}
		got := corpus.Replay(c)
		res := corpus.Compare(c.File, got, c.Expected)
		results = append(results, res)
		switch {
		case *asJSON:
			if got == nil {
				got = []drift.Finding{}
			}
			if err := enc.Encode(struct {
				report.Header
				File     string          `json:"file"`
				Findings []drift.Finding `json:"findings"`
			}{report.NewHeader(report.KindCorpus, toolVersion()), c.File, got}); err != nil {
				return fail(s, "corpus", fmt.Errorf("write %s: %w", c.File, err))
			}
		case !*quiet && !res.Exact:
			fmt.Fprintf(s.Stdout, "FAIL %s\n%s", c.File, res.Diff)
		}
	}
	sum := corpus.Summarize(results)
	sum.Unreadable = bad
	code := ExitOK
	if loadErr != nil {
		code = ExitError
	}
	if *asJSON {
		fmt.Fprintln(s.Stderr, sum.Line())
		return code
	}
	fmt.Fprintln(s.Stdout, sum.Line())
	return code
}

// reportBadCases writes one stderr line per problem of a corpus load error
// (every bad case and every unreadable path) and returns the number of bad
// cases.
func reportBadCases(s IO, verb string, err error) int {
	if err == nil {
		return 0
	}
	bad := 0
	for _, e := range unjoin(err) {
		if errors.Is(e, corpus.ErrBadCase) {
			bad++
		}
		for _, line := range strings.Split(e.Error(), "\n") {
			fmt.Fprintf(s.Stderr, "realdrift %s: %s\n", verb, line)
		}
	}
	return bad
}

// unjoin splits an errors.Join error into its parts.
func unjoin(err error) []error {
	if j, ok := err.(interface{ Unwrap() []error }); ok {
		return j.Unwrap()
	}
	return []error{err}
}
