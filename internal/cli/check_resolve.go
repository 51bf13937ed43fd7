package cli

import (
	"context"
	"fmt"
	"strings"

	"github.com/realdrift/realdrift/internal/drift"
	"github.com/realdrift/realdrift/internal/ignore"
	"github.com/realdrift/realdrift/internal/revert"
)

// check's inline resolution (seed 002): after the report, on a terminal,
// check asks what to do about the findings — Nothing (first, and the
// default: Enter), Record the live-only values (and the first baseline of
// a stack that has none yet, even a clean one), Revert drift, Ignore
// findings, or Decide per finding. A bulk choice is offered only when at
// least one finding can take it, and leads to that verb's own selection
// (every item unselected at first); deciding per finding is offered when
// more than one finding can be decided, and asks Nothing / Record / Revert
// / Ignore per finding (again Nothing first and the default), then writes
// the chosen records and ignore rules, and the chosen reverts after a
// confirmation. Every path runs the same per-stack code as the verbs
// (recordRun / recordChosen, ignoreRuns / appendRules, applyRevert). The
// exit status stays check's own: resolving writes a baseline, rules or AWS
// state, it does not re-grade the report.

// resolvable is what the findings of a check can take.
type resolvable struct {
	runs []resolveRun
	// ignorable counts the findings an ignore rule can silence.
	ignorable int
}

// resolveRun is one checked stack's share.
type resolveRun struct {
	run *stackRun
	// delta are the live-only values record acts on (nil when the check
	// was scoped).
	delta []drift.Finding
	// plan is the stack's revert plan (nil when it cannot be built).
	plan *revert.Plan
	// items are plan's items by revert.ItemID.
	items map[string]revert.Item
	// establish says record would write the stack's first baseline
	// (there is none yet), even with no live-only value to take.
	establish bool
}

// counts returns how many values record can take, how many items revert
// can write for drift, and how many more remove values nobody recorded.
func (r *resolvable) counts() (record, rev, unrecorded int) {
	for _, rr := range r.runs {
		record += len(rr.delta)
		if rr.plan == nil {
			continue
		}
		for _, it := range rr.plan.Items {
			if it.Note == revert.NoteUnrecorded {
				unrecorded++
			} else {
				rev++
			}
		}
	}
	return record, rev, unrecorded
}

// resolvableOf plans what each run's findings can take. A plan that
// cannot be built leaves that stack's findings unrevertable here (the
// reason is printed).
func resolvableOf(ctx context.Context, s IO, sess *session, runs []*stackRun, canRecord bool) *resolvable {
	res := &resolvable{ignorable: len(ignoreCandidates(runs))}
	for _, r := range runs {
		if r.err != nil || r.result == nil {
			continue
		}
		rr := resolveRun{run: r, items: map[string]revert.Item{}}
		if canRecord {
			rr.delta = recordDelta(r.findings)
			rr.establish = r.noBaseline
		}
		if c := sess.clients[r.target.region]; c != nil && hasDrift(r.findings) {
			// Values nobody recorded are opt-in removals here, as on
			// revert's terminal (each is chosen explicitly or not at all).
			p, err := revert.Build(planInput(ctx, c, r), revert.Options{RemoveUnrecorded: true})
			if err != nil {
				fmt.Fprintf(s.Stderr, "note: %s: no revert plan: %v\n", r.ref.Name, err)
			} else {
				rr.plan = p
				for _, it := range p.Items {
					rr.items[it.ID] = it
				}
			}
		}
		res.runs = append(res.runs, rr)
	}
	return res
}

// firstBaselines counts the stacks record would give a first baseline,
// and whether one of them also has declared drift (which a baseline does
// not resolve).
func (r *resolvable) firstBaselines() (n int, declared bool) {
	for _, rr := range r.runs {
		if !rr.establish {
			continue
		}
		n++
		for _, f := range rr.run.findings {
			declared = declared || f.Tier == drift.Declared || f.Tier == drift.Deleted
		}
	}
	return n, declared
}

// recordOption is the prompt's record choice: the live-only values, and
// the first baseline of the stacks that have none yet (seed 002 R141:
// offered even on a clean stack, so the day-1 baseline is set from
// check's own flow; worded so it never reads as resolving declared drift).
func recordOption(values, first int, declared bool) string {
	var s string
	switch {
	case values > 0 && first > 0:
		s = fmt.Sprintf(" · r record live-only values (%d; first baseline for %s)", values, stacksOf(first))
	case values > 0:
		return fmt.Sprintf(" · r record live-only values (%d)", values)
	case first > 0:
		s = fmt.Sprintf(" · r record the current state as the first baseline (%s without one; start watching undeclared state)", stacksOf(first))
	default:
		return ""
	}
	if declared {
		s += " — declared drift stays reported: revert or ignore it separately"
	}
	return s
}

func stacksOf(n int) string {
	if n == 1 {
		return "1 stack"
	}
	return fmt.Sprintf("%d stacks", n)
}

func hasDrift(fs []drift.Finding) bool {
	for _, f := range fs {
		if f.Tier.IsDrift() {
			return true
		}
	}
	return false
}

// resolveInline asks what to do about the findings (see above). canRecord
// is false when the check was scoped, since record must see the whole
// live-only side.
func resolveInline(ctx context.Context, s IO, sess *session, runs []*stackRun, canRecord bool) error {
	res := resolvableOf(ctx, s, sess, runs, canRecord)
	nRecord, nDrift, nUnrecorded := res.counts()
	nRevert := nDrift + nUnrecorded
	decidable := res.decidable()
	nFirst, declaredToo := res.firstBaselines()
	if nRecord == 0 && nFirst == 0 && nRevert == 0 && res.ignorable == 0 {
		return nil
	}
	prompt := "\nResolve now? [Enter] nothing" + recordOption(nRecord, nFirst, declaredToo)
	switch {
	case nUnrecorded > 0:
		prompt += fmt.Sprintf(" · v revert drift (%d, and %d unrecorded to remove)", nDrift, nUnrecorded)
	case nDrift > 0:
		prompt += fmt.Sprintf(" · v revert drift (%d)", nDrift)
	}
	if res.ignorable > 0 {
		prompt += fmt.Sprintf(" · i ignore findings (%d)", res.ignorable)
	}
	if len(decidable) > 1 {
		prompt += " · d decide per finding"
	}
	prompt += ": "
	in := newAnswers(s.Stdin)
	for range maxChoices {
		fmt.Fprint(s.Stdout, prompt)
		line, err := in.line(ctx)
		if ctx.Err() != nil {
			fmt.Fprintln(s.Stdout)
			return interruptedAt(ctx, "the report above is complete; nothing recorded, reverted or ignored")
		}
		if err != nil && line == "" {
			fmt.Fprintln(s.Stdout)
			return nil // end of input: nothing
		}
		switch strings.ToLower(strings.TrimSpace(line)) {
		case "", "n", "nothing":
			return nil
		case "r", "record":
			if nRecord == 0 && nFirst == 0 {
				break
			}
			var recorded []string
			for _, rr := range res.runs {
				if len(rr.delta) == 0 && !rr.establish {
					continue
				}
				if err := recordRun(ctx, s, sess, rr.run, in); err != nil {
					if ctx.Err() != nil {
						return interruptedAt(ctx, recordedSoFar(recorded)+"; nothing reverted or ignored")
					}
					return fmt.Errorf("record %s: %w", rr.run.ref.Name, err)
				}
				recorded = append(recorded, rr.run.ref.Name)
			}
			return nil
		case "v", "revert":
			if nRevert == 0 {
				break
			}
			return res.revertBulk(ctx, s, sess, in)
		case "i", "ignore":
			if res.ignorable == 0 {
				break
			}
			if code := ignoreRuns(ctx, s, sess, runs, in, ruleScope{}); code != ExitOK {
				if code == ExitInterrupt {
					return interruptedAt(ctx, "no ignore rule written; nothing recorded or reverted")
				}
				return errReported
			}
			return nil
		case "d", "decide":
			if len(decidable) < 2 {
				break
			}
			return res.decide(ctx, s, sess, in, decidable)
		}
		fmt.Fprintln(s.Stdout, "answer one of the letters shown, or press Enter for nothing")
	}
	return fmt.Errorf("no valid answer after %d tries", maxChoices)
}

// revertBulk runs revert's own selection for every stack with items, and
// writes what is chosen there.
func (res *resolvable) revertBulk(ctx context.Context, s IO, sess *session, in *answers) error {
	failed := false
	var written []string // stacks whose chosen items were written
	for _, rr := range res.runs {
		if rr.plan == nil || len(rr.plan.Items) == 0 {
			continue
		}
		printPlan(s.Stdout, rr.plan)
		chosen, err := chooseRevertItems(ctx, s.Stdout, in, rr.plan)
		if err != nil {
			if ctx.Err() != nil {
				return interruptedAt(ctx, revertedSoFar(written)+"; nothing recorded or ignored")
			}
			return err
		}
		if len(chosen) == 0 {
			fmt.Fprintf(s.Stdout, "%s: nothing chosen: nothing written\n", rr.run.ref.Name)
			continue
		}
		failed = res.write(ctx, s, sess, rr, chosen) || failed
		written = append(written, rr.run.ref.Name)
	}
	if failed {
		return errReported
	}
	return nil
}

// write reverts chosen (items of rr's plan) and prints the outcome; it
// reports whether a write failed or the stack could not be re-checked.
func (res *resolvable) write(ctx context.Context, s IO, sess *session, rr resolveRun, chosen []revert.Item) bool {
	p := &revert.Plan{Stack: rr.plan.Stack, Items: chosen, NotRevertable: rr.plan.NotRevertable}
	out := sess.applyRevert(ctx, s, rr.run, p, 0)
	printRevert(s.Stdout, out, false)
	var sum revertSummary
	sum.NotRevertable = map[string]int{}
	sum.add(out)
	return sum.Failed > 0 || sum.StackErrors > 0
}

// decision is one finding to decide and the actions it can take.
type decision struct {
	rr     int // index in resolvable.runs
	f      drift.Finding
	record bool
	item   *revert.Item
	ignore bool
}

// decidable lists the findings at least one action applies to, in report
// order.
func (res *resolvable) decidable() []decision {
	var out []decision
	for i, rr := range res.runs {
		inDelta := map[entryKey]bool{}
		for _, f := range rr.delta {
			inDelta[keyOf(f)] = true
		}
		for _, f := range rr.run.findings {
			d := decision{rr: i, f: f, record: inDelta[keyOf(f)]}
			if it, ok := rr.items[revert.ItemID(f)]; ok {
				d.item = &it
			}
			switch f.Tier {
			case drift.Declared, drift.Undeclared, drift.Added:
				d.ignore = true
			}
			if d.record || d.item != nil || d.ignore {
				out = append(out, d)
			}
		}
	}
	return out
}

// action is a per-finding choice.
type action uint8

const (
	actNothing action = iota
	actRecord
	actRevert
	actIgnore
)

// options is the per-finding prompt's list of actions, Nothing first.
func (d decision) options() string {
	s := "[Enter] nothing"
	if d.record {
		s += " · r record"
	}
	if d.item != nil {
		s += " · v revert"
	}
	if d.ignore {
		s += " · i ignore"
	}
	return s
}

// parseAction reads one per-finding answer; ok is false for an answer the
// finding cannot take.
func (d decision) parseAction(answer string) (action, bool) {
	switch strings.ToLower(strings.TrimSpace(answer)) {
	case "", "n", "nothing":
		return actNothing, true
	case "r", "record":
		return actRecord, d.record
	case "v", "revert":
		return actRevert, d.item != nil
	case "i", "ignore":
		return actIgnore, d.ignore
	}
	return actNothing, false
}

// decideLine describes a finding for the per-finding prompt.
func decideLine(stack string, d decision) string {
	f := d.f
	s := fmt.Sprintf("%s: %s (%s, %s)", stack, ignore.DisplayPath(stack, f), f.ResourceType, f.Tier)
	switch {
	case f.Tier == drift.Added:
		s += ": live-only resource " + f.PhysicalID
	case f.Tier == drift.Deleted:
		s += ": deleted"
	case f.Actual == nil:
		s += ": gone (wanted " + short(f.Desired) + ")"
	case f.Desired != nil:
		s += ": wanted " + short(f.Desired) + " → live " + short(f.Actual)
	default:
		s += ": live " + short(f.Actual)
	}
	if f.Unrecorded {
		s += " — not recorded yet"
	} else if f.Note != "" {
		s += " — " + f.Note
	}
	return s
}

// decide asks an action per finding, then records, ignores and (after a
// confirmation) reverts what was chosen. End of input decides nothing for
// the findings left.
func (res *resolvable) decide(ctx context.Context, s IO, sess *session, in *answers, ds []decision) error {
	fmt.Fprintf(s.Stdout, "Decide per finding (%d; Enter leaves a finding as it is):\n", len(ds))
	chosen := make([]action, len(ds))
	eof := false
	for i, d := range ds {
		if eof {
			break
		}
		stack := res.runs[d.rr].run.ref.Name
		fmt.Fprintf(s.Stdout, "  [%d/%d] %s\n", i+1, len(ds), decideLine(stack, d))
		ok := false
		for range maxChoices {
			fmt.Fprintf(s.Stdout, "        %s: ", d.options())
			line, err := in.line(ctx)
			if ctx.Err() != nil {
				fmt.Fprintln(s.Stdout)
				return interruptedAt(ctx, "no decision applied: nothing recorded, reverted or ignored")
			}
			if err != nil && line == "" {
				fmt.Fprintln(s.Stdout)
				eof, ok = true, true
				break
			}
			if chosen[i], ok = d.parseAction(line); ok {
				break
			}
			fmt.Fprintln(s.Stdout, "        not an action this finding can take")
		}
		if !ok {
			return fmt.Errorf("no valid answer after %d tries", maxChoices)
		}
	}
	var nRec, nRev, nIgn int
	for _, a := range chosen {
		switch a {
		case actRecord:
			nRec++
		case actRevert:
			nRev++
		case actIgnore:
			nIgn++
		}
	}
	fmt.Fprintf(s.Stdout, "chosen: %d to record, %d to revert, %d to ignore, %d left as they are\n", nRec, nRev, nIgn, len(ds)-nRec-nRev-nIgn)
	// Records, per stack.
	for ri, rr := range res.runs {
		pick := map[entryKey]bool{}
		for i, d := range ds {
			if d.rr == ri && chosen[i] == actRecord {
				pick[keyOf(d.f)] = true
			}
		}
		if len(pick) > 0 {
			if err := recordChosen(ctx, s, sess, rr.run, rr.delta, pick); err != nil {
				return fmt.Errorf("record %s: %w", rr.run.ref.Name, err)
			}
		}
	}
	// Ignore rules, in one append.
	var rules []ignore.Rule
	for i, d := range ds {
		if chosen[i] == actIgnore {
			rules = append(rules, ignore.RuleFor(res.runs[d.rr].run.ref.Name, d.f))
		}
	}
	if len(rules) > 0 {
		if code := appendRules(ctx, s, sess.state, rules); code != ExitOK {
			return errReported
		}
	}
	if nRev == 0 {
		return nil
	}
	// Reverts write AWS state: confirmed once, then per stack.
	fmt.Fprintf(s.Stdout, "Write %d revert item(s) to AWS? [y/N]: ", nRev)
	line, _ := in.line(ctx)
	if ctx.Err() != nil {
		fmt.Fprintln(s.Stdout)
		return interruptedAt(ctx, fmt.Sprintf("%d recorded and %d ignored as chosen; nothing written to AWS", nRec, nIgn))
	}
	if a := strings.ToLower(strings.TrimSpace(line)); a != "y" && a != "yes" {
		fmt.Fprintln(s.Stdout, "not confirmed: nothing written to AWS")
		return nil
	}
	failed := false
	for ri, rr := range res.runs {
		var items []revert.Item
		seen := map[string]bool{}
		for i, d := range ds {
			if d.rr == ri && chosen[i] == actRevert && !seen[d.item.ID] {
				seen[d.item.ID] = true
				items = append(items, *d.item)
			}
		}
		if len(items) > 0 {
			failed = res.write(ctx, s, sess, rr, planOrder(rr.plan, items)) || failed
		}
	}
	if failed {
		return errReported
	}
	return nil
}

// planOrder returns the chosen items in p's order.
func planOrder(p *revert.Plan, chosen []revert.Item) []revert.Item {
	want := map[string]bool{}
	for _, it := range chosen {
		want[it.ID] = true
	}
	out := make([]revert.Item, 0, len(chosen))
	for _, it := range p.Items {
		if want[it.ID] {
			out = append(out, it)
		}
	}
	return out
}

// recordedSoFar says which stacks' baselines an interrupted resolve wrote.
func recordedSoFar(names []string) string {
	if len(names) == 0 {
		return "no baseline written"
	}
	return "baselines written for " + listSome(names) + ", no other"
}

// revertedSoFar says which stacks an interrupted resolve wrote to AWS.
func revertedSoFar(names []string) string {
	if len(names) == 0 {
		return "nothing written to AWS"
	}
	return "chosen items written to AWS for " + listSome(names) + ", nothing for the other stacks"
}
