package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"time"

	"github.com/realdrift/realdrift/internal/cfn"
	"github.com/realdrift/realdrift/internal/drift"
	"github.com/realdrift/realdrift/internal/report"
	"github.com/realdrift/realdrift/internal/scan"
	"github.com/realdrift/realdrift/internal/who"
)

// checkFormats are check's --format values (completion offers them).
func checkFormats() []string {
	return []string{"text", "json", "sarif", "junit", "asff", "markdown"}
}

const checkSynopsis = `[flags] [STACK|GLOB ...]

Checks deployed stacks for drift: declared properties against the deployed
template, live-only state against the recorded baseline, out-of-band child
resources, deleted resources. Stacks are chosen by exact name or glob from
the account and region (any CloudFormation stack), or from the app with --app.
Nested stacks (AWS::CloudFormation::Stack) are checked too, depth first,
each under its own name and baseline (--no-recursive: only the stacks chosen).
Baselines and ignore rules come from the state directory (.realdrift), or
with --store dynamodb://TABLE[?region=REGION] from the service's table, the
ones the team records there and the service's sweeps apply.
A stack any resource or child listing of which could not be read is
INCOMPLETE (n of m not read), never CLEAN; beside drift it is drift, with
the count. Exit status: 0 clean or report-only, 1 drift with --fail (or
incomplete coverage with --strict, which makes any gap an error), 2
error, 3 incomplete coverage and no drift with --fail, 130 interrupted
(a JSON report then says "interrupted": true and lists "notChecked"; -o
FILE is left as it was unless the exit status is 0, 1 or 3).`

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
	noBaseline     bool
	// format is one of checkFormats (--json is --format json).
	format string
	// outputs are -o / --output: FILE (the --format report) and
	// FORMAT://FILE (more reports of the same run, outputs.go).
	outputs   outputList
	output    string
	quiet     bool
	hideClean bool
	noColor   bool
	// who attributes each drifted resource to the CloudTrail event that
	// last wrote it (who.go).
	who bool
}

func (f *checkFlags) mode() (gatherMode, error) {
	m := gatherMode{preDeploy: f.preDeploy, showAll: f.showAll, noBaseline: f.noBaseline}
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

func runCheck(ctx context.Context, s IO, args []string) (code int) {
	fs := newFlags(s, "check", checkSynopsis)
	var f checkFlags
	f.register(fs)
	fs.BoolVar(&f.json, "json", false, "write the JSON report (every finding) to stdout; the same as --format json")
	fs.StringVar(&f.format, "format", "text", "report format: text, json, sarif (SARIF 2.1.0 for code scanning: with --app on the cloud assembly template lines that declare the resources, else logical locations; security categories with security-severity), junit (JUnit XML for CI dashboards) asff (AWS Security Finding Format, the Findings of a Security Hub BatchImportFindings call) or markdown (a pull-request comment or CI job summary, within GitHub's 65,536-character limit)")
	outputUsage := "write the report to `FILE` instead of stdout, or with FORMAT://FILE (repeatable: driftctl's convention) one more report of the same run in FORMAT, e.g. --output sarif://drift.sarif --output junit://drift.xml; each file appears whole, or not at all"
	fs.Var(&f.outputs, "o", outputUsage)
	fs.Var(&f.outputs, "output", outputUsage)
	fs.BoolVar(&f.quiet, "quiet", false, "text: only stacks with drift or errors, without the info: footer and notes, then the total")
	fs.BoolVar(&f.hideClean, "hide-clean", false, "text: leave out the stacks that are clean")
	fs.BoolVar(&f.who, "who", false, "name who changed each drifted resource: the last CloudTrail write event naming it since the earlier of the stack's last update and its baseline's record (a global service's resource, IAM's, in us-east-1 where CloudTrail records it; principal, source identity or session, event, time, source IP, console/CLI/SDK/CloudFormation), one LookupEvents call per drifted resource at 2 a second; needs cloudtrail:LookupEvents; a lookup that fails or finds nothing says why, and never changes the verdict")
	fs.BoolVar(&f.noColor, "no-color", false, "no colour in the text report (also NO_COLOR, TERM=dumb)")
	fs.BoolVar(&f.fail, "fail", false, "exit 1 when there is drift, 3 when nothing drifted but something could not be read (automation mode)")
	fs.BoolVar(&f.strict, "strict", false, "exit 1 when coverage is incomplete (a resource or child listing was not read), drift or not")
	fs.BoolVar(&f.showAll, "show-all", false, "inventory mode: ignore the baseline and list every live-only value and informational finding")
	fs.BoolVar(&f.verbose, "verbose", false, "list the informational findings and values in full")
	fs.BoolVar(&f.declaredOnly, "declared-only", false, "report only the declared side (deleted, declared drift)")
	fs.BoolVar(&f.undeclaredOnly, "undeclared-only", false, "report only live-only state (undeclared, added)")
	fs.BoolVar(&f.noBaseline, "no-baseline", false, "check without a recorded baseline (every live-only value is reported); a state directory that does not exist is then no error")
	fs.BoolVar(&f.preDeploy, "pre-deploy", false, "compare against the app's synthesized templates instead of the deployed ones (declared side only; needs --app)")
	f.registerRecursion(fs)
	if done, code := parse(s, fs, args); done {
		return code
	}
	mode, err := f.mode()
	if err != nil {
		return fail(s, "check", err)
	}
	if f.json {
		if f.format != "text" && f.format != "json" {
			return fail(s, "check", fmt.Errorf("--json and --format %s exclude each other", f.format))
		}
		f.format = "json"
	}
	if !slices.Contains(checkFormats(), f.format) {
		return fail(s, "check", fmt.Errorf("--format must be %s (got %q)%s", strings.Join(checkFormats(), ", "), f.format, didYouMean(f.format, checkFormats())))
	}
	f.json = f.format == "json"
	text := f.format == "text"
	f.output = f.outputs.primary()
	if !f.noBaseline && !f.preDeploy && !f.showAll {
		// A table is checked by its first read (a missing one is an error).
		state, explicit, err := f.localState()
		if err == nil && state != nil {
			err = requireStateDir(state.Dir(), state.Fallback(), explicit)
		}
		if err != nil {
			return fail(s, "check", err)
		}
	}
	sess, err := f.open(ctx, s, fs.Args())
	if err != nil {
		return fail(s, "check", err)
	}
	defer sess.close()
	stdout := s.Stdout
	extras, err := openOutputs(f.outputs.extras())
	if err != nil {
		return fail(s, "check", err)
	}
	files := extras
	if f.output != "" {
		out, err := createOutput(f.output)
		if err != nil {
			for _, x := range extras {
				x.discard()
			}
			return fail(s, "check", err)
		}
		stdout = out
		files = append(files, out)
	}
	if len(files) > 0 {
		// The report files appear whole once the run is over, never
		// half-written, and only for a whole report (exit 0, 1 or 3): an
		// interrupted or failed run leaves every FILE as it was (stdout
		// would get the partial report, marked interrupted).
		defer func() {
			if !wholeReport(code) {
				for _, x := range files {
					x.discard()
				}
				fmt.Fprintf(s.Stderr, "realdrift check: -o %s left as it was (exit %d)\n", f.outputs.names(), code)
				return
			}
			for _, x := range files {
				if err := x.commit(); err != nil {
					code = fail(s, "check", err)
				}
			}
		}()
	}
	opts := report.Options{
		Color:   f.output == "" && colorOn(s, f.noColor),
		Verbose: f.verbose || f.showAll,
		Quiet:   f.quiet,
	}
	shown := 0
	// Stacks are checked side by side (every call through the session's
	// one scheduler); each stack's text report is printed as soon as it
	// and every stack before it are checked, so the order is stable and a
	// stack that is stuck or interrupted loses nothing already checked; the
	// JSON report is one document of the stacks checked (also when
	// interrupted: exit 130 says it is partial).
	var runs []*stackRun
	var stacks []report.Stack
	var printErr error
	var finder *who.Finder
	if f.who {
		finder = who.New(who.Options{})
	}
	emit := func(r *stackRun) {
		if finder != nil {
			sess.attributeDrift(ctx, finder, r)
		}
		runs = append(runs, r)
		stacks = append(stacks, r.report())
		if !f.quiet {
			for _, n := range r.notes {
				fmt.Fprintf(s.Stderr, "note: %s: %s\n", r.ref.Name, n)
			}
		}
		if r.err != nil {
			fmt.Fprintf(s.Stderr, "realdrift check: %s: %v\n", r.ref.Name, r.err)
		}
		if !text || printErr != nil {
			return
		}
		if (f.quiet || f.hideClean) && report.Summarize(stacks[len(stacks)-1]).Verdict == report.Clean {
			return
		}
		if shown > 0 {
			fmt.Fprintln(stdout)
		}
		shown++
		printErr = report.Text(stdout, stacks[len(stacks)-1:], opts)
	}
	var prog *progress
	if s.StderrTTY && !f.quiet {
		prog = startProgress(s.Stderr, len(sess.targets), sess.sched.Stats, time.Now, progressTick)
	}
	sess.gatherEach(ctx, mode, func(tree []*stackRun) {
		prog.emitted(func() {
			for _, r := range tree {
				emit(r)
			}
		})
	})
	prog.end()
	if printErr == nil && text && (len(stacks) > 1 || f.quiet || f.hideClean) {
		if shown > 0 {
			fmt.Fprintln(stdout)
		}
		printErr = report.WriteTotal(stdout, stacks)
	}
	if printErr != nil {
		return fail(s, "check", printErr)
	}
	st := sess.sched.Stats()
	if f.verbose {
		printCallStats(s.Stderr, st)
	}
	var partial report.Partial
	if ctx.Err() != nil {
		partial = report.Partial{Interrupted: true, NotChecked: notChecked(sess.targets, runs)}
	}
	in := reportInput{
		stacks: stacks, runs: runs, partial: partial, stats: st, now: time.Now(),
		text: opts, quiet: f.quiet, hideClean: f.hideClean,
	}
	if !text {
		if err := writeReport(stdout, f.format, in); err != nil {
			return fail(s, "check", err)
		}
	}
	for i, o := range f.outputs.extras() {
		if err := writeReport(extras[i], o.format, in); err != nil {
			return fail(s, "check", fmt.Errorf("-o %s://%s: %w", o.format, o.path, err))
		}
	}
	if ctx.Err() != nil {
		if text && printErr == nil && len(stacks) > 0 {
			fmt.Fprintf(stdout, "\ninterrupted: partial report — not checked: %s\n", listSome(partial.NotChecked))
		}
		fmt.Fprintln(s.Stderr, interruptedLine(sess.targets, runs, f.outputs.names()))
		return ExitInterrupt
	}
	if hint := deniedHint(runs); hint != "" {
		fmt.Fprintln(s.Stderr, "note: "+hint)
	}
	if !f.noBaseline && !f.showAll && !f.preDeploy {
		if note := noBaselineNote(runs, sess.state.where()); note != "" {
			fmt.Fprintln(s.Stderr, "note: "+note)
		}
	}
	if note := report.ReportOnlyNote(stacks, f.fail, f.strict); note != "" {
		fmt.Fprintln(s.Stderr, "note: "+note)
	}
	code = report.ExitCode(stacks, f.fail, f.strict)
	// On a terminal, offer to resolve what was found (never in automation:
	// --fail, --json, CI=true; nor for an inventory or a pre-deploy view).
	if s.StdinTTY && s.IsTTY && s.Stdin != nil && !isCI(s) && text && f.output == "" && !f.quiet && !f.fail && !f.showAll && !f.preDeploy {
		if err := resolveInline(ctx, s, sess, runs, mode.scope == scopeAll); err != nil {
			switch {
			case ctx.Err() != nil:
				if !sayInterrupted(s, "check", err) {
					fmt.Fprintln(s.Stderr, "realdrift check: interrupted at the prompt")
				}
				return ExitInterrupt
			case errors.Is(err, errReported):
				return ExitError
			}
			return fail(s, "check", err)
		}
	}
	return code
}

// progressTick is how often the progress line is redrawn.
const progressTick = 200 * time.Millisecond

// interruptedLine says what an interrupted check reported and what it
// did not: check writes nothing but its report.
func interruptedLine(targets []target, runs []*stackRun, output string) string {
	checked := 0
	for _, r := range runs {
		if r.parent == "" {
			checked++
		}
	}
	missing := notChecked(targets, runs)
	line := fmt.Sprintf("realdrift check: interrupted — %d of %d stacks checked and reported", checked, len(targets))
	if nested := len(runs) - checked; nested > 0 {
		line += fmt.Sprintf(" (and %d nested)", nested)
	}
	if len(missing) > 0 {
		line += "; not checked: " + listSome(missing)
	}
	if output != "" {
		line += "; -o " + output + " left as it was"
	}
	return line + " (no baseline or ignore file is written by check)"
}

// notChecked names the targets runs did not check (nested stacks of a
// checked target are not targets).
func notChecked(targets []target, runs []*stackRun) []string {
	done := map[string]bool{}
	for _, r := range runs {
		if r.parent == "" {
			done[r.target.name+"\x00"+r.target.region] = true
		}
	}
	var missing []string
	for _, t := range targets {
		if !done[t.name+"\x00"+t.region] {
			missing = append(missing, t.name)
		}
	}
	return missing
}

// templatesOf locates each checked stack's template for SARIF: with
// --app, the synthesized template file when it lies under the working
// directory (relative to it, as code scanning wants), its resources'
// lines, and the construct sources the assembly's metadata records; else
// no file (the deployed template exists nowhere in the repository), so
// results carry a logical location only.
func templatesOf(runs []*stackRun) func(report.Stack) report.Template {
	byRef := map[drift.StackRef]report.Template{}
	wd, _ := os.Getwd()
	for _, r := range runs {
		if r.result == nil || r.result.Desired == nil || r.target.app == nil {
			continue
		}
		rel, ok := underDir(wd, r.target.app.templateFile)
		if !ok {
			continue
		}
		data, err := r.target.app.template()
		if err != nil {
			continue
		}
		tpl := report.Template{URI: filepath.ToSlash(rel), Sources: map[string]report.Source{}}
		tpl.Lines, _ = cfn.ResourceLines(data)
		for id, src := range r.target.app.sources {
			if rel, ok := underDir(wd, src.File); ok {
				if _, err := os.Stat(src.File); err == nil {
					tpl.Sources[id] = report.Source{File: filepath.ToSlash(rel), Line: src.Line}
				}
			}
		}
		byRef[r.ref] = tpl
	}
	return func(s report.Stack) report.Template { return byRef[s.Ref] }
}

// underDir returns path relative to dir when it lies under dir (a relative
// path is the working directory's).
func underDir(dir, path string) (string, bool) {
	abs, err := filepath.Abs(path)
	if err != nil || dir == "" {
		return "", false
	}
	rel, err := filepath.Rel(dir, abs)
	if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) || filepath.IsAbs(rel) {
		return "", false
	}
	return rel, true
}

// requireStateDir fails when a state directory named by --state-dir (or
// --store file://DIR, or a setting) does not exist: a mistyped one must
// not check against no baseline in silence. The default directory may be
// missing (a first check: noBaselineNote says so); record creates it;
// check --no-baseline says no baseline is meant.
func requireStateDir(dir, fallback string, explicit bool) error {
	fi, err := os.Stat(dir)
	switch {
	case err == nil && fi.IsDir():
		return nil
	case err == nil:
		return fmt.Errorf("state directory %s is not a directory", dir)
	case !errors.Is(err, fs.ErrNotExist):
		return fmt.Errorf("state directory: %w", err)
	case fallback != "":
		return nil
	case explicit:
		return fmt.Errorf("state directory %s does not exist: check the --state-dir spelling, run 'realdrift record' to take a first baseline there, or pass --no-baseline to check without one", dir)
	}
	// The default directory of a first check: no baseline yet, which
	// noBaselineNote says once the stacks are checked.
	return nil
}

// noBaselineNote names the checked stacks that have no baseline yet and
// what to run, for stderr; "" when every stack has one. where is the
// state directory or the table.
func noBaselineNote(runs []*stackRun, where string) string {
	var names, targets []string
	for _, r := range runs {
		if r.err == nil && r.result != nil && r.noBaseline {
			names = append(names, r.ref.Name)
			// A nested stack is recorded with the stack it was reached from.
			if !slices.Contains(targets, r.target.name) {
				targets = append(targets, r.target.name)
			}
		}
	}
	if len(names) == 0 {
		return ""
	}
	args := strings.Join(targets, " ")
	if len(targets) > 3 {
		args = "--all"
	}
	return fmt.Sprintf("no baseline yet for %s (none in %s): every live-only value is reported as potential drift until one is recorded; run 'realdrift record %s' to take a first baseline",
		listSome(names), where, args)
}

// errReported is an error already printed to stderr.
var errReported = errors.New("reported")

// gatherAll checks every target (side by side, see gatherEach) and returns
// the runs in target order. It stops early when ctx ends.
func (sess *session) gatherAll(ctx context.Context, mode gatherMode) []*stackRun {
	var runs []*stackRun
	sess.gatherEach(ctx, mode, func(tree []*stackRun) { runs = append(runs, tree...) })
	return runs
}

// gatherEach checks the targets side by side, at most as many stacks at
// once as --concurrency allows calls (the session's scheduler bounds the
// calls themselves), and hands each target's runs (the target's, then its
// nested stacks' depth first: gatherTree) to emit in target order, as soon
// as they and every target before it are done. emit runs on the caller's
// goroutine. Once ctx ends no stack is started; a stack the end
// interrupted is not emitted (its result is not a report), the ones that
// finished are.
func (sess *session) gatherEach(ctx context.Context, mode gatherMode, emit func([]*stackRun)) {
	n := len(sess.targets)
	done := make([]chan []*stackRun, n)
	for i := range done {
		done[i] = make(chan []*stackRun, 1)
	}
	workers := make(chan struct{}, max(1, sess.flags.concurrency))
	go func() {
		for i, t := range sess.targets {
			select {
			case workers <- struct{}{}:
			case <-ctx.Done():
			}
			if ctx.Err() != nil {
				for _, ch := range done[i:] {
					ch <- nil
				}
				return
			}
			go func() {
				tree := sess.gatherTree(ctx, t, mode)
				<-workers
				done[i] <- tree
			}()
		}
	}()
	for _, ch := range done {
		tree := <-ch
		var out []*stackRun
		for _, r := range tree {
			if r.err != nil && ctx.Err() != nil {
				continue // interrupted mid-stack
			}
			out = append(out, r)
		}
		if len(out) > 0 {
			emit(out)
		}
	}
}

// printCallStats writes the run's call figures (--verbose): calls per API, the
// most in flight, throttles absorbed, and the Go runtime's memory figure.
func printCallStats(w io.Writer, st scan.Stats) {
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	fmt.Fprintf(w, "calls: %d, at most %d in flight (--concurrency %d), %d throttled and retried; peak memory %.1f MB\n",
		st.Calls, st.MaxInFlight, st.Concurrency, st.Throttled, float64(ms.Sys)/(1<<20))
	for _, api := range st.SortedAPIs() {
		a := st.APIs[api]
		line := fmt.Sprintf("  %6d %s", a.Calls, api)
		if a.Throttled > 0 {
			line += fmt.Sprintf(" (%d throttled, rate now %.1f/s)", a.Throttled, a.Rate)
		}
		fmt.Fprintln(w, line)
	}
}

// jsonWithStats writes the JSON report with the run's call figures added
// under "stats" (an additive key: the report package's contract is
// otherwise unchanged).
func jsonWithStats(w io.Writer, stacks []report.Stack, partial report.Partial, st scan.Stats) error {
	var buf bytes.Buffer
	if err := report.JSON(&buf, stacks, report.JSONOptions{ToolVersion: toolVersion(), Partial: partial}); err != nil {
		return err
	}
	stats, err := json.MarshalIndent(st, "  ", "  ")
	if err != nil {
		return fmt.Errorf("write JSON report: %w", err)
	}
	doc := bytes.TrimRight(buf.Bytes(), "\n")
	if !bytes.HasSuffix(doc, []byte("}")) {
		return fmt.Errorf("write JSON report: not an object")
	}
	doc = doc[:len(doc)-1]
	doc = bytes.TrimRight(doc, "\n ")
	out := append([]byte(nil), doc...)
	out = append(out, ",\n  \"stats\": "...)
	out = append(out, stats...)
	out = append(out, "\n}\n"...)
	if _, err := w.Write(out); err != nil {
		return fmt.Errorf("write JSON report: %w", err)
	}
	return nil
}
