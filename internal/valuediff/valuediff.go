package valuediff

import (
	"encoding/json"
	"fmt"
	"strings"
)

// MaxLines bounds the lines of one side that Lines aligns.
const MaxLines = 2000

// Context is the number of unchanged lines shown around a change.
const Context = 3

// Kind marks one line of a diff.
type Kind uint8

// The line kinds.
const (
	Same Kind = iota
	Removed
	Added
	Hunk
)

// Line is one line of a value diff.
type Line struct {
	Kind Kind
	Text string
}

// String writes the line with its marker: "[ ] ", "[-] ", "[+] ", or the
// hunk header as is.
func (l Line) String() string {
	switch l.Kind {
	case Removed:
		return "[-] " + l.Text
	case Added:
		return "[+] " + l.Text
	case Hunk:
		return l.Text
	}
	return "[ ] " + l.Text
}

// Text writes v as indented JSON with sorted keys, one element per line.
func Text(v any) []string {
	b, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return []string{fmt.Sprint(v)}
	}
	return strings.Split(string(b), "\n")
}

// Long reports whether a change between old and new is worth a line diff:
// either side is a map or list whose JSON text is longer than width, or
// spans more than one line.
func Long(old, new any, width int) bool {
	for _, v := range []any{old, new} {
		switch v.(type) {
		case map[string]any, []any:
			b, _ := json.Marshal(v)
			if len(b) > width {
				return true
			}
		case string:
			if s := v.(string); strings.Contains(s, "\n") && len(s) > width {
				return true
			}
		}
	}
	return false
}

// Lines diffs old and new line by line and returns the changed lines with
// Context lines around them, each run under a hunk header. ok is false
// when either side has more than MaxLines lines. A multi-line string is
// diffed as its own lines.
func Lines(old, new any) (out []Line, ok bool) {
	a, b := lines(old), lines(new)
	if len(a) > MaxLines || len(b) > MaxLines {
		return nil, false
	}
	return hunks(align(a, b)), true
}

func lines(v any) []string {
	if s, ok := v.(string); ok && strings.Contains(s, "\n") {
		return strings.Split(strings.TrimSuffix(s, "\n"), "\n")
	}
	return Text(v)
}

// op is one aligned line with its numbers on each side (1-based).
type op struct {
	kind       Kind
	text       string
	oldN, newN int
}

// align is a longest-common-subsequence alignment of a and b.
func align(a, b []string) []op {
	n, m := len(a), len(b)
	// lcs[i][j]: length of the LCS of a[i:] and b[j:].
	lcs := make([][]int, n+1)
	for i := range lcs {
		lcs[i] = make([]int, m+1)
	}
	for i := n - 1; i >= 0; i-- {
		for j := m - 1; j >= 0; j-- {
			if a[i] == b[j] {
				lcs[i][j] = lcs[i+1][j+1] + 1
			} else {
				lcs[i][j] = max(lcs[i+1][j], lcs[i][j+1])
			}
		}
	}
	var out []op
	i, j := 0, 0
	for i < n || j < m {
		switch {
		case i < n && j < m && a[i] == b[j]:
			out = append(out, op{Same, a[i], i + 1, j + 1})
			i++
			j++
		case j < m && (i == n || lcs[i][j+1] >= lcs[i+1][j]):
			if i < n && lcs[i][j+1] == lcs[i+1][j] {
				// Prefer the removal first, as a unified diff shows it.
				out = append(out, op{Removed, a[i], i + 1, j})
				i++
				continue
			}
			out = append(out, op{Added, b[j], i, j + 1})
			j++
		default:
			out = append(out, op{Removed, a[i], i + 1, j})
			i++
		}
	}
	return out
}

// hunks keeps the changed lines and Context lines around them.
func hunks(ops []op) []Line {
	keep := make([]bool, len(ops))
	for i, o := range ops {
		if o.kind == Same {
			continue
		}
		for k := max(0, i-Context); k <= min(len(ops)-1, i+Context); k++ {
			keep[k] = true
		}
	}
	var out []Line
	for i := 0; i < len(ops); {
		if !keep[i] {
			i++
			continue
		}
		j := i
		for j < len(ops) && keep[j] {
			j++
		}
		oldStart, newStart, oldLen, newLen := 0, 0, 0, 0
		for _, o := range ops[i:j] {
			if o.kind != Added {
				if oldLen == 0 {
					oldStart = o.oldN
				}
				oldLen++
			}
			if o.kind != Removed {
				if newLen == 0 {
					newStart = o.newN
				}
				newLen++
			}
		}
		if oldLen == 0 {
			oldStart = ops[i].oldN
		}
		if newLen == 0 {
			newStart = ops[i].newN
		}
		out = append(out, Line{Kind: Hunk, Text: fmt.Sprintf("@@ -%d,%d +%d,%d @@", oldStart, oldLen, newStart, newLen)})
		for _, o := range ops[i:j] {
			out = append(out, Line{Kind: o.kind, Text: o.text})
		}
		i = j
	}
	return out
}
