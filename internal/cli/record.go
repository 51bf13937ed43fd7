package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/realdrift/realdrift/internal/baseline"
	"github.com/realdrift/realdrift/internal/drift"
	"github.com/realdrift/realdrift/internal/ignore"
	"github.com/realdrift/realdrift/internal/scan"
)

const recordSynopsis = `[flags] [STACK|GLOB ...]

Records the live-only state of stacks (undeclared values, out-of-band child
resources) as their baseline: check then stays quiet about it, and reports
any later change to it as drift. On a terminal it lists what is new or
changed since the last record and asks which to record; with --yes, or when
stdin is not a terminal, it records everything. In CI (CI=true) it records
only with --yes. What could not be read (a resource, a child listing, an
added child) keeps its recorded entries unchanged and is named on stderr;
--strict then exits 1. Each nested stack is recorded too, to its own
baseline (--no-recursive: only the stacks chosen). With --store
dynamodb://TABLE[?region=REGION] the baseline is written to the service's
table (the next sweep applies it); a concurrent writer's entries are merged,
never lost.
Exit status: 0 recorded, 1 recorded with incomplete coverage under --strict,
2 error, 130 interrupted.`

func runRecord(ctx context.Context, s IO, args []string) int {
	fs := newFlags(s, "record", recordSynopsis)
	var f stackFlags
	f.register(fs)
	var yes, strict bool
	fs.BoolVar(&yes, "yes", false, "record everything without asking")
	fs.BoolVar(&yes, "y", false, "shorthand for --yes")
	fs.BoolVar(&strict, "strict", false, "exit 1 when coverage is incomplete (something was not read; its recorded entries are kept)")
	f.registerRecursion(fs)
	if done, code := parse(s, fs, args); done {
		return code
	}
	if isCI(s) && !yes {
		return fail(s, "record", errors.New("CI mode (CI=true): record writes the baseline only with an explicit --yes"))
	}
	sess, err := f.open(ctx, s, fs.Args())
	if err != nil {
		return fail(s, "record", err)
	}
	defer sess.close()
	interactive := s.StdinTTY && s.IsTTY && !yes
	var in *answers
	if interactive && s.Stdin != nil {
		in = newAnswers(s.Stdin)
	}
	code := ExitOK
	var done []string        // stacks whose baseline is written (or left unchanged)
	var gathered []*stackRun // every stack read, for the AccessDenied hint
	for i, t := range sess.targets {
		// A stack and its nested stacks, each recorded to its own baseline.
		tree := sess.gatherTree(ctx, t, gatherMode{})
		gathered = append(gathered, tree...)
		if ctx.Err() != nil {
			fmt.Fprintln(s.Stderr, recordInterruptedLine(done, sess.targets[i:]))
			return ExitInterrupt
		}
		for _, run := range tree {
			c := recordOne(ctx, s, sess, run, in, strict)
			if c == ExitInterrupt {
				fmt.Fprintln(s.Stderr, recordInterruptedLine(done, sess.targets[i:]))
				return c
			}
			if c != ExitError {
				done = append(done, run.ref.Name)
			}
			if c != ExitOK && (code == ExitOK || c == ExitError) {
				code = c
			}
		}
	}
	// The same one line check prints: which permission was refused, to
	// whom, and what to grant.
	if hint := deniedHint(gathered); hint != "" {
		fmt.Fprintln(s.Stderr, "note: "+hint)
	}
	return code
}

// recordInterruptedLine says what an interrupted record wrote and what it
// did not: the baselines of done are written (or were already current),
// those of rest (from the stack in progress on) are as they were — a
// baseline is written whole or not at all.
func recordInterruptedLine(done []string, rest []target) string {
	line := fmt.Sprintf("realdrift record: interrupted — %d baselines written or current", len(done))
	if len(done) > 0 {
		line += " (" + listSome(done) + ")"
	}
	written := map[string]bool{}
	for _, n := range done {
		written[n] = true
	}
	var names []string
	for _, t := range rest {
		if !written[t.name] {
			names = append(names, t.name)
		}
	}
	if len(names) > 0 {
		line += "; not recorded, their baselines unchanged: " + listSome(names)
	}
	return line
}

// listSome joins names, at most ten of them.
func listSome(names []string) string {
	const most = 10
	out := strings.Join(names[:min(len(names), most)], ", ")
	if len(names) > most {
		out += fmt.Sprintf(" and %d more", len(names)-most)
	}
	return out
}

// recordOne records one gathered stack run and says how it went: ExitOK,
// ExitError (nothing written, or the write failed), ExitDrift (recorded
// with coverage gaps under --strict) or ExitInterrupt.
func recordOne(ctx context.Context, s IO, sess *session, run *stackRun, in *answers, strict bool) int {
	for _, n := range run.notes {
		fmt.Fprintf(s.Stderr, "note: %s: %s\n", run.ref.Name, n)
	}
	if run.err != nil {
		fmt.Fprintf(s.Stderr, "realdrift record: %s: %v (nothing written)\n", run.ref.Name, run.err)
		return ExitError
	}
	if err := recordRun(ctx, s, sess, run, in); err != nil {
		if ctx.Err() != nil {
			return ExitInterrupt
		}
		fmt.Fprintf(s.Stderr, "realdrift record: %s: %v\n", run.ref.Name, err)
		return ExitError
	}
	gaps := scan.NotRead(run.ref.Name, run.raw)
	if len(gaps) == 0 {
		return ExitOK
	}
	fmt.Fprintf(s.Stderr, "warning: %s: coverage incomplete — %d not read, their recorded entries kept unchanged:\n", run.ref.Name, len(gaps))
	for _, g := range gaps {
		fmt.Fprintf(s.Stderr, "  %s\n", g)
	}
	if strict {
		return ExitDrift
	}
	return ExitOK
}

// recordRun records one checked stack: the delta (live-only values new or
// changed since the last record) chosen on in, or all of it when in is nil;
// values outside the delta keep their recorded entries.
func recordRun(ctx context.Context, s IO, sess *session, run *stackRun, in *answers) error {
	delta := recordDelta(run.findings)
	chosen := map[entryKey]bool{}
	for _, f := range delta {
		chosen[keyOf(f)] = true
	}
	if in != nil && len(delta) > 0 {
		items := make([]string, len(delta))
		for i, f := range delta {
			items[i] = describe(run.ref.Name, f)
		}
		picked, err := chooseItems(ctx, s.Stdout, in, fmt.Sprintf("%s: %d new or changed live-only values since the last record:", run.ref.Name, len(delta)), items)
		if err != nil {
			return err
		}
		chosen = map[entryKey]bool{}
		for _, i := range picked {
			chosen[keyOf(delta[i])] = true
		}
	}
	return recordChosen(ctx, s, sess, run, delta, chosen)
}

// recordChosen records the chosen values of delta (run's new or changed
// live-only values); the rest of delta stays as the baseline had it.
func recordChosen(ctx context.Context, s IO, sess *session, run *stackRun, delta []drift.Finding, chosen map[entryKey]bool) error {
	inDelta := map[entryKey]bool{}
	for _, f := range delta {
		inDelta[keyOf(f)] = true
	}
	snap := baseline.Snapshot{
		Stack:        run.ref,
		Findings:     ignore.Apply(run.raw, run.ref, sess.rules),
		Resources:    run.result.Desired.BaselineResources(),
		Scanned:      run.result.ScannedParents(),
		TemplateHash: baseline.TemplateHash([]byte(run.result.Desired.TemplateBody)),
		CapturedAt:   time.Now(),
		// Values outside the delta (recorded and unchanged) are kept.
		Select: func(id, path string) bool {
			k := entryKey{id, path}
			return !inDelta[k] || chosen[k]
		},
	}
	where := sess.state.baselineWhere(run.ref)
	var written *baseline.Baseline
	if _, err := baseline.UpdateStored(ctx, sess.state.docs, run.ref, func(cur *baseline.Baseline) (*baseline.Baseline, error) {
		written = baseline.Record(cur, snap, baseline.Options{})
		if sameRecord(cur, written) && sess.state.ownsBaseline(run.ref) {
			return nil, errUnchanged
		}
		return written, nil
	}); errors.Is(err, errUnchanged) {
		fmt.Fprintf(s.Stdout, "unchanged %s: %d of %d new or changed values; the baseline holds %d values, left untouched → %s\n",
			run.ref, len(chosen), len(delta), len(written.Entries), where)
		return nil
	} else if err != nil {
		return sess.state.explain(err)
	}
	fmt.Fprintf(s.Stdout, "recorded %s: %d of %d new or changed values; the baseline holds %d values → %s\n",
		run.ref, len(chosen), len(delta), len(written.Entries), where)
	return nil
}

// errUnchanged stops a baseline update that would only move capturedAt.
var errUnchanged = errors.New("baseline unchanged")

// sameRecord reports whether next records what cur does, capturedAt
// aside: record then leaves the file untouched (no churn in git).
func sameRecord(cur, next *baseline.Baseline) bool {
	if cur == nil || next == nil {
		return false
	}
	n := *next
	n.CapturedAt = cur.CapturedAt
	a, errA := baseline.Encode(cur)
	b, errB := baseline.Encode(&n)
	return errA == nil && errB == nil && bytes.Equal(a, b)
}

// fileExists reports whether path is there (a baseline read from the
// legacy .cdkrd layer is still written to .realdrift; state.ownsBaseline).
func fileExists(path string) bool {
	_, err := os.Stat(path)
	return err == nil
}

// isCI reports CI mode: CI set to anything but false/0.
func isCI(s IO) bool {
	v := getenv(s, "CI")
	return v != "" && v != "false" && v != "0"
}

// entryKey is a recordable value: its baseline entry id and path.
type entryKey struct{ id, path string }

func keyOf(f drift.Finding) entryKey { return entryKey{baseline.EntryID(f), f.Path} }

// recordDelta lists the reconciled findings record can act on: live-only
// values that are unrecorded, changed, appeared or removed since the last
// record (ignored ones are never recorded).
func recordDelta(fs []drift.Finding) []drift.Finding {
	var out []drift.Finding
	for _, f := range fs {
		if f.Tier == drift.Undeclared || f.Tier == drift.Added {
			out = append(out, f)
		}
	}
	return out
}

// describe is a one-line description of a finding for a prompt.
func describe(stack string, f drift.Finding) string {
	s := fmt.Sprintf("%s (%s)", ignore.DisplayPath(stack, f), f.ResourceType)
	switch {
	case f.Tier == drift.Added:
		s += ": live-only resource " + f.PhysicalID
	case f.Actual == nil:
		s += ": gone (recorded " + short(f.Desired) + ")"
	case f.Desired != nil:
		s += ": recorded " + short(f.Desired) + " → live " + short(f.Actual)
	default:
		s += ": live " + short(f.Actual)
	}
	if f.Note != "" {
		s += " — " + f.Note
	}
	return s
}

// short renders a value as JSON cut to a prompt-friendly length. Secrets
// render as drift.Redacted.
func short(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		return "?"
	}
	const max = 60
	if utf8.RuneCount(b) <= max {
		return string(b)
	}
	return string([]rune(string(b))[:max]) + "…"
}
