package report

import (
	"fmt"
	"io"
	"strings"

	"github.com/realdrift/realdrift/internal/drift"
	"github.com/realdrift/realdrift/internal/ignore"
)

// CommentLimit is the longest GitHub pull-request comment, in characters
// (65,536); Markdown keeps its output within it by default.
const CommentLimit = 65536

// MarkdownOptions shape the Markdown report.
type MarkdownOptions struct {
	Options
	// Limit is the most bytes written (so also characters); 0 is
	// CommentLimit. What does not fit is left out whole (a finding's row, a
	// stack) and the last line counts what was left out.
	Limit int
	// Partial marks the report of a run that ended early: the heading
	// says INCOMPLETE and the line under it what was not checked.
	Partial Partial
}

// mdPart is one piece of the Markdown report: the output stops between
// two parts, never inside one.
type mdPart struct {
	text string
	// findings and stacks are what the part shows, counted when it is
	// left out.
	findings, stacks int
	// closer ends a block the part opened and a later part closes (a
	// table is ended by a blank line, <details> by </details>): written
	// when the output stops after this part.
	closer string
}

// Markdown writes the report of stacks for a pull-request comment or a CI
// job summary (GitHub-flavoured Markdown): a totals table; each stack
// that is not clean with its drift findings in a table (construct path,
// desired → actual, tier), its unread resources, and its informational
// tiers collapsed in <details>; the clean stacks by name. Values from AWS
// or a template are in code spans or escaped, so they cannot open HTML or
// break a table; secrets appear only as drift.Redacted.
func Markdown(w io.Writer, stacks []Stack, opt MarkdownOptions) error {
	limit := opt.Limit
	if limit <= 0 {
		limit = CommentLimit
	}
	parts := markdownParts(stacks, opt.Options, opt.Partial)
	var b strings.Builder
	for i, p := range parts {
		if b.Len()+len(p.text) <= limit-mdReserve {
			b.WriteString(p.text)
			continue
		}
		var findings, nstacks int
		for _, q := range parts[i:] {
			findings += q.findings
			nstacks += q.stacks
		}
		if i > 0 {
			b.WriteString(parts[i-1].closer)
		}
		fmt.Fprintf(&b, "\n_… truncated to GitHub's %d-character limit: %d more %s", limit, findings, plural(findings, "finding", "findings"))
		if nstacks > 0 {
			fmt.Fprintf(&b, " (%d more %s)", nstacks, plural(nstacks, "stack", "stacks"))
		}
		b.WriteString(" not shown; the JSON report (`--format json`) has every finding._\n")
		break
	}
	if _, err := io.WriteString(w, b.String()); err != nil {
		return fmt.Errorf("write report: %w", err)
	}
	return nil
}

// mdReserve is the room kept for a closer and the truncation line.
const mdReserve = 400

func markdownParts(stacks []Stack, opt Options, partial Partial) []mdPart {
	t := Total(stacks)
	worst := Clean
	for _, s := range stacks {
		if v := Summarize(s).Verdict; v > worst {
			worst = v
		}
	}
	head := fmt.Sprintf("## realdrift check: %s\n\n", mdVerdict(worst, t.Unread))
	if partial.Interrupted || len(partial.NotChecked) > 0 {
		// A partial run is never clean, whatever the stacks it checked say.
		if worst < Incomplete {
			head = "## realdrift check: INCOMPLETE\n\n"
		}
		head += "> **" + mdText(partialLine(partial)) + "**\n\n"
	}
	parts := []mdPart{{text: head}}
	parts = append(parts, mdPart{text: "| Stacks | Drift | Potential drift | Clean | Errors | Drift findings | Potential findings | Unread resources |\n" +
		"| ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |\n" +
		fmt.Sprintf("| %d | %d | %d | %d | %d | %d | %d | %d |\n", t.Stacks, t.Drift, t.PotentialDrift, t.Clean, t.Error, t.Drifted, t.Potential, t.Unread)})
	var clean []string
	for _, s := range stacks {
		sum := Summarize(s)
		if sum.Verdict == Clean && sum.Unread == 0 {
			name := code(s.Ref.String())
			if n := len(NothingToRead(s)); n > 0 {
				name += fmt.Sprintf(" (nothing to read: %d %s)", n, plural(n, "custom resource", "custom resources"))
			}
			clean = append(clean, name)
			continue
		}
		parts = append(parts, mdStack(s, sum, opt)...)
	}
	if len(clean) > 0 {
		parts = append(parts, mdPart{text: fmt.Sprintf("\n**Clean (%d):** %s\n", len(clean), strings.Join(clean, ", ")), stacks: len(clean)})
	}
	return parts
}

// mdVerdict is the heading's word for the run.
func mdVerdict(v Verdict, unread int) string {
	var s string
	switch v {
	case Error:
		s = "ERROR"
	case Drift:
		s = "DRIFT"
	case Incomplete:
		return fmt.Sprintf("INCOMPLETE (%d %s not read)", unread, plural(unread, "resource", "resources"))
	case PotentialDrift:
		s = "no confirmed drift, potential drift"
	case Clean:
		s = "CLEAN"
	default:
		s = v.String()
	}
	if unread > 0 && v != Error {
		s += " (coverage incomplete)"
	}
	return s
}

func mdStack(s Stack, sum Summary, opt Options) []mdPart {
	var head strings.Builder
	if s.Parent != "" {
		fmt.Fprintf(&head, "\n### Nested stack %s in %s (%s)\n\n", code(s.Ref.String()), code(s.Parent), code(s.ParentLogicalID))
	} else {
		fmt.Fprintf(&head, "\n### Stack %s\n\n", code(s.Ref.String()))
	}
	if s.Err != nil {
		fmt.Fprintf(&head, "**ERROR:** %s\n", mdText(oneLine(s.Err.Error())))
		return []mdPart{{text: head.String(), stacks: 1}}
	}
	plain, _ := verdictLine(sum, style{})
	fmt.Fprintf(&head, "**%s**\n", mdText(strings.TrimPrefix(plain, "result: ")))
	parts := []mdPart{{text: head.String(), stacks: 1}}
	findings := sorted(s.Ref.Name, s.Findings)
	var rows []drift.Finding
	for _, sec := range sections() {
		for _, f := range findings {
			if sec.take(f) {
				rows = append(rows, f)
			}
		}
	}
	if len(rows) > 0 {
		parts = append(parts, mdPart{text: "\n| Resource | Type | Desired → actual | Tier |\n| --- | --- | --- | --- |\n"})
		for _, f := range rows {
			parts = append(parts, mdPart{text: mdRow(s.Ref.Name, f, opt), findings: 1})
		}
	}
	var unread []drift.Finding
	for _, f := range findings {
		if f.Tier == drift.Skipped {
			unread = append(unread, f)
		}
	}
	if len(unread) > 0 {
		parts = append(parts, mdPart{text: fmt.Sprintf("\n**Coverage incomplete — %d %s not read** (not clean: `--fail` exits 3 on it, `--strict` 1):\n\n", sum.Unread, plural(sum.Unread, "resource", "resources"))})
		for _, f := range unread {
			line := "- " + code(ignore.DisplayPath(s.Ref.Name, f)) + " (" + mdText(f.ResourceType) + ")"
			if r := why(f); r != "" {
				line += ": " + mdText(r)
			}
			parts = append(parts, mdPart{text: line + "\n", findings: 1})
		}
	}
	for _, t := range infoTiers() {
		if t == drift.Skipped {
			continue // listed above as unread
		}
		var items []drift.Finding
		for _, f := range findings {
			if f.Tier == t {
				items = append(items, f)
			}
		}
		if len(items) == 0 {
			continue
		}
		parts = append(parts, mdPart{text: fmt.Sprintf("\n<details><summary>%s</summary>\n\n", mdText(tierCount(t, items))), closer: "\n</details>\n"})
		for _, f := range items {
			line := "- " + code(ignore.DisplayPath(s.Ref.Name, f)) + " (" + mdText(f.ResourceType) + ")"
			if f.Actual != nil {
				line += ": " + code(value(f.Actual, opt))
			}
			if r := why(f); r != "" {
				line += " — " + mdText(r)
			}
			parts = append(parts, mdPart{text: line + "\n", findings: 1, closer: "\n</details>\n"})
		}
		parts[len(parts)-1].text += "\n</details>\n"
		parts[len(parts)-1].closer = ""
	}
	return parts
}

// mdRow is a drift finding's table row.
func mdRow(stack string, f drift.Finding, opt Options) string {
	var what string
	switch {
	case f.Tier == drift.Deleted:
		what = "gone from AWS"
	case f.Tier == drift.Added && f.Desired == nil && f.Path == "":
		what = "live-only resource " + code(oneLine(f.PhysicalID))
	case f.Desired != nil || f.Tier == drift.Declared:
		what = code(value(f.Desired, opt)) + " → " + code(value(f.Actual, opt))
	default:
		what = "(not recorded) → " + code(value(f.Actual, opt))
	}
	if f.Note != "" {
		what += " — " + mdText(oneLine(f.Note))
	}
	if f.ChangedBy != nil {
		what += "<br>" + mdText(oneLine(f.ChangedBy.Line()))
	}
	tier := f.Tier.String()
	if potential(f) {
		tier = "potential (" + tier + ")"
	}
	return "| " + code(oneLine(ignore.DisplayPath(stack, f))) + " | " + mdText(f.ResourceType) + " | " + what + " | " + tier + " |\n"
}

// code puts s in a code span that survives a table cell: a fence longer
// than any backtick run inside, and | escaped (GitHub splits cells on
// | before it reads code spans).
func code(s string) string {
	s = oneLine(s)
	run, longest := 0, 0
	for _, r := range s {
		if r == '`' {
			run++
			if run > longest {
				longest = run
			}
		} else {
			run = 0
		}
	}
	fence := strings.Repeat("`", longest+1)
	pad := ""
	if longest > 0 || strings.HasPrefix(s, " ") {
		pad = " "
	}
	return fence + pad + strings.ReplaceAll(s, "|", `\|`) + pad + fence
}

// mdText escapes s as Markdown text: the punctuation that starts
// emphasis, links, code, HTML or entities, and the cell separator.
func mdText(s string) string {
	var b strings.Builder
	for _, r := range oneLine(s) {
		if strings.ContainsRune("\\`*_[]<>|~&", r) {
			b.WriteByte('\\')
		}
		b.WriteRune(r)
	}
	return b.String()
}
