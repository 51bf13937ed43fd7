package vscdk

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
)

// Verdict is the outcome of one pair.
type Verdict string

// The verdicts.
const (
	Agree          Verdict = "agree"
	RealdriftRight Verdict = "realdrift-right"
	CDKRight       Verdict = "cdk-right"
	// Unexplained: the tools disagree and the pair has no note.
	Unexplained Verdict = "unexplained"
)

// Outcome is one pair's comparison.
type Outcome struct {
	Pair    string
	Verdict Verdict
	// OnlyCDK and OnlyRealdrift are the facts one tool states and the
	// other does not.
	OnlyCDK, OnlyRealdrift []string
	// Reason is the note's text after its verdict line.
	Reason string
}

var (
	ansi      = regexp.MustCompile(`\x1b\[[0-9;]*m`)
	change    = regexp.MustCompile(`^\[([+\-~])\] (\S+::\S+) (.*)$`)
	outputRow = regexp.MustCompile(`^\[([+\-~])\] Output (\S+?):? `)
	tableRow  = regexp.MustCompile(`^│ ([+\-]) +│`)
)

// tables are the security tables' titles, as both tools write them.
var tables = []string{"IAM Statement Changes", "IAM Policy Changes", "Security Group Changes"}

// suffixes are the verdict words after a resource's name.
var suffixes = []struct{ text, action string }{
	{"may be replaced", "may-replace"},
	{"replace", "replace"},
	{"orphan", "orphan"},
	{"destroy", "destroy"},
}

// CDKFacts reads cdk diff's text.
func CDKFacts(text string) []string { return facts(text, true) }

// RealdriftFacts reads realdrift diff's text.
func RealdriftFacts(text string) []string { return facts(text, false) }

func facts(text string, cdk bool) []string {
	var out []string
	stack := ""
	section := ""
	counts := map[string]int{}
	sc := bufio.NewScanner(strings.NewReader(ansi.ReplaceAllString(text, "")))
	sc.Buffer(make([]byte, 1<<20), 1<<24)
	for sc.Scan() {
		line := sc.Text()
		switch {
		case strings.HasPrefix(line, "Nested stack: "):
			name := strings.TrimPrefix(line, "Nested stack: ")
			if i := strings.Index(name, " ("); i >= 0 {
				name = name[:i]
			}
			stack = name + "/"
			continue
		case line == "Resources" || line == "Outputs" || line == "Parameters" || line == "Conditions" || line == "Other Changes":
			section = line
			continue
		}
		for _, t := range tables {
			if strings.HasPrefix(line, t) {
				section = t
			}
		}
		if m := tableRow.FindStringSubmatch(line); m != nil {
			counts[stack+section+" "+m[1]]++
			continue
		}
		switch section {
		case "Resources":
			m := change.FindStringSubmatch(line)
			if m == nil {
				continue
			}
			id, action := resource(m[1], m[3], cdk)
			out = append(out, fmt.Sprintf("%sresource %s %s", stack, id, action))
		case "Outputs":
			if cdk {
				if m := outputRow.FindStringSubmatch(line); m != nil {
					out = append(out, fmt.Sprintf("%soutput %s %s", stack, m[2], outputAction(m[1])))
				}
				continue
			}
			if m := regexp.MustCompile(`^\[([+\-~])\] (\S+)$`).FindStringSubmatch(line); m != nil {
				out = append(out, fmt.Sprintf("%soutput %s %s", stack, m[2], outputAction(m[1])))
			}
		}
	}
	for k, n := range counts {
		out = append(out, fmt.Sprintf("%s × %d", k, n))
	}
	sort.Strings(out)
	return out
}

func outputAction(mark string) string {
	switch mark {
	case "+":
		return "add"
	case "-":
		return "remove"
	}
	return "modify"
}

// resource reads a change line's logical id and action.
func resource(mark, rest string, cdk bool) (id, action string) {
	action = map[string]string{"+": "create", "-": "destroy", "~": "update"}[mark]
	for _, s := range suffixes {
		if i := strings.Index(rest, " "+s.text); i >= 0 {
			if mark != "+" {
				action = s.action
			}
			if cdk {
				rest = rest[:i]
			}
			break
		}
	}
	words := strings.Fields(rest)
	if len(words) == 0 {
		return "?", action
	}
	if cdk {
		return words[len(words)-1], action
	}
	return words[0], action
}

// Compare compares one pair directory: cdk.txt and realdrift.txt, and its
// note.md when they disagree.
func Compare(dir string) (Outcome, error) {
	o := Outcome{Pair: filepath.Base(dir)}
	read := func(name string) (string, error) {
		b, err := os.ReadFile(filepath.Join(dir, name))
		return string(b), err
	}
	cdkText, err := read("cdk.txt")
	if err != nil {
		return o, err
	}
	rdText, err := read("realdrift.txt")
	if err != nil {
		return o, err
	}
	o.OnlyCDK, o.OnlyRealdrift = minus(CDKFacts(cdkText), RealdriftFacts(rdText)), minus(RealdriftFacts(rdText), CDKFacts(cdkText))
	if len(o.OnlyCDK) == 0 && len(o.OnlyRealdrift) == 0 {
		o.Verdict = Agree
		return o, nil
	}
	note, err := read("note.md")
	if os.IsNotExist(err) {
		o.Verdict = Unexplained
		return o, nil
	}
	if err != nil {
		return o, err
	}
	first, rest, _ := strings.Cut(note, "\n")
	switch strings.TrimSpace(strings.TrimPrefix(first, "verdict:")) {
	case string(RealdriftRight):
		o.Verdict = RealdriftRight
	case string(CDKRight):
		o.Verdict = CDKRight
	default:
		return o, fmt.Errorf("%s/note.md: first line %q: want \"verdict: realdrift-right\" or \"verdict: cdk-right\"", dir, first)
	}
	o.Reason = strings.TrimSpace(rest)
	return o, nil
}

func minus(a, b []string) []string {
	in := map[string]bool{}
	for _, x := range b {
		in[x] = true
	}
	var out []string
	for _, x := range a {
		if !in[x] {
			out = append(out, x)
		}
	}
	return out
}

// Table writes the per-pair table and the counts.
func Table(outs []Outcome) string {
	var b strings.Builder
	n := map[Verdict]int{}
	width := len("pair")
	for _, o := range outs {
		width = max(width, len(o.Pair))
	}
	fmt.Fprintf(&b, "%-*s  %s\n", width, "pair", "verdict")
	for _, o := range outs {
		n[o.Verdict]++
		fmt.Fprintf(&b, "%-*s  %s\n", width, o.Pair, o.Verdict)
		for _, f := range o.OnlyCDK {
			fmt.Fprintf(&b, "%-*s    only cdk:       %s\n", width, "", f)
		}
		for _, f := range o.OnlyRealdrift {
			fmt.Fprintf(&b, "%-*s    only realdrift: %s\n", width, "", f)
		}
	}
	fmt.Fprintf(&b, "agree %d, realdrift-right %d, cdk-right %d", n[Agree], n[RealdriftRight], n[CDKRight])
	if n[Unexplained] > 0 {
		fmt.Fprintf(&b, ", unexplained %d", n[Unexplained])
	}
	b.WriteString("\n")
	return b.String()
}
