package cli

import (
	"context"
	"errors"
	"fmt"

	"github.com/realdrift/realdrift/internal/report"
)

const checkSynopsis = `[flags] [STACK|GLOB ...]

Checks deployed stacks for drift: declared properties against the deployed
template, live-only state against the recorded baseline, out-of-band child
resources, deleted resources. Stacks are chosen by exact name or glob from
the account and region (any CloudFormation stack), or from the app with --app.
Exit status: 0 clean or report-only, 1 drift with --fail (or incomplete
coverage with --strict), 2 error, 130 interrupted.`

// checkFlags are check's own flags.
type checkFlags struct {
	stackFlags
	json           bool
	fail           bool
	strict         bool
	showAll        bool
	verbose        bool
	declaredOnly   bool
	undeclaredOnly bool
	preDeploy      bool
}

func (f *checkFlags) mode() (gatherMode, error) {
	m := gatherMode{preDeploy: f.preDeploy, showAll: f.showAll}
	switch {
	case f.declaredOnly && f.undeclaredOnly:
		return m, errors.New("--declared-only and --undeclared-only exclude each other")
	case f.declaredOnly:
		m.scope = scopeDeclared
	case f.undeclaredOnly:
		m.scope = scopeUndeclared
	}
	if f.preDeploy {
		switch {
		case f.app == "":
			return m, errors.New("--pre-deploy needs --app (the synthesized templates to compare against)")
		case f.undeclaredOnly:
			return m, errors.New("--pre-deploy reports the declared side only; --undeclared-only makes no sense with it")
		case f.showAll:
			return m, errors.New("--pre-deploy does not use the baseline; --show-all makes no sense with it")
		}
	}
	return m, nil
}

func runCheck(ctx context.Context, s IO, args []string) int {
	fs := newFlags(s, "check", checkSynopsis)
	var f checkFlags
	f.register(fs)
	fs.BoolVar(&f.json, "json", false, "write the JSON report (every finding) to stdout")
	fs.BoolVar(&f.fail, "fail", false, "exit 1 when there is drift (automation mode)")
	fs.BoolVar(&f.strict, "strict", false, "exit 1 when coverage is incomplete (a resource was not read)")
	fs.BoolVar(&f.showAll, "show-all", false, "inventory mode: ignore the baseline and list every live-only value and informational finding")
	fs.BoolVar(&f.verbose, "verbose", false, "list the informational findings and values in full")
	fs.BoolVar(&f.declaredOnly, "declared-only", false, "report only the declared side (deleted, declared drift)")
	fs.BoolVar(&f.undeclaredOnly, "undeclared-only", false, "report only live-only state (undeclared, added)")
	fs.BoolVar(&f.preDeploy, "pre-deploy", false, "compare against the app's synthesized templates instead of the deployed ones (declared side only; needs --app)")
	if done, code := parse(s, fs, args); done {
		return code
	}
	mode, err := f.mode()
	if err != nil {
		return fail(s, "check", err)
	}
	sess, err := f.open(ctx, s, fs.Args())
	if err != nil {
		return fail(s, "check", err)
	}
	defer sess.close()
	runs := sess.gatherAll(ctx, mode)
	if ctx.Err() != nil {
		return ExitInterrupt
	}
	stacks := make([]report.Stack, len(runs))
	for i, r := range runs {
		stacks[i] = r.report()
		for _, n := range r.notes {
			fmt.Fprintf(s.Stderr, "note: %s: %s\n", r.ref.Name, n)
		}
		if r.err != nil {
			fmt.Fprintf(s.Stderr, "realdrift check: %s: %v\n", r.ref.Name, r.err)
		}
	}
	if f.json {
		err = report.JSON(s.Stdout, stacks)
	} else {
		err = report.Text(s.Stdout, stacks, report.Options{
			Color:   s.IsTTY && getenv(s, "NO_COLOR") == "",
			Verbose: f.verbose || f.showAll,
		})
	}
	if err != nil {
		return fail(s, "check", err)
	}
	if note := report.ReportOnlyNote(stacks, f.fail); note != "" {
		fmt.Fprintln(s.Stderr, "note: "+note)
	}
	return report.ExitCode(stacks, f.fail, f.strict)
}

// gatherAll checks every target in turn (each stack's own calls are
// bounded by --concurrency, so the whole run never has more in flight). It
// stops early when ctx ends.
func (sess *session) gatherAll(ctx context.Context, mode gatherMode) []*stackRun {
	var runs []*stackRun
	for _, t := range sess.targets {
		if ctx.Err() != nil {
			break
		}
		runs = append(runs, sess.gather(ctx, t, mode))
	}
	return runs
}
