package cli

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"sort"
	"strings"
	"time"

	"github.com/realdrift/realdrift/internal/drift"
	"github.com/realdrift/realdrift/internal/ignore"
	"github.com/realdrift/realdrift/internal/live"
	"github.com/realdrift/realdrift/internal/report"
	"github.com/realdrift/realdrift/internal/revert"
	"github.com/realdrift/realdrift/internal/scan"
	"github.com/realdrift/realdrift/internal/schema"
	"github.com/realdrift/realdrift/internal/who"
)

const revertSynopsis = `[flags] [STACK|GLOB ...]

Writes the drift of deployed stacks back: declared drift to the deployed
template's value, undeclared drift to the recorded baseline value, and
deletes children added out of band since a record. Values nobody recorded
are never written (record them), unless --remove-unrecorded asks to remove
them (where they have an absent state) and delete unrecorded children. The plan is
printed first; on a terminal you choose the items to write, --yes writes
them all, and without a terminal and --yes nothing is written (--dry-run).
Nested stacks (AWS::CloudFormation::Stack) are reverted too, depth first
after their parent, each with its own plan against its own baseline
(--no-recursive: only the stacks chosen).
After writing, the touched stacks are checked again and each item is
reported reverted, still drifted (with the live value) or failed (with
the AWS error).
A resource (or a parent's child listing) that could not be read is listed
"not read: <reason>" in the plan and the result: its drift is unknown, so
nothing of it is reverted and the revert is incomplete.
Exit status: 0 every chosen item converged and nothing else drifts (or a
dry run), 1 drift remains (still drifted, not revertable, or nothing
chosen), 2 a write failed or a stack could not be checked, 3 incomplete
(otherwise 0, but something could not be read; a dry run too), 130
interrupted.`

// revertFlags are revert's own flags.
type revertFlags struct {
	stackFlags
	dryRun         bool
	yes            bool
	json           bool
	declaredOnly   bool
	undeclaredOnly bool
	only           globList
	wait           time.Duration
	// removeUnrecorded removes values (and deletes children) nobody
	// recorded instead of leaving them not revertable.
	removeUnrecorded bool
	// who names each plan item's last writer (who.go).
	who bool
}

// globList is a repeatable flag.
type globList []string

func (g *globList) String() string     { return strings.Join(*g, ",") }
func (g *globList) Set(v string) error { *g = append(*g, v); return nil }

// revertStack is one stack's revert as the JSON report writes it.
type revertStack struct {
	Stack drift.StackRef `json:"stack"`
	// Parent names the stack a nested stack was reached from.
	Parent   string           `json:"parent,omitempty"`
	Plan     *revert.Plan     `json:"plan,omitempty"`
	Outcomes []revert.Outcome `json:"outcomes"`
	// NotRead are the resources (and parents whose child listing) the
	// check could not read: what drifts there is unknown, so nothing of
	// theirs is in the plan and the stack's revert is incomplete.
	NotRead []revertNotRead `json:"notRead,omitempty"`
	Error   string          `json:"error,omitempty"`
}

// revertNotRead is one resource revert could not read, with why.
type revertNotRead struct {
	LogicalID    string `json:"logicalId"`
	ResourceType string `json:"resourceType"`
	PhysicalID   string `json:"physicalId,omitempty"`
	Reason       string `json:"reason"`
}

// notReadOf lists the resources run's check could not read.
func notReadOf(run *stackRun) []revertNotRead {
	var out []revertNotRead
	for _, u := range report.UnreadResources(run.report()) {
		out = append(out, revertNotRead{LogicalID: u.F.LogicalID, ResourceType: u.F.ResourceType, PhysicalID: u.F.PhysicalID, Reason: u.Reason})
	}
	return out
}

// revertSummary counts a run's outcomes.
// revertOutput is revert --json: the header every JSON report carries,
// each stack's plan and outcomes, and the run's summary
// (report.schema.json, revertReport).
type revertOutput struct {
	report.Header
	Stacks  []revertStack `json:"stacks"`
	Summary revertSummary `json:"summary"`
}

type revertSummary struct {
	DryRun        bool           `json:"dryRun"`
	Planned       int            `json:"planned"`
	Reverted      int            `json:"reverted"`
	StillDrifted  int            `json:"stillDrifted"`
	Failed        int            `json:"failed"`
	NotChosen     int            `json:"notChosen"`
	NotRevertable map[string]int `json:"notRevertable"`
	// NotRead counts the resources not read (the revert is incomplete).
	NotRead     int `json:"notRead"`
	StackErrors int `json:"stackErrors"`
}

func runRevert(ctx context.Context, s IO, args []string) int {
	fs := newFlags(s, "revert", revertSynopsis)
	var f revertFlags
	f.register(fs)
	fs.BoolVar(&f.dryRun, "dry-run", false, "print the plan and write nothing (the default without a terminal and --yes)")
	fs.BoolVar(&f.yes, "yes", false, "write every item of the plan without asking")
	fs.BoolVar(&f.json, "json", false, "write the plan and the outcome as JSON to stdout (report.schema.json)")
	fs.BoolVar(&f.declaredOnly, "declared-only", false, "revert only the declared side (declared drift)")
	fs.BoolVar(&f.undeclaredOnly, "undeclared-only", false, "revert only live-only state (undeclared values, added children)")
	fs.Var(&f.only, "only", "revert only findings whose LOGICALID.PATH matches this glob (repeatable)")
	fs.BoolVar(&f.removeUnrecorded, "remove-unrecorded", false, "remove live-only values nobody recorded (where they have an absent state) and delete unrecorded out-of-band children, instead of listing them not revertable")
	fs.BoolVar(&f.who, "who", false, "name who changed each drifted resource in the plan, as check --who does: the last CloudTrail write event naming it (one LookupEvents call per drifted resource at 2 a second; needs cloudtrail:LookupEvents); never changes what is planned")
	f.registerRecursion(fs)
	fs.DurationVar(&f.wait, "wait", 0, "retry transient write failures until this long after the run started (e.g. 2m; default: 3 attempts)")
	if done, code := parse(s, fs, args); done {
		return code
	}
	switch {
	case f.declaredOnly && f.undeclaredOnly:
		return fail(s, "revert", errors.New("--declared-only and --undeclared-only exclude each other"))
	case f.dryRun && f.yes:
		return fail(s, "revert", errors.New("--dry-run and --yes exclude each other"))
	case f.wait < 0:
		return fail(s, "revert", fmt.Errorf("--wait must not be negative (got %s)", f.wait))
	}
	interactive := !f.yes && !f.dryRun && s.StdinTTY && s.IsTTY && s.Stdin != nil && !f.json
	dry := f.dryRun || (!f.yes && !interactive)
	if dry && !f.dryRun {
		fmt.Fprintln(s.Stderr, "note: no terminal and no --yes: dry run, nothing is written")
	}
	sess, err := f.open(ctx, s, fs.Args())
	if err != nil {
		return fail(s, "revert", err)
	}
	defer sess.close()
	// On a terminal, values nobody recorded are offered as opt-in REMOVE
	// rows (none is chosen unless picked): the choice is the consent the
	// flag gives a run without prompts (seed 002 §7).
	opt := revert.Options{DeclaredOnly: f.declaredOnly, UndeclaredOnly: f.undeclaredOnly, Only: f.only, RemoveUnrecorded: f.removeUnrecorded || interactive}
	sum := revertSummary{DryRun: dry, NotRevertable: map[string]int{}}
	var out []revertStack
	var in *answers
	if interactive {
		in = newAnswers(s.Stdin)
	}
	start := time.Now()
	// Every stack is checked before anything is written, so an --only
	// glob that names nothing is an error with nothing written.
	var runs []*stackRun
	for _, t := range sess.targets {
		if ctx.Err() != nil {
			break
		}
		// A stack, then its nested stacks depth first (each its own plan
		// against its own baseline), unless --no-recursive.
		tree := []*stackRun{sess.gather(ctx, t, gatherMode{})}
		if !sess.flags.noRecursive {
			tree = sess.descendRun(ctx, tree[0], gatherMode{}, 1, &visited{seen: map[string]bool{}})
		}
		runs = append(runs, tree...)
	}
	if ctx.Err() == nil {
		if err := onlyNamesSomething(runs, opt); err != nil {
			return fail(s, "revert", err)
		}
	}
	if f.who {
		finder := who.New(who.Options{})
		for _, run := range runs {
			sess.attributeDrift(ctx, finder, run)
		}
	}
	for _, run := range runs {
		if ctx.Err() != nil {
			break
		}
		rs := sess.revertRun(ctx, s, run, opt, &f, dry, in, start)
		out = append(out, rs)
		sum.add(rs)
		if !f.json {
			printRevert(s.Stdout, rs, dry)
		}
	}
	if f.json {
		if out == nil {
			out = []revertStack{}
		}
		b, err := json.MarshalIndent(revertOutput{Header: report.NewHeader(report.KindRevert, toolVersion()), Stacks: out, Summary: sum}, "", "  ")
		if err != nil {
			return fail(s, "revert", err)
		}
		fmt.Fprintln(s.Stdout, string(b))
	} else {
		fmt.Fprintln(s.Stdout, sum.line())
	}
	if ctx.Err() != nil {
		fmt.Fprintf(s.Stderr, "realdrift revert: interrupted — %s; stacks after it neither planned nor written\n", sum.line())
		return ExitInterrupt
	}
	return sum.exit()
}

// revertRun plans, writes and re-checks one checked stack.
func (sess *session) revertRun(ctx context.Context, s IO, run *stackRun, opt revert.Options, f *revertFlags, dry bool, in *answers, start time.Time) revertStack {
	rs := revertStack{Stack: run.ref, Parent: run.parent, Outcomes: []revert.Outcome{}}
	if run.err != nil {
		rs.Error = run.err.Error()
		return rs
	}
	c := sess.clients[run.target.region]
	p, err := revert.Build(planInput(ctx, c, run), opt)
	if err != nil {
		rs.Error = err.Error()
		return rs
	}
	rs.Plan = p
	rs.NotRead = notReadOf(run)
	if dry || len(p.Items) == 0 {
		rs.Outcomes = revert.PlannedOutcomes(p)
		return rs
	}
	if in != nil {
		printPlan(s.Stdout, p)
		chosen, err := chooseRevertItems(ctx, s.Stdout, in, p)
		if err != nil {
			rs.Error = err.Error()
			if ctx.Err() != nil {
				rs.Error = "interrupted at the prompt: nothing written"
			}
			return rs
		}
		if len(chosen) == 0 {
			fmt.Fprintln(s.Stdout, "nothing chosen: nothing written")
			rs.Outcomes = revert.PlannedOutcomes(p)
			return rs
		}
		p = &revert.Plan{Stack: p.Stack, Items: chosen, NotRevertable: p.NotRevertable}
	}
	out := sess.applyRevert(ctx, s, run, p, f.wait-time.Since(start))
	out.NotRead = rs.NotRead
	return out
}

// chooseRevertItems asks which items of p to write (none chosen at first).
func chooseRevertItems(ctx context.Context, w io.Writer, in *answers, p *revert.Plan) ([]revert.Item, error) {
	labels := make([]string, len(p.Items))
	for i, it := range p.Items {
		labels[i] = revertLine(p.Stack.Name, it)
	}
	picked, err := chooseItems(ctx, w, in, "Items to write for "+p.Stack.Name+":", labels)
	if err != nil {
		return nil, err
	}
	chosen := make([]revert.Item, 0, len(picked))
	for _, i := range picked {
		chosen = append(chosen, p.Items[i])
	}
	return chosen, nil
}

// applyRevert writes every item of p (the plan of run's stack), retrying
// transient failures until wait has passed (when positive), then checks
// the stack again for each item's outcome, re-reading while a written item
// still reads as drifted (revert.Verify; spaced within wait when positive).
func (sess *session) applyRevert(ctx context.Context, s IO, run *stackRun, p *revert.Plan, wait time.Duration) revertStack {
	rs := revertStack{Stack: run.ref, Parent: run.parent, Plan: p, Outcomes: []revert.Outcome{}}
	deadline := time.Now().Add(wait)
	t := run.target
	c := sess.clients[t.region]
	st := sess.settings
	st.Region = t.region
	cfg, err := scan.Config(ctx, st)
	if err != nil {
		rs.Error = err.Error()
		return rs
	}
	w := live.NewWriters(cfg, c.Live)
	w.Wait = wait > 0 // a Route 53 change is polled to INSYNC under --wait
	writes := revert.Apply(ctx, w, p, revert.ApplyOptions{
		Wait:        wait,
		Now:         time.Now,
		Sleep:       revert.SleepContext,
		Resources:   revert.Resources(run.result.Desired, nil),
		Progress:    func(line string) { fmt.Fprintln(s.Stderr, line) },
		Concurrency: sess.flags.concurrency,
	})
	fmt.Fprintf(s.Stderr, "verifying convergence (re-reading %s)…\n", p.Stack.Name)
	rs.Outcomes = revert.Verify(ctx, p, writes, revert.VerifyOptions{
		Recheck: func(ctx context.Context) ([]drift.Finding, error) {
			after := sess.gather(ctx, t, gatherMode{})
			return after.findings, after.err
		},
		// Under --wait, re-reads are spaced 1 s, 2 s, 4 s within it;
		// without, they follow at once.
		Pause: func(i int) time.Duration {
			if wait <= 0 {
				return 0
			}
			return min(time.Duration(1<<(i-1))*time.Second, max(0, time.Until(deadline)))
		},
		Progress: func(line string) { fmt.Fprintln(s.Stderr, line) },
	})
	return rs
}

// planInput is a gathered stack as revert.Build takes it.
func planInput(ctx context.Context, c *scan.Clients, run *stackRun) revert.Input {
	d := run.result.Desired
	facts := map[string]*schema.Facts{}
	if reg, err := c.Schema(); err == nil {
		for _, r := range d.Resources {
			if _, ok := facts[r.Type]; ok || live.IsCustom(r.Type) {
				continue
			}
			if f, err := reg.Lookup(ctx, r.Type); err == nil {
				facts[r.Type] = f
			} else {
				facts[r.Type] = nil
			}
		}
	}
	return revert.Input{
		Stack: run.ref, Findings: run.findings, Baseline: run.base, Resources: revert.Resources(d, run.result.Lives),
		Facts: func(t string) (*schema.Facts, bool) { f := facts[t]; return f, f != nil },
	}
}

// revertLine renders one item: path, current → target, and the call.
func revertLine(stack string, it revert.Item) string {
	name := it.Name(stack)
	unrecorded := ""
	if it.Note == revert.NoteUnrecorded {
		unrecorded = ", unrecorded"
	}
	switch {
	case it.Kind == revert.Delete:
		return fmt.Sprintf("%s %s (DELETE%s via %s)", name, it.PhysicalID, unrecorded, it.Call)
	case it.Remove:
		return fmt.Sprintf("%s: %s → (REMOVE%s) via %s", name, shortValue(it.Current), unrecorded, it.Call)
	}
	return fmt.Sprintf("%s: %s → %s via %s", name, shortValue(it.Current), shortValue(it.Target), it.Call)
}

func shortValue(v any) string {
	if v == nil {
		return "(absent)"
	}
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprint(v)
	}
	s := []rune(string(b))
	if len(s) > 80 {
		return string(s[:77]) + "…"
	}
	return string(s)
}

// planChange is how the plan shows a write whose values are too long for
// one line (a policy document, a bag of keys): the lines that differ
// between the live value and the value the revert writes (package
// valuediff, "[-]" live, "[+]" after the revert, with context), never two
// copies cut to the same prefix. nil for a short change, a removal or a
// delete, and for a value holding a secret (shown redacted on one line).
func planChange(it revert.Item) []string {
	if it.Kind == revert.Delete || it.Remove || !longChange(it.Current, it.Target) {
		return nil
	}
	return valueLines(it.Current, it.Target)
}

// printPlan writes the items in full — a long change as the lines that
// differ — and the not-revertable findings folded to one line per reason.
func printPlan(w io.Writer, p *revert.Plan) {
	fmt.Fprintf(w, "%s: %d to revert, %d not revertable\n", p.Stack, len(p.Items), len(p.NotRevertable))
	for _, it := range p.Items {
		lines := planChange(it)
		if lines == nil {
			fmt.Fprintf(w, "  %s\n", revertLine(p.Stack.Name, it))
		} else {
			fmt.Fprintf(w, "  %s: live → after revert, the lines that differ ([-] live, [+] written) via %s\n", it.Name(p.Stack.Name), it.Call)
			for _, l := range lines {
				fmt.Fprintf(w, "      %s\n", l)
			}
		}
		if it.ChangedBy != nil {
			fmt.Fprintf(w, "      %s\n", it.ChangedBy.Line())
		}
	}
	byReason := map[revert.Reason][]string{}
	var reasons []revert.Reason
	for _, n := range p.NotRevertable {
		if _, ok := byReason[n.Reason]; !ok {
			reasons = append(reasons, n.Reason)
		}
		byReason[n.Reason] = append(byReason[n.Reason], n.Name(p.Stack.Name))
	}
	sort.Slice(reasons, func(i, j int) bool { return reasons[i] < reasons[j] })
	for _, r := range reasons {
		names := byReason[r]
		list := strings.Join(names, ", ")
		if len(names) > 4 {
			list = strings.Join(names[:4], ", ") + fmt.Sprintf(", … (%d more)", len(names)-4)
		}
		fmt.Fprintf(w, "  not revertable (%d): %s: %s\n", len(names), r.Text(), list)
	}
}

// printRevert writes one stack's plan (unless already shown) and outcome.
func printRevert(w io.Writer, rs revertStack, dry bool) {
	if rs.Error != "" {
		fmt.Fprintf(w, "%s: error: %s\n", rs.Stack, rs.Error)
		return
	}
	if rs.Plan == nil {
		return
	}
	defer printNotRead(w, rs.NotRead)
	if len(rs.Plan.Items) == 0 && len(rs.Plan.NotRevertable) == 0 {
		if len(rs.NotRead) > 0 {
			fmt.Fprintf(w, "%s: no drift to revert among what was read — INCOMPLETE, %d not read:\n", rs.Stack, len(rs.NotRead))
			return
		}
		fmt.Fprintf(w, "%s: no drift to revert\n", rs.Stack)
		return
	}
	if dry || !written(rs) {
		printPlan(w, rs.Plan)
		return
	}
	byID := map[string]revert.Item{}
	for _, it := range rs.Plan.Items {
		byID[it.ID] = it
	}
	fmt.Fprintf(w, "%s:\n", rs.Stack)
	for _, o := range rs.Outcomes {
		it := byID[o.ID]
		switch o.Status {
		case revert.Reverted:
			fmt.Fprintf(w, "  reverted: %s\n", revertLine(rs.Stack.Name, it))
		case revert.StillDrifted:
			fmt.Fprintf(w, "  still drifted: %s (live: %s)\n", revertLine(rs.Stack.Name, it), shortValue(o.Live))
		case revert.Failed:
			fmt.Fprintf(w, "  FAILED: %s: %s\n", revertLine(rs.Stack.Name, it), o.Error)
		}
	}
	if n := len(rs.Plan.NotRevertable); n > 0 {
		fmt.Fprintf(w, "  %d not revertable (run with --dry-run to list them)\n", n)
	}
}

// printNotRead lists the resources not read: their drift is unknown, so
// the plan and the outcome cannot speak for them.
func printNotRead(w io.Writer, nr []revertNotRead) {
	for _, n := range nr {
		fmt.Fprintf(w, "  not read: %s (%s): %s\n", n.LogicalID, n.ResourceType, n.Reason)
	}
}

func written(rs revertStack) bool {
	for _, o := range rs.Outcomes {
		if o.Status != revert.Planned {
			return true
		}
	}
	return false
}

func (sum *revertSummary) add(rs revertStack) {
	if rs.Error != "" {
		sum.StackErrors++
	}
	sum.NotRead += len(rs.NotRead)
	if rs.Plan != nil {
		for _, n := range rs.Plan.NotRevertable {
			sum.NotRevertable[n.Reason.String()]++
		}
	}
	for _, o := range rs.Outcomes {
		switch o.Status {
		case revert.Planned:
			if sum.DryRun {
				sum.Planned++
			} else {
				sum.NotChosen++
			}
		case revert.Reverted:
			sum.Reverted++
		case revert.StillDrifted:
			sum.StillDrifted++
		case revert.Failed:
			sum.Failed++
		}
	}
}

func (sum *revertSummary) notRevertable() int {
	n := 0
	for _, v := range sum.NotRevertable {
		n += v
	}
	return n
}

func (sum *revertSummary) line() string {
	var reasons []string
	for r, n := range sum.NotRevertable {
		reasons = append(reasons, fmt.Sprintf("%s %d", r, n))
	}
	sort.Strings(reasons)
	nr := fmt.Sprintf("%d not revertable", sum.notRevertable())
	if len(reasons) > 0 {
		nr += " (" + strings.Join(reasons, ", ") + ")"
	}
	if sum.NotRead > 0 {
		nr += fmt.Sprintf(", %d not read (INCOMPLETE: their drift is unknown)", sum.NotRead)
	}
	if sum.DryRun {
		return fmt.Sprintf("dry run: %d to revert, %s; nothing written", sum.Planned, nr)
	}
	return fmt.Sprintf("revert: %d reverted, %d still drifted, %d failed, %s", sum.Reverted, sum.StillDrifted, sum.Failed, nr)
}

func (sum *revertSummary) exit() int {
	switch {
	case sum.Failed > 0 || sum.StackErrors > 0:
		return ExitError
	case !sum.DryRun && (sum.StillDrifted > 0 || sum.NotChosen > 0 || sum.notRevertable() > 0):
		return ExitDrift
	case sum.NotRead > 0:
		return ExitIncomplete
	}
	return ExitOK
}

// onlyNamesSomething checks that each --only glob names something in the
// stacks that could be checked: a finding, or a resource (by the glob's
// part before its first '.', so "OrdersQueue.*" names OrdersQueue even
// when it has not drifted). One that names nothing is a mistyped name:
// an error naming the candidates as check prints them (the findings a
// revert on opt's side covers, else the resources), as a mistyped stack
// name is.
func onlyNamesSomething(runs []*stackRun, opt revert.Options) error {
	if len(opt.Only) == 0 {
		return nil
	}
	var candidates, resources []string
	seen := map[string]bool{}
	matched := make([]bool, len(opt.Only))
	for _, run := range runs {
		if run.err != nil {
			continue
		}
		for _, fd := range run.findings {
			for i, g := range opt.Only {
				matched[i] = matched[i] || revert.OnlyMatches(run.ref, fd, g)
			}
			if !revert.OnSide(fd, opt) {
				continue
			}
			if name := ignore.DisplayPath(run.ref.Name, fd); !seen[name] {
				seen[name] = true
				candidates = append(candidates, name)
			}
		}
		if run.result == nil || run.result.Desired == nil {
			continue
		}
		for _, r := range run.result.Desired.Resources {
			whole := drift.Finding{LogicalID: r.LogicalID, ResourceType: r.Type, ConstructPath: r.ConstructPath}
			resources = append(resources, ignore.DisplayPath(run.ref.Name, whole))
			for i, g := range opt.Only {
				head, _, _ := strings.Cut(g, ".")
				matched[i] = matched[i] || revert.OnlyMatches(run.ref, whole, head)
			}
		}
	}
	if len(candidates) == 0 {
		candidates = resources
	}
	var missing []string
	for i, g := range opt.Only {
		if !matched[i] {
			missing = append(missing, fmt.Sprintf("%q", g))
		}
	}
	if len(missing) == 0 {
		return nil
	}
	msg := fmt.Sprintf("--only %s names no resource or finding of the stacks (nothing written)", strings.Join(missing, ", "))
	if len(candidates) == 0 {
		return errors.New(msg + "; the stacks have no resources")
	}
	sort.Strings(candidates)
	return fmt.Errorf("%s; names that can be given: %s", msg, listSome(candidates))
}
