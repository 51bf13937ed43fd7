package report

// Exit statuses of a check.
const (
	ExitOK    = 0
	ExitDrift = 1
	ExitError = 2
)

// ExitCode is the check's exit status: ExitError when a stack failed;
// ExitDrift for confirmed drift with fail (--fail) or incomplete coverage
// with strict (--strict); ExitOK otherwise (report-only).
func ExitCode(stacks []Stack, fail, strict bool) int {
	code := ExitOK
	for _, s := range stacks {
		sum := Summarize(s)
		switch {
		case sum.Verdict == Error:
			return ExitError
		case fail && sum.Drifted > 0, strict && !sum.CoverageComplete():
			code = ExitDrift
		}
	}
	return code
}

// ReportOnlyNote is the stderr note for drift found without --fail, or ""
// (also when the run does not exit 0: a failed stack, or --strict on
// incomplete coverage).
func ReportOnlyNote(stacks []Stack, fail, strict bool) string {
	if fail || ExitCode(stacks, fail, strict) != ExitOK {
		return ""
	}
	for _, s := range stacks {
		if Summarize(s).Drifted > 0 {
			return "drift found; exiting 0 because check is report-only — pass --fail to exit 1 on drift"
		}
	}
	return ""
}
