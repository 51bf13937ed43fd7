package cli

import (
	"fmt"
	"io"
	"strings"
	"unicode/utf8"

	"github.com/realdrift/realdrift/internal/secdiff"
)

// writeSecurity writes the security view as cdk diff does: a table each
// of IAM statement, managed-policy and security-group rule changes, a row
// per added (+) or removed (-) grant or rule.
func writeSecurity(w io.Writer, r *secdiff.Result, p painter) {
	first := true
	section := func(title string) {
		if !first {
			fmt.Fprintln(w)
		}
		first = false
		fmt.Fprintln(w, title)
	}
	if len(r.Statements) > 0 {
		section("IAM Statement Changes")
		rows := [][]string{}
		for _, s := range r.Statements {
			rows = append(rows, []string{s.Op.String(), strings.Join(s.Resources, "\n"), s.Effect, strings.Join(s.Actions, "\n"), strings.Join(s.Principals, "\n"), s.Condition})
		}
		writeTable(w, p, []string{"", "Resource", "Effect", "Action", "Principal", "Condition"}, rows)
	}
	if len(r.ManagedPolicies) > 0 {
		section("IAM Policy Changes")
		rows := [][]string{}
		for _, a := range r.ManagedPolicies {
			rows = append(rows, []string{a.Op.String(), a.Resource, a.ManagedPolicy})
		}
		writeTable(w, p, []string{"", "Resource", "Managed Policy ARN"}, rows)
	}
	if len(r.Rules) > 0 {
		section("Security Group Changes")
		rows := [][]string{}
		for _, x := range r.Rules {
			rows = append(rows, []string{x.Op.String(), x.Group, x.Direction, x.Protocol, x.Peer})
		}
		writeTable(w, p, []string{"", "Group", "Dir", "Protocol", "Peer"}, rows)
	}
}

// writeTable draws a box table; a cell may hold several lines. The first
// column is the row's + or -, painted green or red.
func writeTable(w io.Writer, p painter, head []string, rows [][]string) {
	width := make([]int, len(head))
	cells := func(row []string) [][]string {
		out := make([][]string, len(row))
		for i, c := range row {
			out[i] = strings.Split(clean2(c), "\n")
		}
		return out
	}
	all := append([][]string{head}, rows...)
	for _, row := range all {
		for i, c := range cells(row) {
			for _, l := range c {
				width[i] = max(width[i], utf8.RuneCountInString(l))
			}
		}
	}
	rule := func(l, m, r string) {
		parts := make([]string, len(width))
		for i, n := range width {
			parts[i] = strings.Repeat("─", n+2)
		}
		fmt.Fprintln(w, l+strings.Join(parts, m)+r)
	}
	line := func(row []string) {
		cs := cells(row)
		height := 1
		for _, c := range cs {
			height = max(height, len(c))
		}
		for k := 0; k < height; k++ {
			var b strings.Builder
			b.WriteString("│")
			for i, c := range cs {
				text := ""
				if k < len(c) {
					text = c[k]
				}
				pad := strings.Repeat(" ", width[i]-utf8.RuneCountInString(text))
				if i == 0 && text == "+" {
					text = p.paint(ansiGreen, text)
				} else if i == 0 && text == "-" {
					text = p.paint(ansiRed, text)
				}
				b.WriteString(" " + text + pad + " │")
			}
			fmt.Fprintln(w, b.String())
		}
	}
	rule("┌", "┬", "┐")
	line(head)
	for _, row := range rows {
		rule("├", "┼", "┤")
		line(row)
	}
	rule("└", "┴", "┘")
}

// clean2 is clean for a table cell: line breaks are kept (they split the
// cell), every other control character goes.
func clean2(s string) string {
	parts := strings.Split(s, "\n")
	for i, p := range parts {
		parts[i] = clean(p)
	}
	return strings.Join(parts, "\n")
}
