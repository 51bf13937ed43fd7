package cli

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"unicode"

	"github.com/realdrift/realdrift/internal/diff"
	"github.com/realdrift/realdrift/internal/drift"
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

// writeDiff writes one stack's diff (and its nested stacks') like cdk diff.
func writeDiff(w io.Writer, sd *stackDiff, color bool) {
	p := painter(color)
	writeStack(w, sd, p, "Stack "+clean(sd.Stack))
}

func writeStack(w io.Writer, sd *stackDiff, p painter, header string) {
	fmt.Fprintln(w, p.paint(ansiBold, header))
	if sd.err != nil {
		fmt.Fprintf(w, "%s %s\n", p.paint(ansiRed, "error:"), clean(sd.err.Error()))
	}
	if len(sd.Changes) == 0 && len(sd.Outputs) == 0 && sd.err == nil {
		fmt.Fprintln(w, "There were no differences")
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
	if len(sd.unknown) > 0 {
		fmt.Fprintf(w, "%s\n", p.paint(ansiDim, "Undecided until the deploy (not counted): "+clean(strings.Join(sd.unknown, ", "))))
	}
	if sd.result != nil && sd.result.HasChanges() {
		c, u, d := sd.result.Counts()
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
		fmt.Fprintf(w, "\n%d to create, %d to update, %d to delete\n", c, u, d)
		if len(sd.Outputs) > 0 {
			fmt.Fprintf(w, "%d output(s) to add, %d to change, %d to remove\n", add, mod, rem)
		}
	}
	for _, ch := range sd.Children {
		fmt.Fprintln(w)
		writeStack(w, ch, p, "Nested stack: "+clean(ch.Stack))
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
	case c.Action == diff.Replace:
		line += " " + p.paint(ansiRed, "replace")
	case c.Replacement == diff.Conditional:
		line += " " + p.paint(ansiYellow, "may be replaced")
	}
	if c.Stateful && (c.Action == diff.Replace || c.Action == diff.Delete) {
		if c.Retained {
			line += " " + p.paint(ansiDim, "[stateful, retained]")
		} else {
			line += " " + p.paint(ansiRed, "[stateful: its data goes with it]")
		}
	}
	if c.ConditionUnknown {
		line += " " + p.paint(ansiDim, "[condition unknown]")
	}
	fmt.Fprintln(w, line)
	n := len(c.Properties) + len(c.Drift)
	i := 0
	branch := func() string {
		i++
		if i == n {
			return " └─"
		}
		return " ├─"
	}
	for _, pc := range c.Properties {
		s := fmt.Sprintf("%s [~] %s", branch(), clean(pc.Path))
		switch {
		case pc.OldAbsent:
			s += ": (absent) → " + renderValue(pc.New)
		case pc.NewAbsent:
			s += ": " + renderValue(pc.Old) + " → (removed)"
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
		fmt.Fprintln(w, s)
	}
	for _, d := range c.Drift {
		fmt.Fprintf(w, "%s %s %s\n", branch(), p.paint(ansiYellow, "drift:"), clean(d))
	}
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
	if o.Action != diff.OutputAdd {
		old := renderValue(o.Old)
		if o.OldRedacted {
			old = "(withheld)"
		}
		fmt.Fprintf(w, "      old: %s\n", old)
	}
	if o.Action != diff.OutputRemove {
		fmt.Fprintf(w, "      new: %s\n", renderValue(o.New))
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
