package cli

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"unicode"

	"github.com/realdrift/realdrift/internal/diff"
	"github.com/realdrift/realdrift/internal/drift"
	"github.com/realdrift/realdrift/internal/valuediff"
)

// ANSI colours of the diff text (only on a terminal, never with NO_COLOR).
const (
	ansiGreen  = "\x1b[32m"
	ansiYellow = "\x1b[33m"
	ansiRed    = "\x1b[31m"
	ansiBold   = "\x1b[1m"
	ansiDim    = "\x1b[2m"
	ansiReset  = "\x1b[0m"
)

type painter bool

func (p painter) paint(code, s string) string {
	if !p {
		return s
	}
	return code + s + ansiReset
}

// writeDiff writes one stack's diff (and its nested stacks') like cdk diff;
// securityOnly writes the security view alone.
func writeDiff(w io.Writer, sd *stackDiff, color, securityOnly bool) {
	p := painter(color)
	writeStack(w, sd, p, "Stack "+clean(sd.Stack), securityOnly)
}

func writeStack(w io.Writer, sd *stackDiff, p painter, header string, securityOnly bool) {
	fmt.Fprintln(w, p.paint(ansiBold, header))
	if sd.err != nil {
		fmt.Fprintf(w, "%s %s\n", p.paint(ansiRed, "error:"), clean(sd.err.Error()))
	}
	if securityOnly {
		if sd.Security == nil || sd.Security.Empty() {
			if sd.err == nil {
				fmt.Fprintln(w, "There were no security-related changes")
			}
		} else {
			writeSecurity(w, sd.Security, p)
		}
	} else {
		writeResourcesAndOutputs(w, sd, p)
	}
	for _, ch := range sd.Children {
		fmt.Fprintln(w)
		writeStack(w, ch, p, "Nested stack: "+clean(ch.Stack), securityOnly)
	}
}

func writeResourcesAndOutputs(w io.Writer, sd *stackDiff, p painter) {
	if len(sd.Changes) == 0 && len(sd.Outputs) == 0 && sd.err == nil {
		fmt.Fprintln(w, "There were no differences")
	}
	if sd.Security != nil && !sd.Security.Empty() {
		writeSecurity(w, sd.Security, p)
		fmt.Fprintln(w)
	}
	if len(sd.Changes) > 0 {
		fmt.Fprintln(w, "Resources")
		for _, c := range sd.Changes {
			writeChange(w, c, p)
		}
	}
	if len(sd.Outputs) > 0 {
		fmt.Fprintln(w, "Outputs")
		for _, o := range sd.Outputs {
			writeOutput(w, o, p)
		}
	}
	if len(sd.Undecided) > 0 || len(sd.UndecidedOutputs) > 0 {
		fmt.Fprintln(w, p.paint(ansiDim, "Undecided until the deploy (not counted as changes)"))
		for _, u := range sd.Undecided {
			fmt.Fprintf(w, "[?] %s\n", clean(u))
		}
		for _, u := range sd.UndecidedOutputs {
			name := clean(u.Name)
			if u.Export {
				name += " [export]"
			}
			fmt.Fprintf(w, "[?] Output %s: %s\n", name, clean(u.Reason))
			writeImporters(w, p, u.Importers, u.ImportersUnknown, "may change")
		}
	}
	if sd.result != nil && sd.result.HasChanges() {
		t := sd.result.Counts()
		line := fmt.Sprintf("%d to create, %d to update, %d to delete", t.Create, t.Update, t.Delete)
		if t.Orphan > 0 {
			line += fmt.Sprintf(", %d to orphan (retained)", t.Orphan)
		}
		if t.AttributesOnly > 0 {
			line += fmt.Sprintf(", %d with attribute changes only", t.AttributesOnly)
		}
		fmt.Fprintf(w, "\n%s\n", line)
		if len(sd.Outputs) > 0 {
			add, mod, rem := 0, 0, 0
			for _, o := range sd.Outputs {
				switch o.Action {
				case diff.OutputAdd:
					add++
				case diff.OutputModify:
					mod++
				case diff.OutputRemove:
					rem++
				}
			}
			fmt.Fprintf(w, "%d output(s) to add, %d to change, %d to remove\n", add, mod, rem)
		}
	}
}

func writeChange(w io.Writer, c changeView, p painter) {
	var mark, code string
	switch c.Action {
	case diff.Create:
		mark, code = "[+]", ansiGreen
	case diff.Delete:
		mark, code = "[-]", ansiRed
	case diff.Replace:
		mark, code = "[~]", ansiRed
	default:
		mark, code = "[~]", ansiYellow
	}
	line := fmt.Sprintf("%s %s %s", p.paint(code, mark), clean(c.Type), clean(c.LogicalID))
	if c.PhysicalID != "" && c.Action != diff.Create {
		line += " " + p.paint(ansiDim, clean(c.PhysicalID))
	}
	switch {
	case c.Orphaned():
		line += " " + p.paint(ansiYellow, "orphan")
	case c.Action == diff.Delete:
		line += " " + p.paint(ansiRed, "destroy")
	case c.Action == diff.Replace:
		line += " " + p.paint(ansiRed, "replace")
	case c.Replacement == diff.Conditional:
		line += " " + p.paint(ansiYellow, "may be replaced")
	case c.AttributesOnly:
		line += " " + p.paint(ansiDim, "(attributes only: the resource itself is not updated)")
	}
	if c.Stateful && (c.Action == diff.Replace || c.Action == diff.Delete || c.Replacement == diff.Conditional) {
		if c.Retained {
			line += " " + p.paint(ansiDim, "[stateful, retained]")
		} else {
			line += " " + p.paint(ansiRed, "[stateful]")
		}
	}
	if c.ConditionUnknown {
		line += " " + p.paint(ansiDim, "[condition unknown]")
	}
	fmt.Fprintln(w, line)
	n := len(c.Properties) + len(c.Drift)
	i := 0
	branch := func() (string, string) {
		i++
		if i == n {
			return " └─", "    "
		}
		return " ├─", " │  "
	}
	for _, pc := range c.Properties {
		b, cont := branch()
		s := fmt.Sprintf("%s [~] %s", b, clean(pc.Path))
		var block []string
		switch {
		case pc.OldAbsent:
			s += ": (absent) → " + renderValue(pc.New)
		case pc.NewAbsent:
			s += ": " + renderValue(pc.Old) + " → (removed)"
		case longChange(pc.Old, pc.New):
			block = valueLines(pc.Old, pc.New)
		default:
			s += ": " + renderValue(pc.Old) + " → " + renderValue(pc.New)
		}
		if pc.Propagated != diff.Direct {
			tag := "[" + pc.Propagated.String()
			if pc.Via != "" {
				tag += " from " + clean(pc.Via)
			}
			s += " " + p.paint(ansiDim, tag+"]")
		} else if pc.Via != "" {
			s += " " + p.paint(ansiDim, "[reads new "+clean(pc.Via)+"]")
		}
		switch pc.Replacement {
		case diff.Always:
			s += " " + p.paint(ansiRed, "(requires replacement)")
		case diff.Conditional:
			s += " " + p.paint(ansiYellow, "(may require replacement)")
		}
		if pc.Attribute && !c.AttributesOnly {
			s += " " + p.paint(ansiDim, "(attribute)")
		}
		fmt.Fprintln(w, s)
		for _, l := range block {
			fmt.Fprintf(w, "%s    %s\n", cont, l)
		}
	}
	for _, d := range c.Drift {
		b, _ := branch()
		fmt.Fprintf(w, "%s %s %s\n", b, p.paint(ansiYellow, "drift:"), clean(d))
	}
}

// longChange reports a change whose values are too long for one line: it
// is shown as the lines that differ (package valuediff).
func longChange(old, new any) bool {
	if hasSecret(old) || hasSecret(new) {
		return false
	}
	return valuediff.Long(old, new, maxValueLen/2)
}

// valueLines are the differing lines of a long change, control characters
// stripped; a value too long to align falls back to both renderings.
func valueLines(old, new any) []string {
	ls, ok := valuediff.Lines(old, new)
	if !ok {
		return []string{"[-] " + renderValue(old), "[+] " + renderValue(new)}
	}
	out := make([]string, len(ls))
	for i, l := range ls {
		out[i] = clean(l.String())
	}
	return out
}

// hasSecret reports a value holding a secret or an unknown anywhere: it
// is rendered by renderValue alone, which redacts.
func hasSecret(v any) bool {
	switch t := v.(type) {
	case drift.Secret, drift.Unknown:
		return true
	case map[string]any:
		for _, e := range t {
			if hasSecret(e) {
				return true
			}
		}
	case []any:
		for _, e := range t {
			if hasSecret(e) {
				return true
			}
		}
	}
	return false
}

func writeOutput(w io.Writer, o diff.OutputChange, p painter) {
	var mark, code string
	switch o.Action {
	case diff.OutputAdd:
		mark, code = "[+]", ansiGreen
	case diff.OutputRemove:
		mark, code = "[-]", ansiRed
	default:
		mark, code = "[~]", ansiYellow
	}
	name := clean(o.Name)
	if o.Export {
		name += " [export]"
	}
	fmt.Fprintf(w, "%s %s\n", p.paint(code, mark), name)
	valueChanged := o.Action != diff.OutputModify || o.Old != nil || o.New != nil || o.OldRedacted
	if valueChanged && o.Action != diff.OutputAdd {
		old := renderValue(o.Old)
		if o.OldRedacted {
			old = "(withheld)"
		}
		fmt.Fprintf(w, "      old: %s\n", old)
	}
	if valueChanged && o.Action != diff.OutputRemove {
		nv := renderValue(o.New)
		if o.Via != "" {
			nv += " " + p.paint(ansiDim, "[reads new "+clean(o.Via)+"]")
		}
		fmt.Fprintf(w, "      new: %s\n", nv)
	}
	if o.OldDescription != nil || o.NewDescription != nil {
		fmt.Fprintf(w, "      description: %s → %s\n", renderValue(o.OldDescription), renderValue(o.NewDescription))
	}
	verb := "changes"
	if o.Action == diff.OutputRemove {
		verb = "removes"
	}
	writeImporters(w, p, o.Importers, o.ImportersUnknown, verb)
}

// writeImporters says that CloudFormation will refuse the deploy: an
// export other stacks import cannot change or go.
func writeImporters(w io.Writer, p painter, importers []string, unknown, verb string) {
	if len(importers) > 0 {
		fmt.Fprintf(w, "      %s the deploy %s an export that %s import%s: CloudFormation refuses it (an export in use cannot change or be removed)\n",
			p.paint(ansiRed, "error:"), verb, clean(strings.Join(importers, ", ")), map[bool]string{true: "s", false: ""}[len(importers) == 1])
	}
	if unknown != "" {
		fmt.Fprintf(w, "      %s %s\n", p.paint(ansiYellow, "importers not listed:"), clean(unknown))
	}
}

// maxValueLen bounds one rendered value.
const maxValueLen = 160

// renderValue renders a resolved value for the text diff: secrets
// redacted, unknowns as what they are, control and bidi characters
// stripped, long values cut.
func renderValue(v any) string {
	var s string
	switch t := v.(type) {
	case nil:
		return "(absent)"
	case drift.Unknown:
		if t.Secret {
			return drift.Redacted
		}
		if t.Reason == "known after deploy" {
			return "(known after deploy)"
		}
		return "(unresolved)"
	case string:
		b, _ := json.Marshal(t)
		s = string(b)
	default:
		b, err := json.Marshal(t)
		if err != nil {
			return "(unprintable)"
		}
		s = string(b)
	}
	s = clean(s)
	if r := []rune(s); len(r) > maxValueLen {
		s = string(r[:maxValueLen]) + "…"
	}
	return s
}

// clean strips control and bidi characters (names and values come from
// templates and resolved values, not from a validator).
func clean(s string) string {
	return strings.Map(func(r rune) rune {
		switch {
		case r == '\t':
			return ' '
		case unicode.IsControl(r), unicode.Is(unicode.Bidi_Control, r), r == '\u200b', r == '\u200e', r == '\u200f', r == '\u2028', r == '\u2029', r == '\ufeff':
			return -1
		}
		return r
	}, s)
}
