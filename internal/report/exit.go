package report

import "fmt"

// Exit statuses of a check.
const (
	ExitOK    = 0
	ExitDrift = 1
	ExitError = 2
	// ExitIncomplete: under --fail, no confirmed drift among what was
	// read, but something could not be read (an INCOMPLETE stack): not
	// clean, and not drift either.
	ExitIncomplete = 3
)

// ExitCode is the check's exit status, the first that applies:
// ExitError when a stack failed; ExitDrift for confirmed drift with fail
// (--fail) or incomplete coverage with strict (--strict, which makes any
// gap an error); ExitIncomplete for incomplete coverage with fail; ExitOK
// otherwise (clean, or report-only).
func ExitCode(stacks []Stack, fail, strict bool) int {
	code := ExitOK
	for _, s := range stacks {
		sum := Summarize(s)
		switch {
		case sum.Verdict == Error:
			return ExitError
		case fail && sum.Drifted > 0, strict && !sum.CoverageComplete():
			code = ExitDrift
		case fail && !sum.CoverageComplete() && code == ExitOK:
			code = ExitIncomplete
		}
	}
	return code
}

// ReportOnlyNote is the stderr note for drift or incomplete coverage found
// without --fail, or "" (also when the run does not exit 0: a failed
// stack, or --strict on incomplete coverage).
func ReportOnlyNote(stacks []Stack, fail, strict bool) string {
	if fail || ExitCode(stacks, fail, strict) != ExitOK {
		return ""
	}
	t := Total(stacks)
	switch {
	case t.Drifted > 0 && t.Unread > 0:
		return fmt.Sprintf("drift found and %d %s not read; exiting 0 because check is report-only — pass --fail to exit 1 on drift (3 on incomplete coverage alone)", t.Unread, plural(t.Unread, "resource", "resources"))
	case t.Drifted > 0:
		return "drift found; exiting 0 because check is report-only — pass --fail to exit 1 on drift"
	case t.Unread > 0:
		return fmt.Sprintf("coverage incomplete (%d %s not read); exiting 0 because check is report-only — pass --fail to exit 3 on it (--strict: 1)", t.Unread, plural(t.Unread, "resource", "resources"))
	}
	return ""
}
