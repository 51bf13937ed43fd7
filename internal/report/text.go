package report

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"sort"
	"strings"
	"unicode/utf8"

	"github.com/realdrift/realdrift/internal/drift"
	"github.com/realdrift/realdrift/internal/ignore"
)

// Options shape the text report.
type Options struct {
	// Color turns on ANSI colour; set it only for a terminal without
	// NO_COLOR.
	Color bool
	// Verbose lists informational findings and shows values in full.
	Verbose bool
	// Quiet leaves out the info: footer (drift, coverage and the verdict
	// only).
	Quiet bool
}

// maxValue is the longest value shown without Verbose, in runes.
const maxValue = 80

// section is one drift section of the text report.
type section struct {
	title, note string
	style       func(style, string) string
	take        func(drift.Finding) bool
}

func sections() []section {
	return []section{
		{"Deleted", "in the template, gone from AWS — a deploy of the unchanged template does not recreate it: remove it from the template and deploy, then add it back and deploy (or import a replacement)", style.red,
			func(f drift.Finding) bool { return f.Tier == drift.Deleted }},
		{"CFn-Declared Drift", "the live value differs from the deployed template", style.red,
			func(f drift.Finding) bool { return f.Tier == drift.Declared }},
		{"CFn-Undeclared Drift", "live-only state that differs from your realdrift baseline", style.yellow,
			func(f drift.Finding) bool { return f.Tier == drift.Undeclared && !f.Unrecorded }},
		{"Added Resources", "live resources the template does not have, not as your baseline recorded them", style.yellow,
			func(f drift.Finding) bool { return f.Tier == drift.Added && !f.Unrecorded }},
		{"Potential Drift", "live-only and not yet in your realdrift baseline, so realdrift can't tell whether it's intended or an out-of-band change — record to accept it, or revert to remove it", style.yellow,
			potential},
	}
}

// infoTiers are folded into the info: footer, in report order.
func infoTiers() []drift.Tier {
	var out []drift.Tier
	for _, t := range drift.Tiers() {
		if !t.IsDrift() {
			out = append(out, t)
		}
	}
	return out
}

// Text writes the human report of stacks, one blank line between stacks.
func Text(w io.Writer, stacks []Stack, opt Options) error {
	var buf bytes.Buffer
	st := style{on: opt.Color}
	for i, s := range stacks {
		if i > 0 {
			buf.WriteByte('\n')
		}
		writeStack(&buf, s, opt, st)
	}
	if _, err := w.Write(buf.Bytes()); err != nil {
		return fmt.Errorf("write report: %w", err)
	}
	return nil
}

func writeStack(b *bytes.Buffer, s Stack, opt Options, st style) {
	if s.Parent != "" {
		fmt.Fprintf(b, "%s %s in %s (%s)\n", st.bold("Nested stack:"), oneLine(s.Ref.String()), oneLine(s.Parent), oneLine(s.ParentLogicalID))
	} else {
		fmt.Fprintf(b, "%s %s\n", st.bold("Stack"), oneLine(s.Ref.String()))
	}
	sum := Summarize(s)
	if s.Err != nil {
		fmt.Fprintf(b, "error: %s\n", oneLine(s.Err.Error()))
		fmt.Fprintf(b, "%s %s\n", st.bold("result:"), st.red(st.bold("ERROR")))
		return
	}
	findings := sorted(s.Ref.Name, s.Findings)
	printed := 0
	for _, sec := range sections() {
		var in []drift.Finding
		for _, f := range findings {
			if sec.take(f) {
				in = append(in, f)
			}
		}
		if len(in) == 0 {
			continue
		}
		if printed > 0 {
			b.WriteByte('\n')
		}
		printed++
		fmt.Fprintf(b, "%s %s\n", sec.style(st, fmt.Sprintf("[%s: %d]", sec.title, len(in))), sec.note)
		for _, f := range in {
			writeFinding(b, s.Ref.Name, f, opt)
		}
	}
	if printed > 0 && (sum.Unread > 0 || len(NothingToRead(s)) > 0 || (!opt.Quiet && hasInfo(findings))) {
		b.WriteByte('\n')
	}
	if !opt.Quiet {
		writeInfo(b, s.Ref.Name, findings, opt)
	}
	if nothing := NothingToRead(s); len(nothing) > 0 {
		names := make([]string, len(nothing))
		for i, f := range nothing {
			names[i] = oneLine(ignore.DisplayPath(s.Ref.Name, f)) + " (" + f.ResourceType + ")"
		}
		fmt.Fprintf(b, "nothing to read: %s — no live resource of %s own, not counted as unread\n", strings.Join(names, ", "), plural(len(nothing), "its", "their"))
	}
	if sum.Unread > 0 {
		fmt.Fprintf(b, "coverage: incomplete — %d of %d %s not read, so the stack is not clean (skipped says why; check --fail exits 3, --strict 1)\n", sum.Unread, sum.Resources, plural(sum.Resources, "resource", "resources"))
	}
	plain, styled := verdictLine(sum, st)
	if printed == 0 {
		fmt.Fprintln(b, styled)
		return
	}
	rule := strings.Repeat("─", utf8.RuneCountInString(plain))
	fmt.Fprintf(b, "\n%s\n%s\n%s\n", rule, styled, rule)
}

func writeFinding(b *bytes.Buffer, stack string, f drift.Finding, opt Options) {
	id := oneLine(ignore.DisplayPath(stack, f))
	what := findingWhat(f, opt, "gone from AWS")
	line := fmt.Sprintf("  %s (%s): %s", id, f.ResourceType, what)
	if f.Note != "" {
		line += " — " + oneLine(f.Note)
	}
	fmt.Fprintln(b, line)
	if f.ChangedBy != nil {
		fmt.Fprintln(b, "    "+oneLine(changedByText(*f.ChangedBy)))
	}
}

// changedByText is a finding's attribution as the text and markdown
// reports show it: "changed by alice (console) 2026-12-05 09:14 UTC —
// SetQueueAttributes by ARN, from IP, event ID", or why it is unknown.
func changedByText(c drift.ChangedBy) string {
	if d := c.Detail(); d != "" {
		return c.Line() + " — " + d
	}
	return c.Line()
}

func hasInfo(findings []drift.Finding) bool {
	for _, f := range findings {
		if !f.Tier.IsDrift() {
			return true
		}
	}
	return false
}

// writeInfo writes the info: footer of the informational tiers.
func writeInfo(b *bytes.Buffer, stack string, findings []drift.Finding, opt Options) {
	type tierInfo struct {
		tier  drift.Tier
		items []drift.Finding
	}
	var tiers []tierInfo
	for _, t := range infoTiers() {
		var items []drift.Finding
		for _, f := range findings {
			if f.Tier == t {
				items = append(items, f)
			}
		}
		if len(items) > 0 {
			tiers = append(tiers, tierInfo{t, items})
		}
	}
	switch {
	case len(tiers) == 0:
		return
	case len(tiers) == 1 && !opt.Verbose:
		fmt.Fprintf(b, "info: %s\n", tierCount(tiers[0].tier, tiers[0].items))
		return
	case opt.Verbose:
		fmt.Fprintln(b, "info:")
	default:
		fmt.Fprintln(b, "info: (--verbose lists them)")
	}
	for _, ti := range tiers {
		fmt.Fprintf(b, "  • %s\n", tierCount(ti.tier, ti.items))
		if !opt.Verbose {
			continue
		}
		for _, f := range ti.items {
			line := "      " + oneLine(ignore.DisplayPath(stack, f)) + " (" + f.ResourceType + ")"
			if f.Actual != nil {
				line += ": " + value(f.Actual, opt)
			}
			if r := why(f); r != "" {
				line += " — " + r
			}
			fmt.Fprintln(b, line)
		}
	}
}

// tierCount renders "skipped=24 (custom resource 12, throttled 12)".
func tierCount(t drift.Tier, items []drift.Finding) string {
	counts := map[string]int{}
	for _, f := range items {
		if r := why(f); r != "" {
			counts[r]++
		}
	}
	s := fmt.Sprintf("%s=%d", t, len(items))
	if len(counts) == 0 {
		return s
	}
	reasons := make([]string, 0, len(counts))
	for r := range counts {
		reasons = append(reasons, r)
	}
	sort.Slice(reasons, func(i, j int) bool {
		if counts[reasons[i]] != counts[reasons[j]] {
			return counts[reasons[i]] > counts[reasons[j]]
		}
		return reasons[i] < reasons[j]
	})
	parts := make([]string, len(reasons))
	for i, r := range reasons {
		parts[i] = fmt.Sprintf("%s %d", r, counts[r])
	}
	return s + " (" + strings.Join(parts, ", ") + ")"
}

// why is a finding's reason for the breakdown: Reason, else Note.
func why(f drift.Finding) string {
	if f.Reason != "" {
		return oneLine(f.Reason)
	}
	return oneLine(f.Note)
}

// verdictLine returns the result: line without and with colour.
func verdictLine(sum Summary, st style) (plain, styled string) {
	var counts []string
	for _, t := range drift.Tiers() {
		if n := sum.Confirmed[t]; n > 0 {
			counts = append(counts, fmt.Sprintf("%s=%d", t, n))
		}
	}
	drifts := fmt.Sprintf("%d %s (%s)", sum.Drifted, plural(sum.Drifted, "drift", "drifts"), strings.Join(counts, ", "))
	pot := fmt.Sprintf("%d potential drift", sum.Potential)
	var body, colored string
	gap := ""
	if g := sum.Judged.NotRead(); g != "" {
		gap = " — " + g
	}
	switch {
	case sum.Verdict == Incomplete:
		inc := "INCOMPLETE (" + sum.Judged.NotRead() + ")"
		body, colored = inc, st.yellow(st.bold(inc))
		if sum.Potential > 0 {
			body += " — " + pot
			colored += " — " + st.yellow(pot)
		}
		return "result: " + body, st.bold("result:") + " " + colored
	case sum.Drifted > 0 && sum.Potential > 0:
		n := sum.Drifted + sum.Potential
		body = fmt.Sprintf("%d findings — %s + %s", n, drifts, pot)
		colored = fmt.Sprintf("%d findings — %s + %s", n, st.red(st.bold(drifts)), st.yellow(pot))
	case sum.Drifted > 0:
		body, colored = drifts, st.red(st.bold(drifts))
	case sum.Potential > 0:
		body = "no confirmed drift — " + pot
		colored = st.green(st.bold("no confirmed drift")) + " — " + st.yellow(pot)
	case sum.Verdict == Clean:
		body, colored = "CLEAN", st.green(st.bold("CLEAN"))
	default:
		// Only drift.Judge says Clean; anything else is not claimed.
		body, colored = sum.Judged.String(), st.yellow(st.bold(sum.Judged.String()))
	}
	return "result: " + body + gap, st.bold("result:") + " " + colored + st.yellow(gap)
}

// value renders a JSON value for a finding line.
func value(v any, opt Options) string {
	if v == nil {
		return "(absent)"
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return "(unprintable)"
	}
	s := strings.TrimRight(buf.String(), "\n")
	if !opt.Verbose && utf8.RuneCountInString(s) > maxValue {
		r := []rune(s)
		s = string(r[:maxValue-1]) + "…"
	}
	return s
}

// oneLine folds whitespace and replaces control characters, so a value
// from AWS or a template cannot break the layout or drive the terminal.
func oneLine(s string) string {
	s = strings.Map(func(r rune) rune {
		if r < 0x20 && r != '\t' && r != '\n' || r == 0x7f || (r >= 0x80 && r < 0xa0) {
			return '?'
		}
		return r
	}, s)
	return strings.Join(strings.Fields(s), " ")
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// style applies ANSI colour when on.
type style struct{ on bool }

func (s style) wrap(code, text string) string {
	if !s.on {
		return text
	}
	return "\x1b[" + code + "m" + text + "\x1b[0m"
}

func (s style) bold(t string) string   { return s.wrap("1", t) }
func (s style) red(t string) string    { return s.wrap("31", t) }
func (s style) green(t string) string  { return s.wrap("32", t) }
func (s style) yellow(t string) string { return s.wrap("33", t) }

// findingWhat is what a finding says of its value: the change from the
// template or the record, the live value, or gone (in the words given).
func findingWhat(f drift.Finding, opt Options, gone string) string {
	switch {
	case f.Tier == drift.Deleted:
		return gone
	case f.Tier == drift.Added && f.Desired == nil:
		if what := AddedWhat(f); what != "" {
			return "live-only resource " + oneLine(f.PhysicalID) + " (" + what + ")"
		}
		return "live-only resource " + oneLine(f.PhysicalID)
	case f.Tier == drift.Declared:
		return change("template", f.Desired, f.Actual, opt)
	case f.Desired != nil:
		return change("recorded", f.Desired, f.Actual, opt)
	default:
		return "live " + value(f.Actual, opt)
	}
}
